import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { insertUser } from '../test/factories.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { MAX_ACCESS_TOKENS_PER_USER } from '../shared/access-tokens.ts';
import { accessTokensRepo } from './access-tokens-repo.ts';
import { authenticateAccessToken, createAccessToken, revokeAccessToken } from './access-tokens.ts';

// The access-tokens repository and the service above it, held to the same cases on both engines.

const now = Date.UTC(2026, 0, 1);
const DAY = 24 * 60 * 60 * 1000;
const pgEnabled = await pgTestsEnabled();

describe.each(ENGINES)('access tokens on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    it('finds a usable token by its hash only, until it expires or is revoked', async () => {
      const user = await insertUser(t.store);
      const created = await createAccessToken(
        t.store,
        user.id,
        { name: 'a', scopes: ['read'], expiresInDays: 7 },
        now,
      );
      expect(await authenticateAccessToken(t.store, created.token, now)).toMatchObject({ userId: user.id });
      expect(await authenticateAccessToken(t.store, created.token.slice(0, -1) + 'x', now)).toBeNull();
      expect(await authenticateAccessToken(t.store, created.token, now + 7 * DAY)).toBeNull();
      await revokeAccessToken(t.store, user.id, created.id, now + 1);
      expect(await authenticateAccessToken(t.store, created.token, now + 2)).toBeNull();
      expect(await accessTokensRepo(t.store.read).listUsable(user.id, now + 2)).toEqual([]);
    });

    it('keeps the per-user cap when creations race', async () => {
      const user = await insertUser(t.store);
      const results = await Promise.allSettled(
        Array.from({ length: MAX_ACCESS_TOKENS_PER_USER + 5 }, () =>
          createAccessToken(t.store, user.id, { name: 'race', scopes: ['read'], expiresInDays: null }, now),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_ACCESS_TOKENS_PER_USER);
      expect(await accessTokensRepo(t.store.read).countUsable(user.id, now)).toBe(MAX_ACCESS_TOKENS_PER_USER);
    });

    it("revokes only the user's own token, once", async () => {
      const owner = await insertUser(t.store);
      const other = await insertUser(t.store);
      const created = await createAccessToken(
        t.store,
        owner.id,
        { name: 'a', scopes: ['read'], expiresInDays: null },
        now,
      );
      const revoke = (userId: string) =>
        t.store.transaction((tx) => accessTokensRepo(tx).revoke(userId, created.id, now));
      expect(await revoke(other.id)).toBe(false);
      expect(await revoke(owner.id)).toBe(true);
      expect(await revoke(owner.id)).toBe(false);
    });

    it('records a use at most once per interval, and counts and lists usable tokens newest first', async () => {
      const user = await insertUser(t.store);
      const first = await createAccessToken(
        t.store,
        user.id,
        { name: 'one', scopes: ['read'], expiresInDays: null },
        now,
      );
      await createAccessToken(
        t.store,
        user.id,
        { name: 'two', scopes: ['read'], expiresInDays: 30 },
        now + 1,
      );
      const touch = (at: number) =>
        t.store.transaction((tx) => accessTokensRepo(tx).touch(first.id, at, 60_000));
      expect(await touch(now + 10)).toBe(true);
      expect(await touch(now + 20)).toBe(false);
      expect(await touch(now + 60_011)).toBe(true);
      const repo = accessTokensRepo(t.store.read);
      expect(await repo.countUsable(user.id, now + 2)).toBe(2);
      const listed = await repo.listUsable(user.id, now + 2);
      expect(listed.map((r) => r.name)).toEqual(['two', 'one']);
      expect(listed[1]?.lastUsedAt).toBe(now + 60_011);
      await t.store.transaction((tx) => accessTokensRepo(tx).deleteForUser(user.id));
      expect(await repo.countUsable(user.id, now + 2)).toBe(0);
    });
  });
});
