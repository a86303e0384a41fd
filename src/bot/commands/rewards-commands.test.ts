import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { HOUR } from '../../clock.ts';
import type { TestApp, TestClient } from '../../test/harness.ts';
import { balanceOf, startBotTestApp, transactionsOf } from '../bot-test-kit.ts';
import { EPHEMERAL, buttons, commandsRegistered, createLobby, run, text } from './test-kit.ts';
import { SLASH_COMMANDS } from './index.ts';

// /hourly, /bonus, /daily, /coins, /help and the sign-in message, through discord.js and the simulator.

let app: TestApp;
let alice: TestClient;
let lobbyId: string;

beforeAll(async () => {
  app = await startBotTestApp();
  alice = await app.signIn('slash_alice');
  lobbyId = createLobby(app, alice).id;
  await commandsRegistered(app);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('registration', () => {
  it('registers every command globally with its options', () => {
    const names = app.sim.state.interactions
      .listCommands(null)
      .map((c) => c.name)
      .sort();
    expect(names).toEqual([
      'bonus',
      'campaign',
      'coins',
      'daily',
      'farm',
      'help',
      'hourly',
      'joins',
      'remind',
    ]);
    expect(names).toEqual([...SLASH_COMMANDS.keys()].sort());
    const farm = app.sim.state.interactions.findCommand(null, 'farm')!;
    expect(farm.options).toEqual([expect.objectContaining({ name: 'search', type: 3, required: false })]);
    // Not demo mode: no per-guild copies.
    expect(app.sim.state.interactions.listCommands(lobbyId)).toEqual([]);
  });
});

describe('a command Discord still lists but the bot no longer has', () => {
  it('is answered, not left to time out', async () => {
    const interactions = app.sim.state.interactions;
    const current = interactions
      .listCommands(null)
      .map(({ name, description, options }) => ({ name, description, options }));
    interactions.overwriteCommands(null, [...current, { name: 'legacy', description: 'An old command' }]);
    const { reply, callbacks } = await run(app, alice, 'legacy', { guildId: lobbyId });
    expect(callbacks).toEqual([4]);
    expect(reply.content).toBe('This command is no longer available. Use /help to see what the bot can do.');
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
  });
});

describe('timed rewards', () => {
  it.each([
    ['hourly', 'regular', 'Hourly Reward Claimed!', 100, HOUR],
    ['bonus', 'bonus', 'Bonus Reward Claimed!', 300, 6 * HOUR],
    ['daily', 'daily', 'Daily Reward Claimed!', 500, 24 * HOUR],
  ] as const)(
    '/%s pays once, then refuses with the website’s words until the cooldown ends',
    async (command, type, title, cents, period) => {
      const before = await balanceOf(app, alice);
      const first = await run(app, alice, command, { guildId: lobbyId });
      expect(first.callbacks).toEqual([4]);
      expect(first.reply.flags & EPHEMERAL).toBe(EPHEMERAL);
      expect(first.reply.embeds[0]!.title).toBe(title);
      expect(first.reply.embeds[0]!.description).toBe(
        `+${(cents / 100).toFixed(2)} coins added to your balance`,
      );
      expect(await balanceOf(app, alice)).toBe(before + cents);

      app.clock.advance(period - 23 * 60 * 1000);
      const again = await run(app, alice, command, { guildId: lobbyId });
      const web = await alice.post<{ message: string }>('/api/hourly/claim', { type });
      expect(web.status).toBe(425);
      expect(again.reply.content).toBe(web.body.message);
      expect(again.reply.content).toBe(`You can claim your ${command} reward again in 23 minutes.`);
      expect(again.reply.flags & EPHEMERAL).toBe(EPHEMERAL);
      expect(await balanceOf(app, alice)).toBe(before + cents);

      app.clock.advance(23 * 60 * 1000);
      const later = await run(app, alice, command);
      expect(later.reply.embeds[0]!.title).toBe(title);
      expect(await balanceOf(app, alice)).toBe(before + 2 * cents);
      app.clock.advance(24 * HOUR);
    },
  );

  it('/daily shows the daily streak and the best one (counted as on the Rewards page)', async () => {
    const bob = await app.signIn('slash_streaker');
    const first = await run(app, bob, 'daily');
    expect(first.reply.embeds[0]!.fields).toEqual([
      { name: 'Daily streak', value: '🔥 1 day in a row (best: 1 day)', inline: false },
    ]);
    app.clock.advance(30 * HOUR);
    const second = await run(app, bob, 'daily');
    expect(second.reply.embeds[0]!.fields![0]!.value).toBe('🔥 2 days in a row (best: 2 days)');
    const status = await bob.get<{ dailyStreak: number; bestDailyStreak: number }>('/api/hourly');
    expect(status.body).toMatchObject({ dailyStreak: 2, bestDailyStreak: 2 });
    app.clock.advance(49 * HOUR);
    const third = await run(app, bob, 'daily');
    expect(third.reply.embeds[0]!.fields![0]!.value).toBe('🔥 1 day in a row (best: 2 days)');
    const hourly = await run(app, bob, 'hourly');
    expect(hourly.reply.embeds[0]!.fields).toBeUndefined();
  });

  it('lets concurrent /hourly and website claims pay exactly once', async () => {
    const before = (await transactionsOf(app, alice, 'hourly')).length;
    const [a, b, web] = await Promise.all([
      run(app, alice, 'hourly', { guildId: lobbyId }),
      run(app, alice, 'hourly'),
      alice.post('/api/hourly/claim', { type: 'regular' }),
    ]);
    const paid = [a.reply.embeds.length > 0, b.reply.embeds.length > 0, web.status === 200].filter(Boolean);
    expect(paid).toHaveLength(1);
    expect((await transactionsOf(app, alice, 'hourly')).length).toBe(before + 1);
    app.clock.advance(24 * HOUR);
  });
});

describe('/coins', () => {
  it('shows the balance, today’s earnings and when each reward is ready', async () => {
    await run(app, alice, 'hourly');
    const balance = ((await balanceOf(app, alice)) / 100).toFixed(2);
    const { reply } = await run(app, alice, 'coins', { guildId: lobbyId });
    const fields = Object.fromEntries(reply.embeds[0]!.fields!.map((f) => [f.name, f.value]));
    expect(fields.Balance).toBe(`**${balance}** coins`);
    expect(fields['Earned today (UTC)']).toMatch(/^\+\d+\.\d\d$/);
    expect(fields['Hourly +1.00']).toBe('In 1 hour');
    expect(fields['Bonus +3.00']).toBe('Ready — use /bonus');
    expect(fields['Daily +5.00']).toBe('Ready — use /daily');
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(buttons(reply).map((b) => b.url)).toEqual([`${app.url}/dashboard`]);
  });
});

describe('members who never signed in on the website', () => {
  it('get an ephemeral sign-in message from every command that needs an account, and nothing changes', async () => {
    const stranger = app.sim.state.createUser({ username: 'slash_stranger' });
    app.sim.state.addMember(lobbyId, stranger.id);
    for (const command of ['coins', 'hourly', 'bonus', 'daily', 'farm', 'joins', 'campaign']) {
      const { reply, callbacks } = await run(app, stranger.id, command, { guildId: lobbyId });
      expect(callbacks).toEqual([4]);
      expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
      expect(reply.embeds[0]!.title).toBe('Sign in to CoinSync first');
      expect(text(reply)).toContain(app.url);
      expect(buttons(reply)).toEqual([expect.objectContaining({ style: 5, url: `${app.url}/` })]);
    }
    const users = await app.query<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM users WHERE discord_id = ${stranger.id}`,
    );
    expect(users).toEqual([{ n: 0 }]);
  });

  it('still get /help, with the website, Terms and Privacy', async () => {
    const stranger = app.sim.state.createUser({ username: 'slash_helpless' });
    const { reply } = await run(app, stranger.id, 'help');
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(text(reply)).toContain('/farm');
    expect(text(reply)).toContain('not affiliated with Discord');
    expect(buttons(reply).map((b) => [b.label, b.url])).toEqual([
      ['Website', `${app.url}/`],
      ['Terms of Service', `${app.url}/terms`],
      ['Privacy Policy', `${app.url}/privacy`],
    ]);
  });
});
