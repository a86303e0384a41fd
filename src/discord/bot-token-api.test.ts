import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { insertCampaign } from '../test/factories.ts';

// Issue 26 item 5 through the running app: a 401 on the bot token shows in /api/ready at once (the
// recovery itself, with the configured token tried again, is in discord-deadlines.test.ts).

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('Discord rejects the bot token', () => {
  it('fails readiness with a clear detail and logs it once', async () => {
    const anonymous = app.anonymous();
    const before = await anonymous.get<{ checks: Record<string, { ok: boolean; detail: string }> }>(
      '/api/ready',
    );
    expect(before.body.checks.discordBotToken).toEqual({ ok: true, detail: 'accepted' });

    const owner = await app.signIn('token_owner');
    const member = await app.signIn('token_member');
    const campaign = await insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id });
    app.sim.state.botTokenValid = false;
    // The join's member look-up is a bot call: Discord answers 401.
    const join = await member.post(`/api/servers/${campaign.id}/join`);
    expect(join.status).toBe(502);

    const after = await anonymous.get<{ checks: Record<string, { ok: boolean; detail: string }> }>(
      '/api/ready',
    );
    expect(after.status).toBe(503);
    expect(after.body.checks.discordBotToken?.ok).toBe(false);
    expect(after.body.checks.discordBotToken?.detail).toMatch(
      /^Discord rejected the bot token \(401\) \d+ s ago; bot REST calls fail\. Set DISCORD_BOT_TOKEN/,
    );
    expect(app.logLines.filter((l) => l.includes('Discord rejected the bot token (401)'))).toHaveLength(1);
    app.sim.state.botTokenValid = true;
  });
});
