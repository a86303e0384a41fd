import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SECOND } from '../clock.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import type { ApiSocialTask } from '../shared/api-types.ts';
import type { CompleteSocialTaskResponse, StartSocialTaskResponse } from '../shared/social-schemas.ts';
import { addSocialTask, removeSocialTask } from './manage-social-tasks.ts';

let app: TestApp;
let counter = 0;
const nextName = () => `follower${++counter}`;

beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => app.checkLedger());
afterAll(async () => {
  await app.close();
});

function newTask(coins = 200, platform: 'youtube' | 'tiktok' = 'tiktok') {
  return addSocialTask(
    app.server.ctx.store,
    { platform, title: `Follow us #${++counter}`, url: 'https://www.tiktok.com/@coinsync', coins },
    app.clock.now(),
  );
}

function socialTransactions(userId: string) {
  return app.query<{ amount: number; description: string }>(
    sql`SELECT amount, description FROM transactions WHERE user_id = ${userId} AND type = 'social' ORDER BY created_at, id`,
  );
}

describe('social task completion', () => {
  it('is refused without a start', async () => {
    const task = await newTask();
    const client = await app.signIn(nextName());
    const res = await client.post<{ message: string }>(`/api/social/${task.id}/complete`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please open the task link before claiming this reward.');
    expect(await socialTransactions(client.user!.id)).toHaveLength(0);
  });

  it('is refused one second before 15 s, accepted on time, and paid once', async () => {
    const task = await newTask(250);
    const client = await app.signIn(nextName());
    const before = await client.balanceCents();

    const start = await client.post<StartSocialTaskResponse>(`/api/social/${task.id}/start`);
    expect(start.status).toBe(200);
    expect(start.body.startedAt).toBe(new Date(app.clock.now()).toISOString());
    expect(start.body.claimableAt).toBe(new Date(app.clock.now() + 15 * SECOND).toISOString());

    app.clock.advance(14 * SECOND);
    const early = await client.post<{ message: string }>(`/api/social/${task.id}/complete`);
    expect(early.status).toBe(425);
    expect(early.body.message).toBe('Please wait a few more seconds before claiming this reward.');
    expect(await client.balanceCents()).toBe(before);

    app.clock.advance(SECOND);
    const done = await client.post<CompleteSocialTaskResponse>(`/api/social/${task.id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ earned: '2.50' });
    expect(await client.balanceCents()).toBe(before + 250);

    const again = await client.post<{ message: string }>(`/api/social/${task.id}/complete`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Task already completed');
    expect(await client.balanceCents()).toBe(before + 250);
    expect(await socialTransactions(client.user!.id)).toEqual([
      { amount: 250, description: `Social task (TikTok): ${task.title}` },
    ]);
  });

  it('first start wins: starting again does not push the claim time back', async () => {
    const task = await newTask();
    const client = await app.signIn(nextName());
    const first = await client.post<StartSocialTaskResponse>(`/api/social/${task.id}/start`);
    app.clock.advance(10 * SECOND);
    const second = await client.post<StartSocialTaskResponse>(`/api/social/${task.id}/start`);
    expect(second.body).toEqual(first.body);
    app.clock.advance(5 * SECOND);
    expect((await client.post(`/api/social/${task.id}/complete`)).status).toBe(200);
    // Starting a completed task is a harmless no-op.
    const afterDone = await client.post<StartSocialTaskResponse>(`/api/social/${task.id}/start`);
    expect(afterDone.status).toBe(200);
    expect(afterDone.body).toEqual(first.body);
  });

  it('20 concurrent completes credit exactly once', async () => {
    const task = await newTask();
    const client = await app.signIn(nextName());
    const before = await client.balanceCents();
    await client.post(`/api/social/${task.id}/start`);
    app.clock.advance(15 * SECOND);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => client.post(`/api/social/${task.id}/complete`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    expect(await socialTransactions(client.user!.id)).toHaveLength(1);
    expect(await client.balanceCents()).toBe(before + 200);
  });

  it('unknown task ids give 404 on start and complete', async () => {
    const client = await app.signIn(nextName());
    for (const path of [
      '/api/social/nope/start',
      '/api/social/nope/complete',
      `/api/social/${'x'.repeat(300)}/complete`,
    ]) {
      const res = await client.post<{ message: string }>(path);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Task not found');
    }
  });

  it('a removed task can no longer be completed', async () => {
    const task = await newTask();
    const client = await app.signIn(nextName());
    await client.post(`/api/social/${task.id}/start`);
    app.clock.advance(15 * SECOND);
    expect(await removeSocialTask(app.server.ctx.store, task.id)).toBe(true);
    expect((await client.post(`/api/social/${task.id}/complete`)).status).toBe(404);
  });

  it('requires sign-in', async () => {
    const task = await newTask();
    expect((await app.anonymous().get('/api/social')).status).toBe(401);
    expect((await app.anonymous().post(`/api/social/${task.id}/start`)).status).toBe(401);
    expect((await app.anonymous().post(`/api/social/${task.id}/complete`)).status).toBe(401);
  });
});

describe('GET /api/social', () => {
  it('lists tasks with completed flags for the signed-in user only, never cached', async () => {
    const a = await app.signIn(nextName());
    const b = await app.signIn(nextName());
    const task = await newTask(300, 'youtube');
    await a.post(`/api/social/${task.id}/start`);
    await b.post(`/api/social/${task.id}/start`); // b starts but never completes
    app.clock.advance(15 * SECOND);
    await a.post(`/api/social/${task.id}/complete`);

    const listA = await a.get<ApiSocialTask[]>('/api/social');
    expect(listA.status).toBe(200);
    expect(listA.headers.get('cache-control')).toBe('no-store');
    const forA = listA.body.find((t) => t.id === task.id);
    expect(forA).toEqual({
      id: task.id,
      platform: 'youtube',
      title: task.title,
      url: 'https://www.tiktok.com/@coinsync',
      coins: '3.00',
      createdAt: new Date(task.createdAt).toISOString(),
      completed: true,
    });
    expect(listA.body.filter((t) => t.completed).map((t) => t.id)).toEqual([task.id]);

    const listB = await b.get<ApiSocialTask[]>('/api/social');
    expect(listB.body.find((t) => t.id === task.id)?.completed).toBe(false);
    expect(listB.body.every((t) => !t.completed)).toBe(true);
  });
});
