import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../clock.ts';
import { JOB } from '../background.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import { insertCampaign } from '../test/factories.ts';
import { startBotTestApp, verifyMember } from '../bot/bot-test-kit.ts';
import { commandsRegistered, createLobby, run, text } from '../bot/commands/test-kit.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import { REMINDER_MEMBER_PACE_MS, type ReminderSettingsResponse } from '../shared/reminder-schemas.ts';
import { remindersRepo } from './reminders-repo.ts';
import { REMINDER_SENDING_LEASE_MS } from './send-reminders.ts';

// Opt-in reminders (issue 32 item 2, decision 055), end to end on the engine of the run (TEST_DB): the
// settings API, the schedule written by each event, and the reminders job sending through the Discord
// simulator — one DM per member per run, quiet hours in the member's zone, the per-member pace, 50007,
// runs repeated (a restart) and opting out. Nothing is mocked; the job runs as the JobMonitor runs it.

let app: TestApp;
let count = 0;

beforeAll(async () => {
  app = await startBotTestApp();
  await commandsRegistered(app);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

/** A signed-in member who shares a server with the bot (so DMs can reach them). */
async function member(locale?: string): Promise<TestClient> {
  count += 1;
  const username = `remind_${count}`;
  const user = app.sim.state.createUser({ username });
  if (locale) app.sim.state.setUserLocale(user.id, locale);
  const client = await app.signIn(username);
  createLobby(app, client);
  return client;
}

const settingsOf = async (c: TestClient) =>
  (await c.get<ReminderSettingsResponse>('/api/account/reminders')).body;
const put = (c: TestClient, body: unknown) =>
  c.request<ReminderSettingsResponse & { message?: string }>('PUT', '/api/account/reminders', body);
const dmsTo = (c: TestClient) => app.sim.state.listDms({ userId: c.user!.discordId });
const rowsOf = (c: TestClient) => remindersRepo(app.server.ctx.store.read).listOf(c.user!.id);
const runJob = () => app.server.jobs.run(JOB.reminders);
const claim = (c: TestClient, type: 'regular' | 'bonus' | 'daily') => c.post('/api/hourly/claim', { type });

describe('settings API', () => {
  it('is off by default; refuses bad input with a 400 that changes nothing', async () => {
    const m = await member();
    const before = await settingsOf(m);
    expect(before).toEqual({
      kinds: { hourly: false, bonus: false, daily: false, stay: false, campaign: false },
      timeZone: 'UTC',
      quietHours: null,
      dmBlockedAt: null,
    });
    const bad: [unknown, string][] = [
      [{ timeZone: 'Mars/Olympus_Mons' }, 'Time zone must be an IANA name like America/Sao_Paulo'],
      [{ quietHours: { start: '25:00', end: '08:00' } }, 'Quiet hours must be times like 22:00'],
      [{ quietHours: { start: '22:00', end: '22:00' } }, 'Quiet hours must start and end at different times'],
      [{ kinds: { hourly: 'yes' } }, 'hourly must be true or false'],
      [{ kinds: { weekly: true } }, ''],
      [{ kinds: { hourly: true }, extra: 1 }, ''],
    ];
    for (const [body, message] of bad) {
      const res = await put(m, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.message).toBe('string');
      if (message) expect(res.body.message).toContain(message);
    }
    expect(await settingsOf(m)).toEqual(before);
    expect((await app.anonymous().get('/api/account/reminders')).status).toBe(401);
  });

  it('switching on takes the time zone and offers quiet hours 22:00–08:00; they can be changed or removed', async () => {
    const m = await member();
    const on = await put(m, { kinds: { daily: true }, timeZone: 'America/Sao_Paulo' });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({
      kinds: { daily: true, hourly: false },
      timeZone: 'America/Sao_Paulo',
      quietHours: { start: '22:00', end: '08:00' },
    });
    expect((await put(m, { quietHours: { start: '23:30', end: '07:00' } })).body.quietHours).toEqual({
      start: '23:30',
      end: '07:00',
    });
    expect((await put(m, { quietHours: null })).body.quietHours).toBeNull();
    expect((await settingsOf(m)).kinds.daily).toBe(true);
  });
});

describe('the schedule', () => {
  it('a claim schedules "ready" one period later, only for a member who switched that kind on', async () => {
    const m = await member();
    const other = await member();
    await put(m, { kinds: { hourly: true } });
    const now = app.clock.now();
    expect((await claim(m, 'regular')).status).toBe(200);
    expect((await claim(m, 'bonus')).status).toBe(200);
    expect((await claim(other, 'regular')).status).toBe(200);
    expect(await rowsOf(m)).toMatchObject([
      { kind: 'hourly', subjectId: 'regular', dueAt: now + HOUR, state: 'pending' },
    ]);
    expect(await rowsOf(other)).toEqual([]);
  });

  it('switching a reward on later schedules it from the last claim', async () => {
    const m = await member();
    expect((await claim(m, 'daily')).status).toBe(200);
    const claimedAt = app.clock.now();
    app.clock.advance(20 * MINUTE);
    await put(m, { kinds: { daily: true } });
    expect(await rowsOf(m)).toMatchObject([
      { kind: 'daily', dueAt: claimedAt + 24 * HOUR, state: 'pending' },
    ]);
  });

  it('a verification schedules "you may leave" at the end of the stay; a campaign passing 80 % tells its owner once', async () => {
    const owner = await member();
    const joiner = await member();
    await put(owner, { kinds: { campaign: true } });
    await put(joiner, { kinds: { stay: true } });
    const guild = app.sim.state.createGuild({ name: 'Eighty Percent', ownerId: owner.user!.discordId });
    const invite = app.sim.state.createInvite(guild.id, { maxAge: 0 });
    const campaign = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      name: 'Eighty Percent',
      guildId: guild.id,
      inviteCode: invite.code,
      inviteLink: `https://discord.gg/${invite.code}`,
      initialMemberSlots: 10,
      membersRemaining: 3,
    });
    await verifyMember(app, joiner, guild.id, campaign.id);
    const [join] = await app.query<{ id: string; verified_at: number }>(
      sql`SELECT id, verified_at FROM server_joins WHERE server_id = ${campaign.id}`,
    );
    expect(await rowsOf(joiner)).toMatchObject([
      {
        kind: 'stay',
        subjectId: join!.id,
        dueAt: Number(join!.verified_at) + CAMPAIGN_KIND_RULES.regular.minStayMs,
        state: 'pending',
      },
    ]);
    expect(await rowsOf(owner)).toMatchObject([
      { kind: 'campaign', subjectId: campaign.id, state: 'pending' },
    ]);
    await runJob();
    expect(dmsTo(owner).at(-1)?.content).toContain(
      'Your campaign for **Eighty Percent** is 80 % full: 8 of 10 members.',
    );
    // The stay's reminder waits for the stay to end.
    expect(dmsTo(joiner)).toHaveLength(0);
    app.clock.advance(CAMPAIGN_KIND_RULES.regular.minStayMs);
    await runJob();
    expect(dmsTo(joiner).at(-1)?.content).toContain(
      'You may now leave **Eighty Percent** without a penalty.',
    );
  });
});

describe('the reminders job', () => {
  it('sends one DM per due reminder, and running again (a restart) sends nothing twice', async () => {
    const m = await member();
    await put(m, { kinds: { hourly: true }, quietHours: null });
    await claim(m, 'regular');
    await runJob();
    expect(dmsTo(m)).toHaveLength(0); // not due yet
    app.clock.advance(HOUR);
    await runJob();
    await runJob();
    expect(dmsTo(m)).toHaveLength(1);
    expect(dmsTo(m)[0]!.content).toContain('Your hourly reward is ready: /hourly');
    expect(dmsTo(m)[0]!.content).toContain('Turn them off with /remind');
    expect(await rowsOf(m)).toMatchObject([{ state: 'sent' }]);
  });

  it('a send claimed by a process that died is never sent again (at most once)', async () => {
    const m = await member();
    await put(m, { kinds: { bonus: true }, quietHours: null });
    await claim(m, 'bonus');
    const [row] = await rowsOf(m);
    app.clock.advance(6 * HOUR);
    // The claim of a process that then died before sending.
    await app.server.ctx.store.transaction((tx) =>
      remindersRepo(tx).setPendingState([row!.id], 'sending', app.clock.now()),
    );
    // Within the lease it may be a send still in flight: left alone.
    app.clock.advance(REMINDER_SENDING_LEASE_MS - MINUTE);
    await runJob();
    expect(await rowsOf(m)).toMatchObject([{ id: row!.id, state: 'sending' }]);
    // Past the lease the sweep ends it as failed, never pending again (Discord may have delivered it).
    app.clock.advance(2 * MINUTE);
    await runJob();
    expect(await rowsOf(m)).toMatchObject([{ id: row!.id, state: 'failed' }]);
    app.clock.advance(HOUR);
    await runJob();
    expect(dmsTo(m)).toHaveLength(0);
    expect(await rowsOf(m)).toMatchObject([{ id: row!.id, state: 'failed' }]);
    // The next claim schedules the next one as usual.
    await claim(m, 'bonus');
    app.clock.advance(6 * HOUR);
    await runJob();
    expect(dmsTo(m)).toHaveLength(1);
  });

  it('several due at once go in one DM; the next waits for the member’s pace', async () => {
    const m = await member();
    await put(m, { kinds: { hourly: true, bonus: true }, quietHours: null });
    await claim(m, 'regular');
    await claim(m, 'bonus');
    app.clock.advance(6 * HOUR);
    await runJob();
    expect(dmsTo(m)).toHaveLength(1);
    expect(dmsTo(m)[0]!.content).toMatch(
      /hourly reward is ready[\s\S]*bonus reward is ready|bonus reward is ready[\s\S]*hourly reward is ready/,
    );
    const sentAt = app.clock.now();
    await claim(m, 'regular');
    // Ready again in an hour; the pace lets it through at once then. Move the row to "due in 1 min".
    const hourly = (await rowsOf(m)).find((r) => r.kind === 'hourly')!;
    await app.server.ctx.store.transaction((tx) =>
      remindersRepo(tx).schedule(
        { userId: m.user!.id, kind: 'hourly', subjectId: 'regular', dueAt: sentAt + MINUTE, now: sentAt },
        true,
      ),
    );
    app.clock.advance(MINUTE);
    await runJob();
    expect(dmsTo(m)).toHaveLength(1);
    expect((await rowsOf(m)).find((r) => r.id === hourly.id)).toMatchObject({
      state: 'pending',
      dueAt: sentAt + REMINDER_MEMBER_PACE_MS,
    });
    app.clock.set(sentAt + REMINDER_MEMBER_PACE_MS);
    await runJob();
    expect(dmsTo(m)).toHaveLength(2);
  });

  it('quiet hours in the member’s time zone defer to their end (Istanbul, UTC+3)', async () => {
    const m = await member();
    await put(m, {
      kinds: { hourly: true },
      timeZone: 'Europe/Istanbul',
      quietHours: { start: '22:00', end: '08:00' },
    });
    // 19:30 UTC = 22:30 in Istanbul: the reward is ready at 20:30 UTC = 23:30 there.
    const day = Math.ceil(app.clock.now() / (24 * HOUR)) * 24 * HOUR; // the next UTC midnight
    app.clock.set(day + 19.5 * HOUR);
    expect((await claim(m, 'regular')).status).toBe(200);
    app.clock.set(day + 20.5 * HOUR);
    await runJob();
    expect(dmsTo(m)).toHaveLength(0);
    // 08:00 in Istanbul is 05:00 UTC the next day.
    expect(await rowsOf(m)).toMatchObject([{ state: 'pending', dueAt: day + 29 * HOUR }]);
    app.clock.set(day + 29 * HOUR - MINUTE);
    await runJob();
    expect(dmsTo(m)).toHaveLength(0);
    app.clock.set(day + 29 * HOUR);
    await runJob();
    expect(dmsTo(m)).toHaveLength(1);
  });

  it('50007 switches every reminder off and the Account page says so', async () => {
    const m = await member();
    await put(m, { kinds: { hourly: true, daily: true }, quietHours: null });
    await claim(m, 'regular');
    await claim(m, 'daily');
    app.sim.state.setAcceptsDms(m.user!.discordId, false);
    app.clock.advance(HOUR);
    await runJob();
    expect(dmsTo(m)).toHaveLength(0);
    const after = await settingsOf(m);
    expect(after.kinds).toEqual({ hourly: false, bonus: false, daily: false, stay: false, campaign: false });
    expect(after.dmBlockedAt).not.toBeNull();
    const states = Object.fromEntries((await rowsOf(m)).map((r) => [r.kind, r.state]));
    expect(states).toEqual({ hourly: 'failed', daily: 'canceled' });
    // Nothing more is tried: the daily's time comes and goes.
    app.sim.state.setAcceptsDms(m.user!.discordId, true);
    app.clock.advance(24 * HOUR);
    await runJob();
    expect(dmsTo(m)).toHaveLength(0);
    // Switching on again clears it.
    expect((await put(m, { kinds: { hourly: true } })).body.dmBlockedAt).toBeNull();
  });

  it('opting out stops pending reminders', async () => {
    const m = await member();
    await put(m, { kinds: { hourly: true }, quietHours: null });
    await claim(m, 'regular');
    await put(m, { kinds: { hourly: false } });
    expect(await rowsOf(m)).toMatchObject([{ state: 'canceled' }]);
    app.clock.advance(HOUR);
    await runJob();
    expect(dmsTo(m)).toHaveLength(0);
  });
});

describe('account deletion', () => {
  it('removes the member’s settings and schedule', async () => {
    const m = await member();
    await put(m, { kinds: { hourly: true }, quietHours: null });
    await claim(m, 'regular');
    const id = m.user!.id;
    expect(
      (await m.request('DELETE', '/api/account', { confirmUsername: m.user!.discordUsername })).status,
    ).toBe(200);
    expect(await remindersRepo(app.server.ctx.store.read).listOf(id)).toEqual([]);
    expect(await remindersRepo(app.server.ctx.store.read).findSettings(id)).toBeUndefined();
  });
});

describe('/remind', () => {
  it('switches kinds on and off from the bot’s DM, in the member’s language and time zone', async () => {
    const m = await member('tr');
    const on = await run(app, m, 'remind', { options: { kind: 'daily', state: 'on' } });
    expect(text(on.reply)).toContain('Günlük ödül hazır: açık');
    expect(text(on.reply)).toContain('Europe/Istanbul');
    expect(await settingsOf(m)).toMatchObject({
      kinds: { daily: true, hourly: false },
      timeZone: 'Europe/Istanbul',
      quietHours: { start: '22:00', end: '08:00' },
    });
    const off = await run(app, m, 'remind', { options: { kind: 'all', state: 'off' } });
    expect(text(off.reply)).toContain('Günlük ödül hazır: kapalı');
    expect((await settingsOf(m)).kinds.daily).toBe(false);
  });

  it('without options shows the settings, in a server too', async () => {
    const m = await member();
    const lobby = createLobby(app, m);
    const shown = await run(app, m, 'remind', { guildId: lobby.id });
    expect(text(shown.reply)).toContain('Your reminders');
    expect(text(shown.reply)).toContain('Hourly reward ready: off');
  });
});
