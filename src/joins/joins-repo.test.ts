import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { insertUser } from '../test/factories.ts';
import { assertLedgerInvariant, getBalance } from '../ledger/index.ts';
import { userAddresses } from '../db/schema.ts';
import { userAddresses as pgUserAddresses } from '../db/schema.pg.ts';
import type { DataStore } from '../db/engine.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import { NOBOT_CLAIM_DELAY_MS } from '../shared/join-constants.ts';
import { campaignsRepo, type NewCampaign } from '../campaigns/campaigns-repo.ts';
import { joinsRepo } from './joins-repo.ts';
import { checkSameAddress, type SameAddressRule } from './same-address.ts';
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
    serverId: null,
    inviteGuildId: `53000000000${String(n).padStart(6, '0')}`,
    serverIcon: null,
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
      const regular = await open({ ...nobot(owner.id, 3), kind: 'regular', serverId: '5300' });
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
      expect(rows.map((r) => [r.server.id, r.join.joinedAt])).toEqual([
        [second.id, T0 + 2],
        [first.id, T0 + 1],
      ]);
      expect(rows[0]!.server).toMatchObject({ name: second.name, kind: 'nobot', serverId: null });
      expect(await joinsRepo(t.store.read).listJoinsWithCampaigns(owner.id)).toEqual([]);
      await t.store.transaction((tx) => joinsRepo(tx).setInviteGuildId(first.id, '777'));
      expect((await joinsRepo(t.store.read).findCampaign(first.id))?.inviteGuildId).toBe('777');
    });
  });
});
