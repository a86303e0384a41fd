import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { grantCoins, insertUser } from '../test/factories.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import type { TxHandle } from '../db/engine.ts';
import { ManualClock } from '../clock.ts';
import { createLogger } from '../logger.ts';
import { assertLedgerInvariant, credit, debit, getBalance } from '../ledger/index.ts';
import { saveOAuthTokens } from '../auth/oauth-tokens.ts';
import { oauthTokensRepo } from '../auth/oauth-tokens-repo.ts';
import { usersRepo } from '../users/users-repo.ts';
import { upsertUserFromDiscord, WELCOME_BONUS_CENTS } from '../users/users.ts';
import { discordIdHash, hashLegacyWelcomeGrants } from '../users/discord-id-hash.ts';
import { accountRepo } from './account-repo.ts';
import { anonymiseAccount, DELETED_USERNAME, exportAccountData } from './account-data.ts';

// Account export and deletion on both engines (decision 034): the repository, and the services above it.

const KEY = Buffer.alloc(32, 7);
const pgEnabled = await pgTestsEnabled();
const now = Date.UTC(2026, 0, 1);

async function exec(tx: TxHandle, query: SQL): Promise<void> {
  if (tx.kind === 'sqlite') tx.db.run(query);
  else await tx.db.execute(query);
}

let n = 0;
/** Rows of every feature for one user: two campaigns (one canceled), a join, social rows, a payment… */
async function seedActivity(t: TestStore, userId: string, ownerId: string) {
  n += 1;
  const yes = t.kind === 'pg' ? sql`true` : sql`1`;
  const ids = { active: `srv-a-${n}`, canceled: `srv-c-${n}`, other: `srv-o-${n}`, task: `task-${n}` };
  await t.store.transaction(async (tx) => {
    const server = (id: string, owner: string, name: string, createdAt: number, canceledAt: number | null) =>
      exec(
        tx,
        sql`INSERT INTO servers (id, owner_id, name, invite_link, kind, server_id, invite_guild_id, coin_reward,
              members_remaining, initial_member_slots, canceled_at, created_at)
            VALUES (${id}, ${owner}, ${name}, 'https://discord.gg/x', 'regular', ${`g-${id}`}, ${`g-${id}`},
              500, 5, 5, ${canceledAt}, ${createdAt})`,
      );
    await server(ids.canceled, userId, 'Old one', now - 2000, now - 1000);
    await server(ids.active, userId, 'Mine', now - 1000, null);
    await server(ids.other, ownerId, 'Someone else', now, null);
    await exec(
      tx,
      sql`INSERT INTO server_joins (id, user_id, server_id, joined_at, verified) VALUES (${`j-${n}`}, ${userId}, ${ids.other}, ${now}, ${yes})`,
    );
    await exec(
      tx,
      sql`INSERT INTO social_tasks (id, platform, title, url, created_at) VALUES (${ids.task}, 'youtube', 'Watch', 'https://y', ${now})`,
    );
    await exec(
      tx,
      sql`INSERT INTO social_completions (id, user_id, task_id, completed_at) VALUES (${`sc-${n}`}, ${userId}, ${ids.task}, ${now})`,
    );
    await exec(
      tx,
      sql`INSERT INTO social_task_starts (id, user_id, task_id, started_at) VALUES (${`ss-${n}`}, ${userId}, ${ids.task}, ${now})`,
    );
    await exec(
      tx,
      sql`INSERT INTO hourly_rewards (id, user_id, last_claim_date) VALUES (${`h-${n}`}, ${userId}, ${now})`,
    );
    await exec(
      tx,
      sql`INSERT INTO payments (id, user_id, pack_id, amount_cents, currency, coins, status, created_at)
          VALUES (${`pi_${n}`}, ${userId}, 'small', 499, 'usd', 50000, 'succeeded', ${now})`,
    );
    await exec(
      tx,
      sql`INSERT INTO user_addresses (user_id, address_hash, last_seen_at) VALUES (${userId}, ${`hash-${n}`}, ${now})`,
    );
  });
  return ids;
}

describe.each(ENGINES)('account export and deletion on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    const clock = new ManualClock(now);
    const ctx = () => ({
      store: t.store,
      clock,
      logger: createLogger('silent'),
      config: { discordIdHashKey: KEY },
    });
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    it('exports the user’s rows only, each list in a stable order', async () => {
      const user = await insertUser(t.store);
      const other = await insertUser(t.store);
      await grantCoins(t.store, user.id, 700, now - 5);
      await debit(t.store, { userId: user.id, cents: 200, type: 'campaign', now: now - 1 });
      await grantCoins(t.store, other.id, 100);
      const ids = await seedActivity(t, user.id, other.id);
      // The other user's activity includes a campaign this user owns (seedActivity's third campaign).
      const theirs = await seedActivity(t, other.id, user.id);
      const rows = await accountRepo(t.store.read).exportRows(user.id);
      expect(rows.transactions.map((r) => r.amount)).toEqual([700, -200]);
      expect(rows.campaigns.map((s) => s.id)).toEqual([ids.canceled, ids.active, theirs.other]);
      expect(rows.joins).toEqual([
        {
          serverName: 'Someone else',
          joinedAt: now,
          verified: true,
          coinsAwarded: false,
          hasLeft: false,
          leftAt: null,
        },
      ]);
      expect(rows.socialCompletions).toEqual([{ platform: 'youtube', title: 'Watch', completedAt: now }]);
      expect(rows.rewardClaims).toEqual([
        { lastClaimDate: now, lastBonusClaimDate: null, lastDailyClaimDate: null },
      ]);
      expect(rows.payments).toHaveLength(1);
      expect(rows.payments[0]).toMatchObject({ userId: user.id, amountCents: 499, coins: 50000 });

      const data = await exportAccountData(ctx(), user.id);
      expect(data.profile).toMatchObject({ id: user.id, coins: '5.00' });
      expect(data.transactions.map((r) => r.amount)).toEqual(['7.00', '-2.00']);
      expect(data.servers[0]).toMatchObject({
        name: 'Old one',
        canceledAt: new Date(now - 1000).toISOString(),
      });
      await expect(exportAccountData(ctx(), crypto.randomUUID())).rejects.toMatchObject({
        code: 'unauthorized',
      });
    });

    it('locks and changes only what it is asked to, for the one user', async () => {
      const user = await insertUser(t.store);
      const other = await insertUser(t.store);
      const mine = await seedActivity(t, user.id, other.id);
      const theirs = await seedActivity(t, other.id, user.id);
      await t.store.transaction(async (tx) => {
        const account = accountRepo(tx);
        expect((await account.lockUser(user.id))?.id).toBe(user.id);
        expect(await account.lockUser(crypto.randomUUID())).toBeUndefined();
        await account.endOwnedCampaigns(user.id, now + 5);
        await account.deletePersonalRows(user.id);
        await account.anonymiseUser(user.id, DELETED_USERNAME);
      });
      const mineAfter = await accountRepo(t.store.read).exportRows(user.id);
      const byId = new Map(mineAfter.campaigns.map((s) => [s.id, s]));
      expect(byId.get(mine.active)).toMatchObject({ canceledAt: now + 5, membersRemaining: 0 });
      expect(byId.get(mine.canceled)).toMatchObject({ canceledAt: now - 1000, membersRemaining: 5 });
      const theirsAfter = await accountRepo(t.store.read).exportRows(other.id);
      expect(theirsAfter.campaigns.find((s) => s.id === theirs.active)?.canceledAt).toBeNull();
      const count = async (table: 'social_task_starts' | 'user_addresses', userId: string) => {
        const read = t.store.read;
        const q = sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE user_id = ${userId}`;
        const qLite = sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE user_id = ${userId}`;
        return read.kind === 'sqlite'
          ? read.db.get<{ n: number }>(qLite).n
          : (await read.db.execute<{ n: number }>(q)).rows[0]!.n;
      };
      expect([await count('social_task_starts', user.id), await count('user_addresses', user.id)]).toEqual([
        0, 0,
      ]);
      expect([await count('social_task_starts', other.id), await count('user_addresses', other.id)]).toEqual([
        1, 1,
      ]);
      const anonymised = await usersRepo(t.store.read).findById(user.id);
      expect(anonymised).toMatchObject({
        discordId: `deleted:${user.id}`,
        discordUsername: DELETED_USERNAME,
        discordAvatar: null,
        email: null,
      });
      // The Discord id is free again: a new sign-up gets a new row.
      const again = await t.store.transaction((tx) =>
        usersRepo(tx).insertIfNew({
          discordId: user.discordId,
          discordUsername: 'back',
          discordAvatar: null,
          email: null,
          createdAt: now,
        }),
      );
      expect(again?.id).not.toBe(user.id);
    });

    describe('anonymiseAccount', () => {
      it('forfeits a positive balance, drops the tokens and refuses a wrong confirmation without changing anything', async () => {
        const { user } = await upsertUserFromDiscord(
          t.store,
          {
            id: `72000000000${String((n += 1)).padStart(6, '0')}`,
            username: 'leaver',
            avatar: null,
            email: 'l@x.org',
          },
          now,
          KEY,
        );
        await saveOAuthTokens(
          t.store,
          Buffer.alloc(32, 1),
          user.id,
          { accessToken: 'a', refreshToken: 'r', expiresIn: 60, scope: 's' },
          now,
        );
        await expect(anonymiseAccount(ctx(), user.id, 'someone-else')).rejects.toMatchObject({
          code: 'bad_request',
        });
        expect((await usersRepo(t.store.read).findById(user.id))?.discordUsername).toBe('leaver');
        expect(await oauthTokensRepo(t.store.read).find(user.id)).toBeDefined();
        await anonymiseAccount(ctx(), user.id, ' leaver ');
        expect(await getBalance(t.store, user.id)).toBe(0);
        expect(await oauthTokensRepo(t.store.read).find(user.id)).toBeUndefined();
        expect((await usersRepo(t.store.read).findById(user.id))?.discordUsername).toBe(DELETED_USERNAME);
        await expect(anonymiseAccount(ctx(), crypto.randomUUID(), 'x')).rejects.toMatchObject({
          code: 'unauthorized',
        });
        await assertLedgerInvariant(t.store);
      });

      it('settles a debt to zero and carries it to the next account of the same Discord account (decision 029)', async () => {
        const discordId = `73000000000${String((n += 1)).padStart(6, '0')}`;
        const { user } = await upsertUserFromDiscord(
          t.store,
          { id: discordId, username: 'debtor', avatar: null },
          now,
          KEY,
        );
        await debit(t.store, {
          userId: user.id,
          cents: 800,
          type: 'leave_penalty',
          allowNegative: true,
          now,
        });
        expect(await getBalance(t.store, user.id)).toBe(-300);
        await anonymiseAccount(ctx(), user.id, 'debtor');
        expect(await getBalance(t.store, user.id)).toBe(0);
        const next = await upsertUserFromDiscord(
          t.store,
          { id: discordId, username: 'debtor', avatar: null },
          now + 1,
          KEY,
        );
        expect(next.created).toBe(true);
        expect(await getBalance(t.store, next.user.id)).toBe(-300);
        await assertLedgerInvariant(t.store);
      });

      /** Every welcome_grants key, read straight from the table. */
      async function grantKeys(): Promise<string[]> {
        const q = sql`SELECT discord_id AS k FROM welcome_grants`;
        const read = t.store.read;
        const rows =
          read.kind === 'sqlite'
            ? read.db.all<{ k: string }>(q)
            : (await read.db.execute<{ k: string }>(q)).rows;
        return rows.map((r) => r.k);
      }

      it('keeps only a keyed hash of the Discord id in welcome_grants: no second welcome bonus after deletion and re-sign-up (issue 27 item 4)', async () => {
        const discordId = `74000000000${String((n += 1)).padStart(6, '0')}`;
        const first = await upsertUserFromDiscord(
          t.store,
          { id: discordId, username: 'again', avatar: null },
          now,
          KEY,
        );
        expect(first.user.coins).toBe(WELCOME_BONUS_CENTS);
        await anonymiseAccount(ctx(), first.user.id, 'again');
        const keys = await grantKeys();
        expect(keys).not.toContain(discordId);
        expect(keys.some((k) => k.includes(discordId))).toBe(false);
        expect(keys).toContain(discordIdHash(KEY, discordId));
        const next = await upsertUserFromDiscord(
          t.store,
          { id: discordId, username: 'again', avatar: null },
          now + 1,
          KEY,
        );
        expect(next.created).toBe(true);
        expect(next.user.coins).toBe(0);
        expect(await grantKeys()).not.toContain(discordId);
        await assertLedgerInvariant(t.store);
      });

      it('rewrites raw Discord ids written before the hash, keeping the welcome-once rule and a carried debt', async () => {
        const discordId = `75000000000${String((n += 1)).padStart(6, '0')}`;
        await t.store.transaction(async (tx) => {
          await usersRepo(tx).claimWelcomeGrant(discordId, now);
          await usersRepo(tx).addCarriedDebt(discordId, 250, now);
        });
        expect(await hashLegacyWelcomeGrants(t.store, KEY)).toBeGreaterThanOrEqual(1);
        expect(await grantKeys()).not.toContain(discordId);
        expect(await hashLegacyWelcomeGrants(t.store, KEY)).toBe(0);
        const back = await upsertUserFromDiscord(
          t.store,
          { id: discordId, username: 'old', avatar: null },
          now,
          KEY,
        );
        expect(back.created).toBe(true);
        expect(await getBalance(t.store, back.user.id)).toBe(-250);
        await assertLedgerInvariant(t.store);
      });

      it("blanks the campaign, guild and task names in the deleted user's transaction descriptions, keeping amounts and types (issue 27 item 4)", async () => {
        const user = await insertUser(t.store);
        const entries = [
          { type: 'join_reward', cents: 500, description: 'Joined Secret Garden Guild' },
          { type: 'social', cents: 200, description: 'Social task (youtube): Secret Garden channel' },
          {
            type: 'penalty_refund',
            cents: 100,
            description: 'Removed from Secret Garden Guild by a moderator: penalty refunded',
          },
        ] as const;
        for (const e of entries) await credit(t.store, { userId: user.id, ...e, now });
        await debit(t.store, {
          userId: user.id,
          cents: 300,
          type: 'campaign',
          description: 'Campaign: Secret Garden Guild (3 members)',
          now,
        });
        await debit(t.store, {
          userId: user.id,
          cents: 100,
          type: 'leave_penalty',
          description: 'Left Secret Garden Guild early',
          now,
        });
        const before = (await accountRepo(t.store.read).exportRows(user.id)).transactions;
        await anonymiseAccount(ctx(), user.id, user.discordUsername);
        const after = (await accountRepo(t.store.read).exportRows(user.id)).transactions;
        expect(after.filter((tr) => tr.description?.includes('Secret Garden'))).toEqual([]);
        const kept = after.filter((tr) => tr.type !== 'account_deleted');
        expect(kept.map((tr) => [tr.id, tr.type, tr.amount])).toEqual(
          before.map((tr) => [tr.id, tr.type, tr.amount]),
        );
        expect(Object.fromEntries(kept.map((tr) => [tr.type, tr.description]))).toMatchObject({
          join_reward: 'Server join reward',
          campaign: 'Campaign',
          leave_penalty: 'Early leave penalty',
        });
        await assertLedgerInvariant(t.store);
      });
    });
  });
});
