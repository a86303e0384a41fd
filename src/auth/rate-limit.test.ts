import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ signInRateLimit: 3 });
});
afterAll(() => app.close());

it('rate-limits sign-in attempts per client', async () => {
  const client = app.anonymous();
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await client.raw('/api/auth/discord')).status);
  expect(statuses).toEqual([302, 302, 302, 429, 429]);
  const res = await client.get<{ message: string }>('/api/auth/discord');
  expect(res.body.message).toMatch(/Too many sign-in attempts/);
});
