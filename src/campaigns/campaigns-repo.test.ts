import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { grantCoins, insertUser } from '../test/factories.ts';
import { assertLedgerInvariant, credit, debit, getBalance } from '../ledger/index.ts';
import { campaignJoins, campaigns as sqliteCampaigns } from '../db/schema.ts';
import { campaignJoins as pgCampaignJoins, campaigns as pgCampaigns } from '../db/schema.pg.ts';
import type { DataStore } from '../db/engine.ts';
import { CAMPAIGN_KIND_RULES, PROMOTION } from '../shared/campaign-kinds.ts';
import { campaignsRepo, type NewCampaign } from './campaigns-repo.ts';
import { openCampaign } from './submit-campaign.ts';
import { applyPromotion } from './promote-campaign.ts';
import { applyTopUp } from './top-up.ts';
import { pruneExpiredIntents, FEATURED_INTENT_TTL_MS } from './featured-intent.ts';

// The campaigns repository and the transactional halves of submit and promote, held to the same cases
// on both engines (decisions 028 and 034), including the races each exactly-once / no-overdraft rule
// must survive: on SQLite the store's mutex serialises them anyway, on PostgreSQL the statements must.

const pgEnabled = await pgTestsEnabled();
const T0 = Date.UTC(2026, 0, 1);
let n = 0;
const guild = () => `52000000000${String((n += 1)).padStart(6, '0')}`;

function campaign(ownerId: string, over: Partial<NewCampaign> = {}): NewCampaign {
  const g = guild();
  n += 1;
  return {
    ownerId,
    name: `Campaign ${n}`,
    inviteLink: `https://discord.gg/c${n}`,
    inviteCode: `c${n}`,
    kind: 'regular',
    guildId: g,
    inviteGuildId: g,
    guildIcon: null,
    coinReward: CAMPAIGN_KIND_RULES.regular.rewardCents,
    membersRemaining: 10,
    initialMemberSlots: 10,
    createdAt: T0 + n,
    ...over,
  };
}

async function insertJoin(
  store: DataStore,
  row: {
    userId: string;
    campaignId: string;
    verified?: boolean;
    coinsAwarded?: boolean;
    penalized?: boolean;
  },
): Promise<void> {
  const values = { joinedAt: T0, ...row };
  await store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.insert(campaignJoins).values(values).run();
    else await tx.db.insert(pgCampaignJoins).values(values);
  });
}

describe.each(ENGINES)('campaigns repository on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    const insert = (c: NewCampaign) => t.store.transaction((tx) => campaignsRepo(tx).insert(c));

    it('inserts and finds the owner’s campaigns, newest first, active ones apart', async () => {
      const owner = await insertUser(t.store);
      const other = await insertUser(t.store);
      const older = await insert(campaign(owner.id, { createdAt: T0 + 1 }));
      const newer = await insert(campaign(owner.id, { createdAt: T0 + 2 }));
      const done = await insert(campaign(owner.id, { createdAt: T0 + 3, membersRemaining: 0 }));
      expect(older).toMatchObject({
        ownerId: owner.id,
        kind: 'regular',
        isFeatured: false,
        inviteValid: true,
      });
      const read = campaignsRepo(t.store.read);
      expect(await read.findOwn(owner.id, older.id)).toEqual(older);
      expect(await read.findOwn(other.id, older.id)).toBeUndefined();
      expect((await read.listByOwner(owner.id)).map((s) => s.id)).toEqual([done.id, newer.id, older.id]);
      expect((await read.listActiveByOwner(owner.id)).map((s) => s.id)).toEqual([newer.id, older.id]);
      expect(await read.listByOwner(other.id)).toEqual([]);
    });

    it('opens a paid campaign: the row and the debit together, refused without the coins', async () => {
      const owner = await insertUser(t.store);
      await grantCoins(t.store, owner.id, 1000);
      const server = await openCampaign(t.store, {
        campaign: campaign(owner.id, { membersRemaining: 6, initialMemberSlots: 6 }),
        cost: 600,
        description: 'Campaign',
        insufficient: (b) => `short, have ${b}`,
        featuredIntent: false,
      });
      expect(server.membersRemaining).toBe(6);
      expect(await getBalance(t.store, owner.id)).toBe(400);
      await expect(
        openCampaign(t.store, {
          campaign: campaign(owner.id),
          cost: 1000,
          description: 'Campaign',
          insufficient: (b) => `short, have ${b}`,
          featuredIntent: false,
        }),
      ).rejects.toMatchObject({ code: 'insufficient_coins', message: 'short, have 4.00' });
      expect(await campaignsRepo(t.store.read).listByOwner(owner.id)).toHaveLength(1);
      await assertLedgerInvariant(t.store);
    });

    it('two concurrent submissions with coins for one open one campaign and never overdraw', async () => {
      const owner = await insertUser(t.store);
      await grantCoins(t.store, owner.id, 1000);
      const submit = () =>
        openCampaign(t.store, {
          campaign: campaign(owner.id, { membersRemaining: 10, initialMemberSlots: 10 }),
          cost: 1000,
          description: 'Campaign',
          insufficient: () => 'short',
          featuredIntent: false,
        });
      const results = await Promise.allSettled([submit(), submit(), submit()]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'insufficient_coins' });
      expect(await campaignsRepo(t.store.read).listByOwner(owner.id)).toHaveLength(1);
      expect(await getBalance(t.store, owner.id)).toBe(0);
      await assertLedgerInvariant(t.store);
    });

    it('a submission that loses the race to another spend rolls its row back', async () => {
      const owner = await insertUser(t.store);
      await grantCoins(t.store, owner.id, 500);
      const results = await Promise.allSettled([
        debit(t.store, { userId: owner.id, cents: 500, type: 'campaign', now: T0 }),
        openCampaign(t.store, {
          campaign: campaign(owner.id, { membersRemaining: 5, initialMemberSlots: 5 }),
          cost: 500,
          description: 'Campaign',
          insufficient: () => 'short',
          featuredIntent: false,
        }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rows = await campaignsRepo(t.store.read).listByOwner(owner.id);
      expect(rows).toHaveLength(results[1].status === 'fulfilled' ? 1 : 0);
      expect(await getBalance(t.store, owner.id)).toBe(0);
      await assertLedgerInvariant(t.store);
    });

    it('promotes once: concurrent promotions of one campaign charge once', async () => {
      const owner = await insertUser(t.store);
      await grantCoins(t.store, owner.id, 100_000);
      const server = await insert(campaign(owner.id, { membersRemaining: 7, initialMemberSlots: 7 }));
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () => applyPromotion(t.store, owner.id, server.id, T0 + 100)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'conflict' });
      const after = await campaignsRepo(t.store.read).findOwn(owner.id, server.id);
      expect(after).toMatchObject({
        kind: 'featured',
        isFeatured: true,
        featuredAt: T0 + 100,
        membersRemaining: 7 + PROMOTION.slots,
        featuredRemaining: PROMOTION.slots,
        initialMemberSlots: 7 + PROMOTION.slots,
        coinReward: CAMPAIGN_KIND_RULES.featured.rewardCents,
      });
      expect(await getBalance(t.store, owner.id)).toBe(100_000 - PROMOTION.costCoins * 100);
      await assertLedgerInvariant(t.store);
    });

    it('features one campaign per guild even when several of its campaigns are promoted at once', async () => {
      const owner = await insertUser(t.store);
      await grantCoins(t.store, owner.id, 100_000);
      const g = guild();
      const rows = await Promise.all(
        Array.from({ length: 6 }, () => insert(campaign(owner.id, { guildId: g, inviteGuildId: g }))),
      );
      const results = await Promise.allSettled(
        rows.map((r) => applyPromotion(t.store, owner.id, r.id, T0 + 5)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected')
          expect(r.reason).toMatchObject({
            code: 'conflict',
            message: 'Already featured (another campaign)',
          });
      const read = campaignsRepo(t.store.read);
      expect(await read.isGuildFeaturedElsewhere(g)).toBe(true);
      const featured = await read.listActiveFeaturedInGuilds([g, guild()]);
      expect(featured).toHaveLength(1);
      expect(await read.isGuildFeaturedElsewhere(g, featured[0]!.id)).toBe(false);
      expect(await getBalance(t.store, owner.id)).toBe(100_000 - PROMOTION.costCoins * 100);
      await assertLedgerInvariant(t.store);
    });

    it('promotion never overdraws: two campaigns promoted at once with coins for one', async () => {
      const owner = await insertUser(t.store);
      await grantCoins(t.store, owner.id, PROMOTION.costCoins * 100);
      const a = await insert(campaign(owner.id));
      const b = await insert(campaign(owner.id));
      const results = await Promise.allSettled([
        applyPromotion(t.store, owner.id, a.id, T0 + 5),
        applyPromotion(t.store, owner.id, b.id, T0 + 5),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected');
      expect(rejected?.status === 'rejected' && rejected.reason).toMatchObject({
        code: 'insufficient_coins',
      });
      const rows = await campaignsRepo(t.store.read).listByOwner(owner.id);
      expect(rows.filter((s) => s.isFeatured)).toHaveLength(1);
      expect(await getBalance(t.store, owner.id)).toBe(0);
      await assertLedgerInvariant(t.store);
    });

    it('tops up once: concurrent top-ups with coins for one add slots once and charge once', async () => {
      const owner = await insertUser(t.store);
      await grantCoins(t.store, owner.id, 500);
      // A campaign that ran out and told its owner so: a top-up reopens it.
      const server = await insert(campaign(owner.id, { membersRemaining: 0, initialMemberSlots: 10 }));
      await t.store.transaction(async (tx) => {
        if (tx.kind === 'sqlite')
          tx.db
            .update(sqliteCampaigns)
            .set({ completionNotificationSent: true, completionDmAttempts: 2 })
            .where(eq(sqliteCampaigns.id, server.id))
            .run();
        else
          await tx.db
            .update(pgCampaigns)
            .set({ completionNotificationSent: true, completionDmAttempts: 2 })
            .where(eq(pgCampaigns.id, server.id));
      });
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () => applyTopUp(t.store, owner.id, server.id, 5, T0 + 50)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected')
          expect(r.reason).toMatchObject({
            code: 'insufficient_coins',
            message: expect.stringMatching(/^You need 5 coins to add 5 members\. You have [0-9.]+ coins\.$/),
          });
      expect(await campaignsRepo(t.store.read).findOwn(owner.id, server.id)).toMatchObject({
        membersRemaining: 5,
        initialMemberSlots: 15,
        completionNotificationSent: false,
        completionDmAttempts: 0,
      });
      expect(await getBalance(t.store, owner.id)).toBe(0);
      await assertLedgerInvariant(t.store);
    });

    it('tops up with enough coins: each concurrent top-up adds its slots; never a canceled campaign', async () => {
      const owner = await insertUser(t.store);
      const other = await insertUser(t.store);
      await grantCoins(t.store, owner.id, 10_000);
      await grantCoins(t.store, other.id, 10_000);
      const server = await insert(campaign(owner.id, { membersRemaining: 4, initialMemberSlots: 10 }));
      await Promise.all(Array.from({ length: 3 }, () => applyTopUp(t.store, owner.id, server.id, 3, T0)));
      const read = campaignsRepo(t.store.read);
      expect(await read.findOwn(owner.id, server.id)).toMatchObject({
        membersRemaining: 13,
        initialMemberSlots: 19,
      });
      expect(await getBalance(t.store, owner.id)).toBe(10_000 - 900);
      // Another user's campaign is not found; a canceled one is refused; neither charges.
      await expect(applyTopUp(t.store, other.id, server.id, 3, T0)).rejects.toMatchObject({
        code: 'not_found',
      });
      await t.store.transaction((tx) => campaignsRepo(tx).cancel(owner.id, server.id, T0 + 1));
      await expect(applyTopUp(t.store, owner.id, server.id, 3, T0)).rejects.toMatchObject({
        code: 'conflict',
      });
      expect(
        await t.store.transaction((tx) => campaignsRepo(tx).topUp(owner.id, server.id, 3)),
      ).toBeUndefined();
      expect(await getBalance(t.store, owner.id)).toBe(10_000 - 900);
      expect(await getBalance(t.store, other.id)).toBe(10_000);
      await assertLedgerInvariant(t.store);
    });

    it('cancels once: of concurrent cancels one applies, another user’s is not found', async () => {
      const owner = await insertUser(t.store);
      const other = await insertUser(t.store);
      const server = await insert(campaign(owner.id));
      expect(
        await t.store.transaction((tx) => campaignsRepo(tx).cancel(other.id, server.id, T0)),
      ).toBeUndefined();
      const results = await Promise.all(
        Array.from({ length: 3 }, () =>
          t.store.transaction((tx) => campaignsRepo(tx).cancel(owner.id, server.id, T0 + 9)),
        ),
      );
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
      expect(results.find((r) => r !== undefined)).toMatchObject({ canceledAt: T0 + 9, membersRemaining: 0 });
      // A canceled campaign takes no new invite.
      expect(
        await t.store.transaction((tx) =>
          campaignsRepo(tx).replaceInvite(owner.id, server.id, { link: 'https://discord.gg/x', code: 'x' }),
        ),
      ).toBeUndefined();
    });

    it('replaces an invite (and the guild only when asked), owner only', async () => {
      const owner = await insertUser(t.store);
      const other = await insertUser(t.store);
      const server = await insert(campaign(owner.id));
      await t.store.transaction((tx) =>
        campaignsRepo(tx).setInviteValid(server.id, false, server.inviteLink),
      );
      const replace = (userId: string, guildId?: string) =>
        t.store.transaction((tx) =>
          campaignsRepo(tx).replaceInvite(userId, server.id, {
            link: 'https://discord.gg/new',
            code: 'new',
            ...(guildId ? { guildId } : {}),
          }),
        );
      expect(await replace(other.id)).toBeUndefined();
      expect(await replace(owner.id)).toMatchObject({
        inviteLink: 'https://discord.gg/new',
        inviteCode: 'new',
        inviteValid: true,
        inviteGuildId: server.inviteGuildId,
      });
      expect((await replace(owner.id, '99'))?.inviteGuildId).toBe('99');
    });

    it('lists active campaigns for the invite recheck and flips validity once per change', async () => {
      const owner = await insertUser(t.store);
      const live = await insert(campaign(owner.id));
      const done = await insert(campaign(owner.id, { membersRemaining: 0 }));
      const canceled = await insert(campaign(owner.id));
      await t.store.transaction((tx) => campaignsRepo(tx).cancel(owner.id, canceled.id, T0));
      const rows = await campaignsRepo(t.store.read).listForInviteRecheck();
      const ids = rows.map((r) => r.id);
      expect(ids).toContain(live.id);
      expect(ids).not.toContain(done.id);
      expect(ids).not.toContain(canceled.id);
      expect(rows.find((r) => r.id === live.id)).toEqual({
        id: live.id,
        inviteCode: live.inviteCode,
        inviteLink: live.inviteLink,
        guildId: live.guildId,
        inviteValid: true,
      });
      const flip = (valid: boolean, link = live.inviteLink) =>
        t.store.transaction((tx) => campaignsRepo(tx).setInviteValid(live.id, valid, link));
      const flips = await Promise.all([flip(false), flip(false)]);
      expect(flips.sort()).toEqual([false, true]);
      // An answer about an invite the row no longer has changes nothing.
      expect(await flip(true, 'https://discord.gg/replaced-meanwhile')).toBe(false);
      expect(await flip(true)).toBe(true);
    });

    it('prunes unpromoted featured intents older than the TTL only', async () => {
      const owner = await insertUser(t.store);
      const now = T0 + 10 * FEATURED_INTENT_TTL_MS;
      const old = await insert(
        campaign(owner.id, {
          membersRemaining: 0,
          initialMemberSlots: 0,
          createdAt: now - FEATURED_INTENT_TTL_MS,
        }),
      );
      const fresh = await insert(
        campaign(owner.id, { membersRemaining: 0, initialMemberSlots: 0, createdAt: now - 1 }),
      );
      const funded = await insert(campaign(owner.id, { createdAt: now - 2 * FEATURED_INTENT_TTL_MS }));
      expect(await pruneExpiredIntents(t.store, now)).toBeGreaterThanOrEqual(1);
      const left = (await campaignsRepo(t.store.read).listByOwner(owner.id)).map((s) => s.id);
      expect(left).not.toContain(old.id);
      expect(left).toEqual(expect.arrayContaining([fresh.id, funded.id]));
    });

    it('counts joins as the owner sees them (verified; rewarded for no-bot) and early leaves', async () => {
      const owner = await insertUser(t.store);
      const regular = await insert(campaign(owner.id));
      const nobot = await insert(campaign(owner.id, { kind: 'nobot', guildId: null }));
      const members = await Promise.all(Array.from({ length: 3 }, () => insertUser(t.store)));
      await insertJoin(t.store, { userId: members[0]!.id, campaignId: regular.id, verified: true });
      await insertJoin(t.store, {
        userId: members[1]!.id,
        campaignId: regular.id,
        verified: true,
        penalized: true,
      });
      await insertJoin(t.store, { userId: members[2]!.id, campaignId: regular.id });
      await insertJoin(t.store, { userId: members[0]!.id, campaignId: nobot.id, coinsAwarded: true });
      await insertJoin(t.store, { userId: members[1]!.id, campaignId: nobot.id });
      const read = campaignsRepo(t.store.read);
      const joins = await read.countJoins([regular.id, nobot.id]);
      expect(Object.fromEntries(joins)).toEqual({ [regular.id]: 2, [nobot.id]: 1 });
      expect(Object.fromEntries(await read.countEarlyLeaves([regular.id, nobot.id]))).toEqual({
        [regular.id]: 1,
      });
      expect((await read.countJoins([])).size).toBe(0);
    });

    it('reads the ledger history: pages, filters, totals and earnings per local day', async () => {
      const user = await insertUser(t.store);
      const day = 86_400_000;
      await credit(t.store, { userId: user.id, cents: 1000, type: 'purchase', now: T0 + 1 });
      await credit(t.store, { userId: user.id, cents: 50, type: 'hourly', now: T0 + day + 2 });
      await credit(t.store, { userId: user.id, cents: 25, type: 'daily', now: T0 + day + 3 });
      await debit(t.store, { userId: user.id, cents: 300, type: 'campaign', now: T0 + day + 4 });
      const read = campaignsRepo(t.store.read);
      const all = await read.listTransactions(user.id, undefined, 50, 0);
      expect(all.map((r) => [r.type, r.amount])).toEqual([
        ['campaign', -300],
        ['daily', 25],
        ['hourly', 50],
        ['purchase', 1000],
      ]);
      expect((await read.listTransactions(user.id, undefined, 2, 2)).map((r) => r.type)).toEqual([
        'hourly',
        'purchase',
      ]);
      const rewards = ['hourly', 'daily'] as const;
      expect((await read.listTransactions(user.id, rewards, 50, 0)).map((r) => r.type)).toEqual([
        'daily',
        'hourly',
      ]);
      expect(await read.countTransactions(user.id, undefined)).toBe(4);
      expect(await read.countTransactions(user.id, rewards)).toBe(2);
      expect(await read.transactionTotals(user.id)).toEqual({ earned: 1075, spent: 300 });
      const days = await read.earningsByDay(user.id, 0, day, T0);
      expect(days.sort((a, b) => a.day - b.day)).toEqual([
        { day: T0 / day, earned: 1000 },
        { day: T0 / day + 1, earned: 75 },
      ]);
      // A shift of -1 h puts the entries 1–4 ms after midnight UTC on the previous local day.
      const shifted = await read.earningsByDay(user.id, -3_600_000, day, T0 - day);
      expect(shifted.sort((a, b) => a.day - b.day)).toEqual([
        { day: T0 / day - 1, earned: 1000 },
        { day: T0 / day, earned: 75 },
      ]);
      expect(await read.earningsByDay(user.id, 0, day, T0 + 2 * day)).toEqual([]);
      expect(await read.transactionTotals((await insertUser(t.store)).id)).toEqual({ earned: 0, spent: 0 });
    });
  });
});
