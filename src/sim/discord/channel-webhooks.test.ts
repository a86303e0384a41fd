import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordSimulator, type DiscordSimulator } from './index.ts';

// Channel webhooks at the wire (Execute Webhook, discord-api-docs resources/webhook): what the owner
// notifications of decision 052 post to, as Discord answers it.

let sim: DiscordSimulator & { url: string };
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
});
afterAll(() => sim.close());

function execute(id: string, token: string, body: unknown, query = '') {
  return fetch(`${sim.url}/api/v10/webhooks/${id}/${token}${query}`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
}

describe('Execute Webhook', () => {
  it('answers 204 without a body, or the message with ?wait=true; no Authorization needed', async () => {
    const hook = sim.state.channelWebhooks.create({ name: 'alerts' });
    const quiet = await execute(hook.id, hook.token, { content: 'first' });
    expect(quiet.status).toBe(204);
    expect(await quiet.text()).toBe('');
    const waited = await execute(
      hook.id,
      hook.token,
      { content: 'second', username: 'CoinSync' },
      '?wait=true',
    );
    expect(waited.status).toBe(200);
    const message = (await waited.json()) as Record<string, unknown>;
    expect(message).toMatchObject({
      content: 'second',
      webhook_id: hook.id,
      channel_id: hook.channelId,
      author: { id: hook.id, username: 'CoinSync', bot: true },
    });
    expect(hook.messages.map((m) => m.content)).toEqual(['first', 'second']);
  });

  it("refuses an unknown webhook (10015), another webhook's token (50027) and an empty message (50006)", async () => {
    const hook = sim.state.channelWebhooks.create({});
    const unknown = await execute('123456789012345678', hook.token, { content: 'x' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 10015, message: 'Unknown Webhook' });
    const wrong = await execute(hook.id, 'not-the-token', { content: 'x' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 50027, message: 'Invalid Webhook Token' });
    const empty = await execute(hook.id, hook.token, {});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 50006, message: 'Cannot send an empty message' });
    const long = await execute(hook.id, hook.token, { content: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(hook.messages).toEqual([]);
  });

  it('control API: creates a webhook with the URL an owner copies, and fails on demand', async () => {
    const created = await fetch(`${sim.url}/control/webhooks`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'ops' }),
    });
    expect(created.status).toBe(201);
    const hook = (await created.json()) as { id: string; token: string; url: string };
    expect(hook.url).toBe(`https://discord.com/api/webhooks/${hook.id}/${hook.token}`);
    const fail = await fetch(`${sim.url}/control/webhooks/${hook.id}/fail`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ status: 500, count: 1 }),
    });
    expect(fail.status).toBe(204);
    expect((await execute(hook.id, hook.token, { content: 'a' })).status).toBe(500);
    expect((await execute(hook.id, hook.token, { content: 'b' })).status).toBe(204);
    const read = (await (await fetch(`${sim.url}/control/webhooks/${hook.id}`)).json()) as {
      messages: { content: string }[];
    };
    expect(read.messages.map((m) => m.content)).toEqual(['b']);
  });
});

describe('the guild page (demo)', () => {
  it('"New Webhook" creates one whose URL and messages the page shows; cross-site forms are refused', async () => {
    const owner = sim.state.createUser({ username: 'hook_owner' });
    const guild = sim.state.createGuild({ name: 'Hook Guild', ownerId: owner.id });
    const cross = await fetch(`${sim.url}/guilds/${guild.id}/webhooks`, {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site' },
      redirect: 'manual',
    });
    expect(cross.status).toBe(403);
    const made = await fetch(`${sim.url}/guilds/${guild.id}/webhooks`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(made.status).toBe(303);
    const [hook] = [...sim.state.channelWebhooks.byId.values()].filter((w) => w.guildId === guild.id);
    expect(hook).toBeDefined();
    await execute(hook!.id, hook!.token, { content: 'A member joined' });
    const page = await (await fetch(`${sim.url}/guilds/${guild.id}`)).text();
    expect(page).toContain(`https://discord.com/api/webhooks/${hook!.id}/${hook!.token}`);
    expect(page).toContain('A member joined');
  });
});
