import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness.ts';
import { TOO_MANY_WRITES } from '../../http/write-limits.ts';
import { balanceOf, createBotCampaign } from '../bot-test-kit.ts';
import { commandsRegistered, press, run } from './test-kit.ts';

// The bot's claims and joins count against the website's per-user write limits, with the same words.

let app: TestApp;
let member: TestClient;
let owner: TestClient;

beforeAll(async () => {
  app = await startTestApp({
    background: true,
    writeLimits: { perUser: { claim: 2, join: 1 }, perAddress: 100_000 },
  });
  await app.server.background.bot!.ready;
  member = await app.signIn('limited_member');
  owner = await app.signIn('limited_owner');
  await commandsRegistered(app);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

it('refuses the third claim in a minute like the website does, and pays nothing for it', async () => {
  expect((await run(app, member, 'hourly')).reply.embeds[0]!.title).toBe('Hourly Reward Claimed!');
  expect((await run(app, member, 'bonus')).reply.embeds[0]!.title).toBe('Bonus Reward Claimed!');
  const before = await balanceOf(app, member);
  const third = await run(app, member, 'daily');
  expect(third.reply.content).toBe(TOO_MANY_WRITES);
  expect(await balanceOf(app, member)).toBe(before);
  const web = await owner.post<{ message: string }>('/api/hourly/claim', { type: 'regular' });
  await owner.post('/api/hourly/claim', { type: 'bonus' });
  const webThird = await owner.post<{ message: string }>('/api/hourly/claim', { type: 'daily' });
  expect(web.status).toBe(200);
  expect(webThird.status).toBe(429);
  expect(webThird.body.message).toBe(third.reply.content);
});

it('counts Join presses as joins', async () => {
  const a = (await createBotCampaign(app, owner, { name: 'Limit A' })).campaign;
  const b = (await createBotCampaign(app, owner, { name: 'Limit B' })).campaign;
  const farm = await run(app, member, 'farm');
  expect((await press(app, member, farm.reply, `farm:join:${a.id}`)).reply.embeds[0]!.title).toBe(
    'Almost there!',
  );
  const second = await press(app, member, farm.reply, `farm:join:${b.id}`);
  expect(second.reply.content).toBe(TOO_MANY_WRITES);
});
