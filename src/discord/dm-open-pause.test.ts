import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../clock.ts';
import { JOB } from '../background.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import { startBotTestApp } from '../bot/bot-test-kit.ts';
import { commandsRegistered, createLobby } from '../bot/commands/test-kit.ts';
import { remindersRepo } from '../reminders/reminders-repo.ts';
import { DM_OPEN_PAUSE_MS, DmOpensPausedError } from './discord-api.ts';

// Discord's anti-spam on DMs (Create DM's warning in discord-api-docs `resources/user.mdx`; bots see
// 403 40003 "You are opening direct messages too fast" after a few dozen at once): the simulator answers
// 40003 past its limit of new DM channels, and the product keeps each member's DM channel (a repeat DM
// opens nothing), pauses new channels for DM_OPEN_PAUSE_MS after a 40003 without asking Discord again,
// and a reminder caught by the pause waits for its end without losing an attempt.

let app: TestApp;
let count = 0;

beforeAll(async () => {
  app = await startBotTestApp();
  await commandsRegistered(app);
});
afterAll(() => app.close());
beforeEach(() => {
  // Each test sets the limit it needs.
  app.sim.state.dmOpenLimit = null;
});

/** A signed-in member who shares a server with the bot (so DMs can reach them). */
async function member(): Promise<TestClient> {
  count += 1;
  const username = `dmpause_${count}`;
  app.sim.state.createUser({ username });
  const client = await app.signIn(username);
  createLobby(app, client);
  return client;
}

const dmsTo = (c: TestClient) => app.sim.state.listDms({ userId: c.user!.discordId });
const requests = () => app.sim.state.rateLimits.stats().requests;

describe('DM channels and the 40003 pause', () => {
  it('keeps a member’s DM channel, and after a 40003 opens no new channel until the pause ends', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const discord = app.server.ctx.discord;
    app.sim.state.dmOpenLimit = { limit: 2, windowMs: 10 * MINUTE };
    await discord.sendDirectMessage(a.user!.discordId, { content: 'one' });
    await discord.sendDirectMessage(b.user!.discordId, { content: 'one' });
    // The third new channel in the window: Discord says 40003, the product pauses new channels.
    const refused = await discord
      .sendDirectMessage(c.user!.discordId, { content: 'one' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DmOpensPausedError);
    expect((refused as DmOpensPausedError).until).toBe(app.clock.now() + DM_OPEN_PAUSE_MS);
    // During the pause a DM that needs a new channel fails at once: Discord is not asked again.
    const before = requests();
    await expect(discord.sendDirectMessage(c.user!.discordId, { content: 'two' })).rejects.toBeInstanceOf(
      DmOpensPausedError,
    );
    expect(requests()).toBe(before);
    // A member whose channel is open still gets DMs, through the kept channel: one request, no Create DM.
    await discord.sendDirectMessage(a.user!.discordId, { content: 'two' });
    expect(requests()).toBe(before + 1);
    expect(dmsTo(a).map((m) => m.content)).toEqual(['one', 'two']);
    expect(dmsTo(c)).toHaveLength(0);
    // After the pause (and Discord's window), the new channel opens.
    app.clock.advance(DM_OPEN_PAUSE_MS);
    await discord.sendDirectMessage(c.user!.discordId, { content: 'three' });
    expect(dmsTo(c).map((m) => m.content)).toEqual(['three']);
  });

  it('a reminder caught by the pause waits for its end, and the wait is not an attempt', async () => {
    const m = await member();
    expect(
      (await m.request('PUT', '/api/account/reminders', { kinds: { hourly: true }, quietHours: null }))
        .status,
    ).toBe(200);
    expect((await m.post('/api/hourly/claim', { type: 'regular' })).status).toBe(200);
    // Discord refuses every new DM channel now.
    app.sim.state.dmOpenLimit = { limit: 0, windowMs: 10 * MINUTE };
    app.clock.advance(HOUR);
    await app.server.jobs.run(JOB.reminders);
    expect(dmsTo(m)).toHaveLength(0);
    const [row] = await remindersRepo(app.server.ctx.store.read).listOf(m.user!.id);
    expect(row).toMatchObject({ state: 'pending', attempts: 0, dueAt: app.clock.now() + DM_OPEN_PAUSE_MS });
    // Runs during the pause send nothing and ask Discord nothing.
    const before = requests();
    app.clock.advance(5 * MINUTE);
    await app.server.jobs.run(JOB.reminders);
    expect(requests()).toBe(before);
    // The pause over and Discord willing again: the reminder goes, once.
    app.sim.state.dmOpenLimit = null;
    app.clock.advance(DM_OPEN_PAUSE_MS);
    await app.server.jobs.run(JOB.reminders);
    await app.server.jobs.run(JOB.reminders);
    expect(dmsTo(m)).toHaveLength(1);
    expect((await remindersRepo(app.server.ctx.store.read).listOf(m.user!.id))[0]).toMatchObject({
      state: 'sent',
      attempts: 1,
    });
  });
});
