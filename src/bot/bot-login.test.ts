import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { startTestApp, TEST_DISCORD, type TestApp } from '../test/harness.ts';
import { startBot } from './bot.ts';
import { waitFor } from './bot-test-kit.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp(); // no background: this test drives the bot itself
});
afterAll(() => app.close());

describe('bot login', () => {
  it('logs a failed login, keeps retrying, and connects once it can', async () => {
    const discord = { ...app.server.ctx.config.discord, botToken: 'not-the-token' };
    const ctx: AppContext = { ...app.server.ctx, config: { ...app.server.ctx.config, discord } };
    const failures = () => app.logLines.filter((l) => l.includes('bot: login failed')).length;
    const bot = startBot(ctx, { loginRetryMs: 50 });
    try {
      await waitFor(() => failures() >= 2, 5000, 'two failed logins');
      discord.botToken = TEST_DISCORD.botToken; // e.g. the operator fixed the token
      await bot.ready;
      expect(bot.client?.isReady()).toBe(true);
      expect(bot.client?.user?.id).toBe(app.sim.state.botId);
    } finally {
      await bot.stop();
    }
    expect(bot.client).toBeNull();
  });
});
