import { afterAll, expect, it } from 'vitest';
import type session from 'express-session';
import { createTestDatabase } from '../test/db.ts';
import { SqliteSessionStore } from './sqlite-session-store.ts';
import { allowSessionCreation } from './session-creation.ts';

const database = createTestDatabase();
let now = Date.UTC(2026, 0, 1);
const store = new SqliteSessionStore(database.sqlite, () => now);
afterAll(() => {
  store.close();
  database.dispose();
});

const get = (sid: string) =>
  new Promise<session.SessionData | null | undefined>((resolve, reject) =>
    store.get(sid, (err, sess) =>
      err ? reject(err instanceof Error ? err : new Error('session store failed')) : resolve(sess),
    ),
  );
/** A signed-in session as the request signing in saves it (the only save that may create one). */
const sessionFor = (userId: string, expires: number) => {
  const signingIn = {};
  allowSessionCreation(signingIn);
  const sess = {
    cookie: { expires: new Date(expires), originalMaxAge: 1000 },
    passport: { user: { id: userId } },
  };
  Object.defineProperty(sess, 'req', { value: signingIn });
  return sess as unknown as session.SessionData;
};

it('creates a signed-in session only for the request signing in; any other save updates or does nothing', async () => {
  const later = { cookie: { expires: new Date(now + 60_000) }, passport: { user: { id: 'u0' } } };
  store.set('revived', later as unknown as session.SessionData);
  expect(await get('revived')).toBeNull();
  store.set('revived', sessionFor('u0', now + 60_000));
  store.set('revived', { ...later, marker: 1 } as unknown as session.SessionData);
  expect(await get('revived')).toMatchObject({ marker: 1 });
  store.destroy('revived');
  store.set('revived', { ...later, marker: 2 } as unknown as session.SessionData);
  expect(await get('revived')).toBeNull();
  // A session without a user (a sign-in under way) may be created by any request.
  store.set('pre-login', { cookie: { expires: new Date(now + 60_000) } } as unknown as session.SessionData);
  expect(await get('pre-login')).not.toBeNull();
});

it('returns what was saved, a fresh object each time, until it expires', async () => {
  store.set('a', sessionFor('u1', now + 60_000));
  const first = await get('a');
  expect(first).toMatchObject({ passport: { user: { id: 'u1' } } });
  expect(await get('a')).not.toBe(first);
  now += 60_001;
  expect(await get('a')).toBeNull();
});

it('forgets destroyed sessions, and reads sessions written by an earlier process', async () => {
  store.set('b', sessionFor('u2', now + 60_000));
  store.destroy('b');
  expect(await get('b')).toBeNull();
  database.sqlite
    .prepare('INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?)')
    .run('c', JSON.stringify(sessionFor('u3', now + 60_000)), now + 60_000);
  expect(await get('c')).toMatchObject({ passport: { user: { id: 'u3' } } });
});

it('extends the expiry on touch', async () => {
  store.set('d', sessionFor('u4', now + 1000));
  store.touch('d', sessionFor('u4', now + 120_000));
  now += 60_000;
  expect(await get('d')).toMatchObject({ passport: { user: { id: 'u4' } } });
  const row = database.sqlite.prepare('SELECT expires_at AS e FROM sessions WHERE sid = ?').get('d') as {
    e: number;
  };
  expect(row.e).toBe(now + 60_000);
});

it('ends a session as soon as its row is deleted by anything else (no in-process copy)', async () => {
  store.set('e', sessionFor('u5', now + 60_000));
  expect(await get('e')).toMatchObject({ passport: { user: { id: 'u5' } } });
  database.sqlite.prepare('DELETE FROM sessions WHERE sid = ?').run('e');
  expect(await get('e')).toBeNull();
});
