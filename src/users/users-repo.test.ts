import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { assertLedgerInvariant, debit, getBalance } from '../ledger/index.ts';
import { usersRepo } from './users-repo.ts';
import { discordIdHash } from './discord-id-hash.ts';
import { getUserById, upsertUserFromDiscord, WELCOME_BONUS_CENTS } from './users.ts';

// The users repository and the sign-up service above it, held to the same cases on both engines
// (decision 034).

const pgEnabled = await pgTestsEnabled();
const now = Date.UTC(2026, 0, 1);
const KEY = Buffer.alloc(32, 7);
let n = 0;
const discordId = () => `71000000000${String((n += 1)).padStart(6, '0')}`;

describe.each(ENGINES)('users on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    it('inserts a user once per Discord id, and refreshes the profile (keeping the email when none is given)', async () => {
      const id = discordId();
      const user = await t.store.transaction((tx) =>
        usersRepo(tx).insertIfNew({
          discordId: id,
          discordUsername: 'alice',
          discordAvatar: null,
          email: 'a@example.com',
          createdAt: now,
        }),
      );
      expect(user).toMatchObject({ discordId: id, discordUsername: 'alice', coins: 0, createdAt: now });
      const again = await t.store.transaction((tx) =>
        usersRepo(tx).insertIfNew({
          discordId: id,
          discordUsername: 'other',
          discordAvatar: null,
          email: null,
          createdAt: now,
        }),
      );
      expect(again).toBeUndefined();
      const refreshed = await t.store.transaction((tx) =>
        usersRepo(tx).refreshProfile(id, { discordUsername: 'alice2', discordAvatar: 'abc', email: null }),
      );
      expect(refreshed).toMatchObject({
        id: user!.id,
        discordUsername: 'alice2',
        discordAvatar: 'abc',
        email: 'a@example.com',
      });
      const withEmail = await t.store.transaction((tx) =>
        usersRepo(tx).refreshProfile(id, {
          discordUsername: 'alice2',
          discordAvatar: null,
          email: 'b@x.org',
        }),
      );
      expect(withEmail?.email).toBe('b@x.org');
      expect(
        await t.store.transaction((tx) =>
          usersRepo(tx).refreshProfile('0', { discordUsername: 'x', discordAvatar: null, email: null }),
        ),
      ).toBeUndefined();
      const read = usersRepo(t.store.read);
      expect(await read.findById(user!.id)).toMatchObject({ discordUsername: 'alice2', email: 'b@x.org' });
      expect(await read.exists(user!.id)).toBe(true);
      expect(await read.exists(crypto.randomUUID())).toBe(false);
      expect(await read.findById(crypto.randomUUID())).toBeUndefined();
    });

    it('grants the welcome once per Discord account, ever', async () => {
      const id = discordId();
      const grant = () => t.store.transaction((tx) => usersRepo(tx).claimWelcomeGrant(id, now));
      expect(await grant()).toBe(true);
      expect(await grant()).toBe(false);
    });

    it('carries a debt to the next account and hands it over once', async () => {
      const id = discordId();
      expect(await t.store.transaction((tx) => usersRepo(tx).takeCarriedDebt(id))).toBe(0);
      await t.store.transaction((tx) => usersRepo(tx).addCarriedDebt(id, 300, now));
      await t.store.transaction((tx) => usersRepo(tx).addCarriedDebt(id, 200, now));
      // The debt row is a welcome grant too: no bonus for a Discord account that had an account.
      expect(await t.store.transaction((tx) => usersRepo(tx).claimWelcomeGrant(id, now))).toBe(false);
      const taken = await Promise.all([
        t.store.transaction((tx) => usersRepo(tx).takeCarriedDebt(id)),
        t.store.transaction((tx) => usersRepo(tx).takeCarriedDebt(id)),
      ]);
      expect(taken.sort((a, b) => a - b)).toEqual([0, 500]);
    });

    describe('sign-up (upsertUserFromDiscord)', () => {
      it('creates the user with the welcome bonus on the first sign-in, and only refreshes after', async () => {
        const id = discordId();
        const first = await upsertUserFromDiscord(t.store, { id, username: 'bob', avatar: null }, now, KEY);
        expect(first.created).toBe(true);
        expect(first.user.coins).toBe(WELCOME_BONUS_CENTS);
        const second = await upsertUserFromDiscord(
          t.store,
          { id, username: 'bobby', avatar: 'a1' },
          now + 1,
          KEY,
        );
        expect(second).toMatchObject({
          created: false,
          user: { id: first.user.id, discordUsername: 'bobby' },
        });
        expect(await getBalance(t.store, first.user.id)).toBe(WELCOME_BONUS_CENTS);
        expect((await getUserById(t.store, first.user.id)).discordAvatar).toBe('a1');
        await expect(getUserById(t.store, crypto.randomUUID())).rejects.toMatchObject({
          code: 'unauthorized',
        });
      });

      it('makes concurrent first sign-ins of one Discord account one user with one bonus', async () => {
        const id = discordId();
        const results = await Promise.all(
          Array.from({ length: 4 }, () =>
            upsertUserFromDiscord(t.store, { id, username: 'race', avatar: null }, now, KEY),
          ),
        );
        expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(await getBalance(t.store, results[0]!.user.id)).toBe(WELCOME_BONUS_CENTS);
        await assertLedgerInvariant(t.store);
      });

      it('starts a new account of a Discord account that left a debt with that debt, and no bonus', async () => {
        const id = discordId();
        await t.store.transaction((tx) => usersRepo(tx).addCarriedDebt(discordIdHash(KEY, id), 250, now));
        const { user, created } = await upsertUserFromDiscord(
          t.store,
          { id, username: 'debtor', avatar: null },
          now,
          KEY,
        );
        expect(created).toBe(true);
        expect(await getBalance(t.store, user.id)).toBe(-250);
        expect(user.coins).toBe(-250);
        await expect(debit(t.store, { userId: user.id, cents: 1, type: 'campaign', now })).rejects.toThrow(
          /Insufficient/,
        );
        await assertLedgerInvariant(t.store);
      });

      it('writes nothing when it runs inside a transaction that rolls back', async () => {
        const id = discordId();
        await expect(
          t.store.transaction(async (tx) => {
            await upsertUserFromDiscord(tx, { id, username: 'ghost', avatar: null }, now, KEY);
            throw new Error('caller fails');
          }),
        ).rejects.toThrow('caller fails');
        expect(await t.store.transaction((tx) => usersRepo(tx).claimWelcomeGrant(id, now))).toBe(true);
        await assertLedgerInvariant(t.store);
      });
    });
  });
});
