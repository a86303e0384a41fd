import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, type APIUser } from 'discord-api-types/v10';
import type { AppContext } from '../context.ts';
import { DiscordApi, DiscordApiError } from '../discord/discord-api.ts';
import { startTestApp, TEST_DISCORD, type TestApp } from '../test/harness.ts';
import { startBot, type Bot } from './bot.ts';
import { waitFor } from './bot-test-kit.ts';

// Issue 26 (review of item 5): discord.js's own REST client (client.rest: command registration and
// anything sent through it) forgot the bot token on a 401, as @discordjs/rest does ("Expected token
// to be set" for every call after it, until a restart). It now has the product port's recovery: the
// configured token goes back, the rejection is reported once, and while Discord keeps refusing it
// only one call per botTokenRetryMs is sent.

let app: TestApp;
let bot: Bot;
let discord: DiscordApi;

const setBotToken = async (valid: boolean) => {
  const res = await fetch(`${app.sim.url}/control/bot-token`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ valid }),
  });
  expect(res.status).toBe(204);
};

beforeAll(async () => {
  app = await startTestApp(); // no background: this test drives the bot itself
  // The port with a short retry period (the product's is 10 s), so the test need not wait for it.
  discord = new DiscordApi({
    baseUrl: app.server.ctx.config.discord.baseUrl,
    botToken: TEST_DISCORD.botToken,
    logger: app.server.ctx.logger,
    botTokenRetryMs: 200,
  });
  const ctx: AppContext = { ...app.server.ctx, discord };
  bot = startBot(ctx, { loginRetryMs: 50 });
  await bot.ready;
});
afterAll(async () => {
  await bot.stop();
  await app.close();
});

const me = () => bot.client!.rest.get(Routes.user('@me')) as Promise<APIUser>;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

describe("discord.js's REST after a 401 on the bot token", () => {
  it('comes back without a restart once the token is valid again, reported once, retried now and then', async () => {
    expect((await me()).id).toBe(app.sim.state.botId);

    await setBotToken(false);
    const first = await failureOf(me());
    // discord.js's own copy of @discordjs/rest (CommonJS): matched by shape, not class.
    expect(first).toMatchObject({ name: expect.stringMatching(/DiscordAPIError/), status: 401 });
    expect(discord.botTokenState().ok).toBe(false);
    // Right after: not sent again (one try per retry period), and not "Expected token to be set".
    const second = await failureOf(me());
    expect(second).toBeInstanceOf(DiscordApiError);
    expect((second as DiscordApiError).status).toBe(401);
    expect(String((second as Error).message)).not.toMatch(/Expected token/);

    await setBotToken(true);
    let user: APIUser | null = null;
    await waitFor(
      async () => {
        user = await me().catch(() => null);
        return user !== null;
      },
      10_000,
      'a bot REST call through discord.js to succeed again',
    );
    expect(user!.id).toBe(app.sim.state.botId);
    expect(discord.botTokenState()).toEqual({ ok: true, detail: 'accepted' });
    expect(app.logLines.filter((l) => l.includes('Discord rejected the bot token (401)'))).toHaveLength(1);
    expect(app.logLines.filter((l) => l.includes('the bot token is accepted again'))).toHaveLength(1);
  });
});
