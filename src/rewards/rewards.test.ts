import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { HOUR, SECOND } from '../clock.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import type { RewardStatus } from '../shared/api-types.ts';
import type { ClaimRewardResponse } from '../shared/rewards-schemas.ts';

let app: TestApp;
let counter = 0;
const nextName = () => `rewarder${++counter}`;

beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => app.checkLedger());
afterAll(async () => {
  await app.close();
});

interface Tx {
  amount: string;
  type: string;
  description: string | null;
}
function rewardTransactions(app: TestApp, userId: string, type: string): Promise<Tx[]> {
  return app.query<Tx>(
    sql`SELECT amount, type, description FROM transactions WHERE user_id = ${userId} AND type = ${type} ORDER BY created_at, id`,
  );
}

const cases = [
  {
    type: 'regular',
    period: HOUR,
    cents: 100,
    earned: '1.00',
    txType: 'hourly',
    description: 'Hourly reward',
    label: 'hourly',
  },
  {
    type: 'bonus',
    period: 6 * HOUR,
    cents: 300,
    earned: '3.00',
    txType: 'bonus',
    description: 'Bonus reward',
    label: 'bonus',
  },
  {
    type: 'daily',
    period: 24 * HOUR,
    cents: 500,
    earned: '5.00',
    txType: 'daily',
    description: 'Daily reward',
    label: 'daily',
  },
] as const;

describe('POST /api/hourly/claim', () => {
  for (const c of cases) {
    it(`${c.type}: credits ${c.earned}, refuses one second before ${c.period / HOUR} h, accepts exactly on time`, async () => {
      const client = await app.signIn(nextName());
      const before = await client.balanceCents();

      const first = await client.post<ClaimRewardResponse>('/api/hourly/claim', { type: c.type });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ type: c.type, earned: c.earned });
      expect(await client.balanceCents()).toBe(before + c.cents);

      app.clock.advance(c.period - SECOND);
      const early = await client.post<{ message: string }>('/api/hourly/claim', { type: c.type });
      expect(early.status).toBe(425);
      expect(early.body.message).toBe(`You can claim your ${c.label} reward again in 1 minute.`);
      expect(await client.balanceCents()).toBe(before + c.cents);

      app.clock.advance(SECOND);
      const onTime = await client.post<ClaimRewardResponse>('/api/hourly/claim', { type: c.type });
      expect(onTime.status).toBe(200);
      expect(await client.balanceCents()).toBe(before + 2 * c.cents);

      const txs = await rewardTransactions(app, client.user!.id, c.txType);
      expect(txs).toEqual([
        { amount: c.cents, type: c.txType, description: c.description },
        { amount: c.cents, type: c.txType, description: c.description },
      ]);
    });
  }

  it('each reward has its own cooldown', async () => {
    const client = await app.signIn(nextName());
    expect((await client.post('/api/hourly/claim', { type: 'regular' })).status).toBe(200);
    expect((await client.post('/api/hourly/claim', { type: 'bonus' })).status).toBe(200);
    expect((await client.post('/api/hourly/claim', { type: 'daily' })).status).toBe(200);
    app.clock.advance(HOUR);
    expect((await client.post('/api/hourly/claim', { type: 'regular' })).status).toBe(200);
    expect((await client.post('/api/hourly/claim', { type: 'bonus' })).status).toBe(425);
    expect((await client.post('/api/hourly/claim', { type: 'daily' })).status).toBe(425);
  });

  it('says how long to wait in hours and minutes', async () => {
    const client = await app.signIn(nextName());
    await client.post('/api/hourly/claim', { type: 'daily' });
    app.clock.advance(48 * 60 * SECOND + 30 * SECOND); // 48.5 minutes later: 23 h 11.5 min left
    const res = await client.post<{ message: string }>('/api/hourly/claim', { type: 'daily' });
    expect(res.body.message).toBe('You can claim your daily reward again in 23 hours 12 minutes.');
    const hourly = await client.post('/api/hourly/claim', { type: 'regular' });
    expect(hourly.status).toBe(200);
    app.clock.advance(37 * 60 * SECOND);
    const again = await client.post<{ message: string }>('/api/hourly/claim', { type: 'regular' });
    expect(again.body.message).toBe('You can claim your hourly reward again in 23 minutes.');
  });

  it('20 concurrent claims of one reward: exactly one succeeds and one transaction is written', async () => {
    const client = await app.signIn(nextName());
    const before = await client.balanceCents();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => client.post('/api/hourly/claim', { type: 'bonus' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 425)).toHaveLength(19);
    expect(await rewardTransactions(app, client.user!.id, 'bonus')).toHaveLength(1);
    expect(await client.balanceCents()).toBe(before + 300);
  });

  it('rejects a bad type with 400 and a message', async () => {
    const client = await app.signIn(nextName());
    for (const body of [{ type: 'weekly' }, {}, { type: 1 }, 'not json', [1]]) {
      const res = await client.post<{ message: string }>('/api/hourly/claim', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const res = await client.post<{ message: string }>('/api/hourly/claim', { type: 'weekly' });
    expect(res.body.message).toBe('Reward type must be one of regular, bonus or daily');
    expect(await rewardTransactions(app, client.user!.id, 'hourly')).toHaveLength(0);
  });

  it('requires sign-in', async () => {
    expect((await app.anonymous().post('/api/hourly/claim', { type: 'regular' })).status).toBe(401);
    expect((await app.anonymous().get('/api/hourly')).status).toBe(401);
  });
});

describe('GET /api/hourly', () => {
  it('reports all rewards claimable for a new user', async () => {
    const client = await app.signIn(nextName());
    const res = await client.get<RewardStatus>('/api/hourly');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      canClaimRegular: true,
      canClaimBonus: true,
      canClaimDaily: true,
      regularHoursRemaining: 0,
      bonusHoursRemaining: 0,
      dailyHoursRemaining: 0,
      dailyStreak: 0,
      bestDailyStreak: 0,
    });
  });

  it('reports fractional hours remaining per reward, and 0 once the period has passed', async () => {
    const client = await app.signIn(nextName());
    await client.post('/api/hourly/claim', { type: 'regular' });
    await client.post('/api/hourly/claim', { type: 'daily' });
    app.clock.advance(HOUR / 4);
    const res = await client.get<RewardStatus>('/api/hourly');
    expect(res.body).toEqual({
      canClaimRegular: false,
      canClaimBonus: true,
      canClaimDaily: false,
      regularHoursRemaining: 0.75,
      bonusHoursRemaining: 0,
      dailyHoursRemaining: 23.75,
      dailyStreak: 1,
      bestDailyStreak: 1,
    });
    app.clock.advance((3 * HOUR) / 4);
    const later = await client.get<RewardStatus>('/api/hourly');
    expect(later.body.canClaimRegular).toBe(true);
    expect(later.body.regularHoursRemaining).toBe(0);
    expect(later.body.dailyHoursRemaining).toBe(23);
  });

  it('counts the daily streak: each claim within 48 h of the last one continues it; a longer gap breaks it', async () => {
    const client = await app.signIn(nextName());
    const streak = async () => {
      const { body } = await client.get<RewardStatus>('/api/hourly');
      return [body.dailyStreak, body.bestDailyStreak];
    };
    const claimDaily = async () =>
      expect((await client.post('/api/hourly/claim', { type: 'daily' })).status).toBe(200);
    await claimDaily();
    app.clock.advance(24 * HOUR); // claimed the moment it is ready
    await claimDaily();
    app.clock.advance(47 * HOUR); // a day late, still within 48 h of the last claim
    await claimDaily();
    expect(await streak()).toEqual([3, 3]);
    app.clock.advance(48 * HOUR);
    expect(await streak()).toEqual([3, 3]); // the window is inclusive
    app.clock.advance(SECOND);
    expect(await streak()).toEqual([0, 3]); // broken: nothing claimed within 48 h
    await claimDaily();
    expect(await streak()).toEqual([1, 3]);
    // The streak is for showing only: every daily claim still pays exactly 5.00.
    const amounts = (await rewardTransactions(app, client.user!.id, 'daily')).map((t) => t.amount);
    expect(amounts).toEqual([500, 500, 500, 500]);
  });

  it("is per user: one user's claim does not affect another", async () => {
    const a = await app.signIn(nextName());
    const b = await app.signIn(nextName());
    await a.post('/api/hourly/claim', { type: 'regular' });
    expect((await a.get<RewardStatus>('/api/hourly')).body.canClaimRegular).toBe(false);
    expect((await b.get<RewardStatus>('/api/hourly')).body.canClaimRegular).toBe(true);
  });
});
