import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { insertUser } from '../test/factories.ts';
import { assertLedgerInvariant, getBalance } from '../ledger/index.ts';
import { userAddresses } from '../db/schema.ts';
import { userAddresses as pgUserAddresses } from '../db/schema.pg.ts';
import { autocommitHandle, type DataStore } from '../db/engine.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import { NOBOT_CLAIM_DELAY_MS } from '../shared/join-constants.ts';
import { campaignsRepo, type NewCampaign } from '../campaigns/campaigns-repo.ts';
import { joinsRepo } from './joins-repo.ts';
import {
  checkSameAddress,
  hashAddress,
  pruneUserAddresses,
  recordUserAddress,
  type SameAddressRule,
} from './same-address.ts';
import { ManualClock } from '../clock.ts';
import { payNoBotJoin } from './claim-nobot-reward.ts';

// The joins repository and the transactional half of the no-bot claim, held to the same cases on both
// engines (decisions 028 and 034), with the races of each exactly-once rule: the last slot taken twice,
// one join paid twice, one (user, campaign) joined twice, the same-address cap filled at once.

const pgEnabled = await pgTestsEnabled();
const T0 = Date.UTC(2026, 0, 1);
const LATER = T0 + NOBOT_CLAIM_DELAY_MS + 1;
const DAY = 86_400_000;
const noRule: SameAddressRule = { windowMs: 0, maxPaidJoins: 3, hashKey: Buffer.from('k') };
let n = 0;

function nobot(ownerId: string, slots: number): NewCampaign {
  n += 1;
  return {
    ownerId,
    name: `No-bot ${n}`,
    inviteLink: `https://discord.gg/j${n}`,
    inviteCode: `j${n}`,
    kind: 'nobot',
    guildId: null,
    inviteGuildId: `53000000000${String(n).padStart(6, '0')}`,
    guildIcon: null,
    coinReward: CAMPAIGN_KIND_RULES.nobot.rewardCents,
    membersRemaining: slots,
    initialMemberSlots: slots,
    createdAt: T0 + n,
  };
}

async function seenAt(store: DataStore, userId: string, addressHash: string, at: number): Promise<void> {
  const values = { userId, addressHash, lastSeenAt: at };
  await store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.insert(userAddresses).values(values).run();
    else await tx.db.insert(pgUserAddresses).values(values);
  });
}

/** A member's recorded addresses (hash → last seen), on either engine. */
async function addressesOf(store: DataStore, userId: string): Promise<Record<string, number>> {
  const rows =
    store.read.kind === 'sqlite'
      ? store.read.db.select().from(userAddresses).where(eq(userAddresses.userId, userId)).all()
      : await store.read.db.select().from(pgUserAddresses).where(eq(pgUserAddresses.userId, userId));
  return Object.fromEntries(rows.map((r) => [r.addressHash, r.lastSeenAt]));
}

describe.each(ENGINES)('joins repository on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    const open = (c: NewCampaign) => t.store.transaction((tx) => campaignsRepo(tx).insert(c));
    const join = (userId: string, campaignId: string, now = T0) =>
      t.store.transaction((tx) => joinsRepo(tx).insertPendingJoin(userId, campaignId, now));

    it('records one pending join per member and campaign, restarts only an unfinished one', async () => {
      const owner = await insertUser(t.store);
      const member = await insertUser(t.store);
      const campaign = await open(nobot(owner.id, 5));
      const inserted = await Promise.all([join(member.id, campaign.id), join(member.id, campaign.id)]);
      expect(inserted.sort()).toEqual([false, true]);
      const read = joinsRepo(t.store.read);
      expect(await read.findJoin(member.id, campaign.id)).toMatchObject({
        joinedAt: T0,
        verified: false,
        coinsAwarded: false,
        hasLeft: false,
      });
      expect(await read.findJoin(owner.id, campaign.id)).toBeUndefined();
      expect(
        await t.store.transaction((tx) => joinsRepo(tx).restartPendingJoin(member.id, campaign.id, T0 + 7)),
      ).toBe(true);
      expect((await read.findJoin(member.id, campaign.id))?.joinedAt).toBe(T0 + 7);
      await payNoBotJoin(t.store, noRule, member.id, campaign.id, LATER + 7);
      expect(
        await t.store.transaction((tx) => joinsRepo(tx).restartPendingJoin(member.id, campaign.id, T0 + 8)),
      ).toBe(false);
    });

    it('takes the last slot once when it is taken twice at once', async () => {
      const owner = await insertUser(t.store);
      const campaign = await open(nobot(owner.id, 1));
      const taken = await Promise.all(
        Array.from({ length: 3 }, () => t.store.transaction((tx) => joinsRepo(tx).takeSlot(campaign.id))),
      );
      expect(taken.filter(Boolean)).toHaveLength(1);
      expect((await joinsRepo(t.store.read).findCampaign(campaign.id))?.membersRemaining).toBe(0);
      // A canceled campaign gives no slot either.
      const other = await open(nobot(owner.id, 4));
      await t.store.transaction((tx) => campaignsRepo(tx).cancel(owner.id, other.id, T0));
      expect(await t.store.transaction((tx) => joinsRepo(tx).takeSlot(other.id))).toBe(false);
    });

    it('pays a no-bot join once: concurrent claims of one join credit once and take one slot', async () => {
      const owner = await insertUser(t.store);
      const member = await insertUser(t.store);
      const campaign = await open(nobot(owner.id, 5));
      await join(member.id, campaign.id);
      const results = await Promise.allSettled(
        Array.from({ length: 3 }, () => payNoBotJoin(t.store, noRule, member.id, campaign.id, LATER)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'conflict' });
      expect(await getBalance(t.store, member.id)).toBe(CAMPAIGN_KIND_RULES.nobot.rewardCents);
      const read = joinsRepo(t.store.read);
      expect((await read.findCampaign(campaign.id))?.membersRemaining).toBe(4);
      expect(await read.findJoin(member.id, campaign.id)).toMatchObject({
        coinsAwarded: true,
        verified: true,
        verifiedAt: LATER,
        rewardCents: CAMPAIGN_KIND_RULES.nobot.rewardCents,
        minStayMs: 0,
        penaltyCents: 0,
        sameAddress: false,
      });
      await assertLedgerInvariant(t.store);
    });

    it('pays one of two members claiming the last slot at once, and nothing is left half-written', async () => {
      const owner = await insertUser(t.store);
      const a = await insertUser(t.store);
      const b = await insertUser(t.store);
      const campaign = await open(nobot(owner.id, 1));
      await join(a.id, campaign.id);
      await join(b.id, campaign.id);
      const results = await Promise.allSettled([
        payNoBotJoin(t.store, noRule, a.id, campaign.id, LATER),
        payNoBotJoin(t.store, noRule, b.id, campaign.id, LATER),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected');
      expect(refused?.status === 'rejected' && refused.reason).toMatchObject({ code: 'conflict' });
      const read = joinsRepo(t.store.read);
      const paid = [await read.findJoin(a.id, campaign.id), await read.findJoin(b.id, campaign.id)];
      expect(paid.filter((j) => j?.coinsAwarded)).toHaveLength(1);
      expect((await read.findCampaign(campaign.id))?.membersRemaining).toBe(0);
      expect((await getBalance(t.store, a.id)) + (await getBalance(t.store, b.id))).toBe(
        CAMPAIGN_KIND_RULES.nobot.rewardCents,
      );
      await assertLedgerInvariant(t.store);
    });

    it('refuses a claim too early, without a join, or of a bot campaign', async () => {
      const owner = await insertUser(t.store);
      const member = await insertUser(t.store);
      const campaign = await open(nobot(owner.id, 3));
      await expect(payNoBotJoin(t.store, noRule, member.id, campaign.id, LATER)).rejects.toMatchObject({
        code: 'bad_request',
      });
      await join(member.id, campaign.id);
      await expect(payNoBotJoin(t.store, noRule, member.id, campaign.id, T0 + 1)).rejects.toMatchObject({
        code: 'too_early',
      });
      const regular = await open({ ...nobot(owner.id, 3), kind: 'regular', guildId: '5300' });
      await join(member.id, regular.id);
      await expect(payNoBotJoin(t.store, noRule, member.id, regular.id, LATER)).rejects.toMatchObject({
        code: 'bad_request',
      });
      expect((await joinsRepo(t.store.read).findCampaign(campaign.id))?.membersRemaining).toBe(3);
    });

    it('caps paid joins of members who share an address with the owner, also when they claim at once', async () => {
      const rule: SameAddressRule = { windowMs: 7 * DAY, maxPaidJoins: 1, hashKey: Buffer.from('k') };
      const owner = await insertUser(t.store);
      const members = await Promise.all(Array.from({ length: 3 }, () => insertUser(t.store)));
      const stranger = await insertUser(t.store);
      const campaign = await open(nobot(owner.id, 10));
      const hash = `h${n}`;
      await seenAt(t.store, owner.id, hash, LATER - DAY);
      for (const m of members) {
        await seenAt(t.store, m.id, hash, LATER - 2 * DAY);
        await join(m.id, campaign.id);
      }
      await seenAt(t.store, stranger.id, `other${n}`, LATER);
      await join(stranger.id, campaign.id);
      const read = joinsRepo(t.store.read);
      expect(await read.sharesAddressWithOwner(members[0]!.id, owner.id, LATER - 7 * DAY)).toBe(true);
      // Outside the window the shared address no longer counts.
      expect(await read.sharesAddressWithOwner(members[0]!.id, owner.id, LATER - DAY)).toBe(false);
      expect(await read.sharesAddressWithOwner(stranger.id, owner.id, 0)).toBe(false);
      const input = { memberId: members[0]!.id, ownerId: owner.id, campaignId: campaign.id, now: LATER };
      expect(await checkSameAddress(t.store.read, rule, input)).toEqual({ shared: true, capped: false });

      const results = await Promise.allSettled(
        members.map((m) => payNoBotJoin(t.store, rule, m.id, campaign.id, LATER)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'forbidden' });
      expect(await read.paidSameAddressJoins(campaign.id)).toBe(1);
      expect(await checkSameAddress(t.store.read, rule, input)).toEqual({ shared: true, capped: true });
      // A member who shares nothing is still paid.
      await payNoBotJoin(t.store, rule, stranger.id, campaign.id, LATER);
      expect((await read.findCampaign(campaign.id))?.membersRemaining).toBe(8);
      await assertLedgerInvariant(t.store);
    });

    it('lists a member’s joins with their campaigns, newest first, and stores a resolved guild', async () => {
      const owner = await insertUser(t.store);
      const member = await insertUser(t.store);
      const first = await open(nobot(owner.id, 2));
      const second = await open(nobot(owner.id, 2));
      await join(member.id, first.id, T0 + 1);
      await join(member.id, second.id, T0 + 2);
      const rows = await joinsRepo(t.store.read).listJoinsWithCampaigns(member.id);
      expect(rows.map((r) => [r.campaign.id, r.join.joinedAt])).toEqual([
        [second.id, T0 + 2],
        [first.id, T0 + 1],
      ]);
      expect(rows[0]!.campaign).toMatchObject({ name: second.name, kind: 'nobot', guildId: null });
      expect(await joinsRepo(t.store.read).listJoinsWithCampaigns(owner.id)).toEqual([]);
      await t.store.transaction((tx) => joinsRepo(tx).setInviteGuildId(first.id, '777'));
      expect((await joinsRepo(t.store.read).findCampaign(first.id))?.inviteGuildId).toBe('777');
    });

    it('records an address: last seen moves forward only, and the member’s addresses older than the window go', async () => {
      const member = await insertUser(t.store);
      const neighbour = await insertUser(t.store);
      const record = (userId: string, hash: string, now: number, forgetBefore = 0) =>
        t.store.transaction((tx) => joinsRepo(tx).recordAddress(userId, hash, now, forgetBefore));
      await record(member.id, 'home', T0);
      await record(member.id, 'home', T0 + 5);
      await record(member.id, 'home', T0 + 2); // a late, older sighting never moves it back
      await record(member.id, 'office', T0 + 3);
      await record(neighbour.id, 'home', T0 - 10 * DAY);
      expect(await addressesOf(t.store, member.id)).toEqual({ home: T0 + 5, office: T0 + 3 });
      // Recorded at once from many requests: one row, the latest time.
      await Promise.all([1, 2, 3, 4, 5].map((i) => record(member.id, 'cafe', T0 + i)));
      expect((await addressesOf(t.store, member.id)).cafe).toBe(T0 + 5);
      // Forgetting is per member: the neighbour's old address stays until the prune.
      await record(member.id, 'home', T0 + 8 * DAY, T0 + DAY);
      expect(await addressesOf(t.store, member.id)).toEqual({ home: T0 + 8 * DAY });
      expect(await addressesOf(t.store, neighbour.id)).toEqual({ home: T0 - 10 * DAY });
    });

    it.skipIf(kind !== 'pg')(
      'PostgreSQL: records an address in ONE statement (on the pool) with the same outcome',
      async () => {
        const member = await insertUser(t.store);
        const pool = autocommitHandle(t.store)!;
        const record = (hash: string, now: number, forgetBefore = 0) =>
          joinsRepo(pool).recordAddressAlone(member.id, hash, now, forgetBefore);
        await record('home', T0 - 10 * DAY);
        await record('office', T0 - 9 * DAY);
        await record('home', T0 - 8 * DAY);
        await record('home', T0 - 9 * DAY); // never back
        await Promise.all([1, 2, 3].map((i) => record('cafe', T0 - 8 * DAY + i)));
        expect(await addressesOf(t.store, member.id)).toEqual({
          home: T0 - 8 * DAY,
          office: T0 - 9 * DAY,
          cafe: T0 - 8 * DAY + 3,
        });
        // Seen again at an address last seen before the window: it stays (now), the other old ones go.
        await record('home', T0, T0 - DAY);
        expect(await addressesOf(t.store, member.id)).toEqual({ home: T0 });
        await record('office', T0 + 1, T0 - DAY);
        expect(await addressesOf(t.store, member.id)).toEqual({ home: T0, office: T0 + 1 });
      },
    );

    it('prunes every address last seen before the cut, and says how many went', async () => {
      const a = await insertUser(t.store);
      const b = await insertUser(t.store);
      await seenAt(t.store, a.id, 'old-a', T0 - 30 * DAY);
      await seenAt(t.store, b.id, 'old-b', T0 - 20 * DAY);
      await seenAt(t.store, b.id, 'fresh-b', T0);
      const cut = T0 - 7 * DAY;
      // Earlier cases left older rows too: all of them go, and only they.
      const gone = await t.store.transaction((tx) => joinsRepo(tx).pruneAddresses(cut));
      expect(gone).toBeGreaterThanOrEqual(2);
      expect(await addressesOf(t.store, a.id)).toEqual({});
      expect(await addressesOf(t.store, b.id)).toEqual({ 'fresh-b': T0 });
      expect(await t.store.transaction((tx) => joinsRepo(tx).pruneAddresses(cut))).toBe(0);
    });

    it('records and prunes through the service: keyed hashes within the window, nothing when the rule is off', async () => {
      const clock = new ManualClock(T0);
      const rule: SameAddressRule = { windowMs: 7 * DAY, maxPaidJoins: 3, hashKey: Buffer.from('key') };
      const ctx = { store: t.store, clock, config: { sameAddress: rule } } as unknown as Parameters<
        typeof recordUserAddress
      >[0];
      const member = await insertUser(t.store);
      await recordUserAddress(ctx, member.id, '203.0.113.7');
      const hash = hashAddress(rule.hashKey, '203.0.113.7');
      expect(await addressesOf(t.store, member.id)).toEqual({ [hash]: T0 });
      clock.advance(8 * DAY);
      await recordUserAddress(ctx, member.id, '198.51.100.1');
      // The first address is past the window: forgotten when the member is seen again.
      expect(Object.keys(await addressesOf(t.store, member.id))).toEqual([
        hashAddress(rule.hashKey, '198.51.100.1'),
      ]);
      clock.advance(8 * DAY);
      expect(await pruneUserAddresses(ctx)).toBeGreaterThanOrEqual(1);
      expect(await addressesOf(t.store, member.id)).toEqual({});
      const off = { ...ctx, config: { sameAddress: { ...rule, windowMs: 0 } } } as typeof ctx;
      await recordUserAddress(off, member.id, '203.0.113.7');
      expect(await addressesOf(t.store, member.id)).toEqual({});
    });
  });
});
