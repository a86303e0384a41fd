import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { insertUser } from '../test/factories.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { oauthTokensRepo } from './oauth-tokens-repo.ts';
import { decryptToken, deleteOAuthTokens, saveOAuthTokens } from './oauth-tokens.ts';

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
  });
});
