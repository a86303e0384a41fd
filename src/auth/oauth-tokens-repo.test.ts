import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { insertUser } from '../test/factories.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { oauthTokensRepo } from './oauth-tokens-repo.ts';
import {
  decryptToken,
  deleteOAuthTokens,
  getAccessToken,
  REFRESH_LEASE_MS,
  saveOAuthTokens,
} from './oauth-tokens.ts';
import { loadConfig } from '../config.ts';
import { ManualClock } from '../clock.ts';
import { createLogger } from '../logger.ts';
import { DiscordApi } from '../discord/discord-api.ts';

// The OAuth tokens repository on both engines (decision 034).

const pgEnabled = await pgTestsEnabled();
const key = Buffer.alloc(32, 7);
const now = Date.UTC(2026, 0, 1);

describe.each(ENGINES)('OAuth tokens on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    it('saves, replaces and deletes a user’s tokens, encrypted at rest', async () => {
      const user = await insertUser(t.store);
      const read = oauthTokensRepo(t.store.read);
      expect(await read.find(user.id)).toBeUndefined();
      await saveOAuthTokens(
        t.store,
        key,
        user.id,
        { accessToken: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600, scope: 'identify guilds' },
        now,
      );
      const first = await read.find(user.id);
      expect(first).toMatchObject({ userId: user.id, scope: 'identify guilds', expiresAt: now + 3_600_000 });
      expect(first!.accessTokenEnc).not.toContain('access-1');
      expect(decryptToken(key, first!.accessTokenEnc)).toBe('access-1');
      await t.store.transaction((tx) =>
        saveOAuthTokens(
          tx,
          key,
          user.id,
          { accessToken: 'access-2', refreshToken: null, expiresIn: 60, scope: 'identify' },
          now + 1,
        ),
      );
      const second = await read.find(user.id);
      expect(decryptToken(key, second!.accessTokenEnc)).toBe('access-2');
      expect(second).toMatchObject({ refreshTokenEnc: null, scope: 'identify', updatedAt: now + 1 });
      await deleteOAuthTokens(t.store, user.id);
      expect(await read.find(user.id)).toBeUndefined();
      // Deleting what is not there is not an error.
      await deleteOAuthTokens(t.store, user.id);
    });

    it('rolls a save back with the transaction it is part of', async () => {
      const user = await insertUser(t.store);
      await expect(
        t.store.transaction(async (tx) => {
          await saveOAuthTokens(
            tx,
            key,
            user.id,
            { accessToken: 'a', refreshToken: 'r', expiresIn: 1, scope: 's' },
            now,
          );
          throw new Error('caller fails');
        }),
      ).rejects.toThrow('caller fails');
      expect(await oauthTokensRepo(t.store.read).find(user.id)).toBeUndefined();
    });

    it('lets exactly one of several concurrent claimers take a refresh, and gives it back', async () => {
      const user = await insertUser(t.store);
      await saveOAuthTokens(
        t.store,
        key,
        user.id,
        { accessToken: 'a', refreshToken: 'r', expiresIn: 1, scope: 's' },
        now,
      );
      const lease = now + REFRESH_LEASE_MS;
      const claims = await Promise.all(
        [1, 2, 3].map(() =>
          t.store.transaction((tx) => oauthTokensRepo(tx).claimRefresh(user.id, now, lease)),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await oauthTokensRepo(t.store.read).find(user.id))?.updatedAt).toBe(lease);
      // Only the holder's lease is given back.
      await t.store.transaction((tx) => oauthTokensRepo(tx).releaseRefresh(user.id, lease + 1, now + 5));
      expect((await oauthTokensRepo(t.store.read).find(user.id))?.updatedAt).toBe(lease);
      await t.store.transaction((tx) => oauthTokensRepo(tx).releaseRefresh(user.id, lease, now + 5));
      expect((await oauthTokensRepo(t.store.read).find(user.id))?.updatedAt).toBe(now + 5);
      expect(await t.store.transaction((tx) => oauthTokensRepo(tx).claimRefresh(user.id, now, lease))).toBe(
        false,
      );
    });

    it('waits for the refresh another process holds and uses its tokens, never calling Discord itself', async () => {
      const config = loadConfig({ NODE_ENV: 'test' });
      const clock = new ManualClock(now);
      const ctx = {
        store: t.store,
        clock,
        logger: createLogger('silent'),
        config,
        // Nothing answers here: a refresh attempted by this process would fail the test.
        discord: new DiscordApi({ baseUrl: 'http://127.0.0.1:1', botToken: 'unused' }),
      };
      const user = await insertUser(t.store);
      const k = config.tokenEncryptionKey;
      await saveOAuthTokens(
        t.store,
        k,
        user.id,
        { accessToken: 'old', refreshToken: 'r1', expiresIn: 1, scope: 's' },
        now,
      );
      clock.advance(10 * 60_000); // expired
      // The other process claims the refresh…
      expect(
        await t.store.transaction((tx) =>
          oauthTokensRepo(tx).claimRefresh(user.id, now, clock.now() + REFRESH_LEASE_MS),
        ),
      ).toBe(true);
      const waiting = getAccessToken(ctx, user.id);
      // …and saves what Discord gave it, a moment later (the waiter has seen the lease by then; without
      // the claim it would have asked the dead Discord address and failed).
      await new Promise((resolve) => setTimeout(resolve, 200));
      await saveOAuthTokens(
        t.store,
        k,
        user.id,
        { accessToken: 'fresh', refreshToken: 'r2', expiresIn: 3600, scope: 's' },
        clock.now(),
      );
      expect(await waiting).toBe('fresh');
      expect(await getAccessToken(ctx, user.id)).toBe('fresh');
    });
  });
});
