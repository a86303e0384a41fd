import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../db/engine.ts';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { insertUser, ledgerAmounts } from '../test/factories.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { SOCIAL_CLAIM_DELAY_MS } from '../shared/social-schemas.ts';
import { completeSocialTask } from './complete-social-task.ts';
import { listSocialTasks } from './list-social-tasks.ts';
import {
  addSocialTask,
  formatTaskLine,
  listAllSocialTasks,
  removeSocialTask,
} from './manage-social-tasks.ts';
import { socialRepo } from './social-repo.ts';
import { startSocialTask } from './start-social-task.ts';

// The social repository and the services above it, held to the same cases on both engines (decision 034).

const now = Date.UTC(2026, 0, 1);
const pgEnabled = await pgTestsEnabled();

const socialAmounts = (h: DbHandle, userId: string) => ledgerAmounts(h, userId, 'social');

const code = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
};

describe.each(ENGINES)('social repository on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    let counter = 0;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    const newTask = (coins = 200) =>
      addSocialTask(
        t.store,
        { platform: 'tiktok', title: `Follow #${++counter}`, url: 'https://tiktok.com/@x', coins },
        now + counter,
      );

    it('the catalogue: adds, lists in creation order, and removes tasks', async () => {
      const before = (await listAllSocialTasks(t.store.read)).map((task) => task.id);
      const a = await addSocialTask(
        t.store,
        { platform: 'youtube', title: 'Sub', url: 'https://youtube.com/@x', coins: 200 },
        1000,
      );
      const b = await addSocialTask(
        t.store,
        { platform: 'tiktok', title: 'Follow', url: 'https://tiktok.com/@x', coins: 350 },
        2000,
      );
      expect(b).toMatchObject({ platform: 'tiktok', title: 'Follow', coins: 350, createdAt: 2000 });
      expect((await listAllSocialTasks(t.store.read)).map((task) => task.id)).toEqual([
        a.id,
        b.id,
        ...before,
      ]);
      expect(formatTaskLine(b)).toContain('3.50');
      expect(await socialRepo(t.store.read).findTask(b.id)).toEqual(b);
      expect(await removeSocialTask(t.store, a.id)).toBe(true);
      expect(await removeSocialTask(t.store, a.id)).toBe(false);
      expect((await listAllSocialTasks(t.store.read)).map((task) => task.id)).toEqual([b.id, ...before]);
    });

    it('start: the first start wins; unknown and removed tasks are not_found', async () => {
      const task = await newTask();
      const user = await insertUser(t.store);
      const first = await startSocialTask(t.store, user.id, task.id, now);
      const again = await startSocialTask(t.store, user.id, task.id, now + 5_000);
      expect(again).toEqual(first);
      expect(first.startedAt).toBe(new Date(now).toISOString());
      expect(await socialRepo(t.store.read).findStart(user.id, task.id)).toBe(now);
      expect(await code(startSocialTask(t.store, user.id, 'nope', now))).toBe('not_found');
      // A task deleted between the check and the insert: the foreign key says not_found on both engines.
      await expect(
        t.store.transaction((tx) => socialRepo(tx).recordStart(user.id, 'gone', now)),
      ).rejects.toMatchObject({ code: 'not_found' });
    });

    it('complete: refused without a start and before the delay, paid once on time, listed as completed', async () => {
      const task = await newTask(250);
      const user = await insertUser(t.store);
      expect(await code(completeSocialTask(t.store, user.id, task.id, now))).toBe('bad_request');
      await startSocialTask(t.store, user.id, task.id, now);
      const due = now + SOCIAL_CLAIM_DELAY_MS;
      expect(await code(completeSocialTask(t.store, user.id, task.id, due - 1))).toBe('too_early');
      expect(await completeSocialTask(t.store, user.id, task.id, due)).toEqual({ earned: '2.50' });
      expect(await code(completeSocialTask(t.store, user.id, task.id, due + 1))).toBe('conflict');
      expect(await code(completeSocialTask(t.store, user.id, 'nope', due))).toBe('not_found');
      expect(await socialAmounts(t.store.read, user.id)).toEqual([250]);
      expect(await socialRepo(t.store.read).hasCompleted(user.id, task.id)).toBe(true);
      const listed = await listSocialTasks(t.store.read, user.id);
      expect(listed.find((x) => x.id === task.id)).toMatchObject({ completed: true, coins: '2.50' });
      const other = await insertUser(t.store);
      expect((await listSocialTasks(t.store.read, other.id)).some((x) => x.completed)).toBe(false);
    });

    it('insertCompletion: true once, then false', async () => {
      const task = await newTask();
      const user = await insertUser(t.store);
      const results = await t.store.transaction(async (tx) => [
        await socialRepo(tx).insertCompletion(user.id, task.id, now),
        await socialRepo(tx).insertCompletion(user.id, task.id, now + 1),
      ]);
      expect(results).toEqual([true, false]);
    });

    it('exactly once: 10 concurrent completes pay once, 10 concurrent starts keep one start', async () => {
      const task = await newTask(300);
      const user = await insertUser(t.store);
      const starts = await Promise.all(
        Array.from({ length: 10 }, (_, i) => startSocialTask(t.store, user.id, task.id, now + i)),
      );
      expect(new Set(starts.map((s) => s.startedAt)).size).toBe(1);
      const due = now + 10 + SOCIAL_CLAIM_DELAY_MS;
      const results = await Promise.all(
        Array.from({ length: 10 }, () => code(completeSocialTask(t.store, user.id, task.id, due))),
      );
      expect(results.filter((r) => r === 'ok')).toHaveLength(1);
      expect(results.filter((r) => r === 'conflict')).toHaveLength(9);
      expect(await socialAmounts(t.store.read, user.id)).toEqual([300]);
      expect(await ledger.getBalance(t.store, user.id)).toBe(300);
      await ledger.assertLedgerInvariant(t.store);
    });
  });
});
