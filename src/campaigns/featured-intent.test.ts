import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import type { ApiServer } from '../shared/api-types.ts';
import type { ApiMyServer } from '../shared/campaign-schemas.ts';
import { createGuildWithInvite, campaignsOf, signInWithCoins } from './test-support.ts';
import { FEATURED_INTENT_EXPIRED, FEATURED_INTENT_TTL_MS, pruneExpiredIntents } from './featured-intent.ts';

let app: TestApp;
let owner: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'intent_owner', 495); // 500.00
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

async function createIntent(name: string): Promise<ApiServer> {
  const { link } = createGuildWithInvite(app, owner, { name });
  const res = await owner.post<ApiServer>('/api/servers', { name, inviteLink: link, isFeaturedIntent: true });
  expect(res.status).toBe(201);
  return res.body;
}

it('never lists an unpromoted featured intent in My Campaigns, Discover or the active campaigns', async () => {
  const intent = await createIntent('Ghost Row');
  const mine = await owner.get<ApiMyServer[]>('/api/servers/mine');
  expect(mine.body.map((s) => s.id)).not.toContain(intent.id);
  const campaigns = await owner.get<ApiServer[]>('/api/campaigns');
  expect(campaigns.body.map((s) => s.id)).not.toContain(intent.id);
  const other = await signInWithCoins(app, 'intent_viewer');
  const discover = await other.get<ApiServer[]>('/api/servers');
  expect(discover.body.map((s) => s.id)).not.toContain(intent.id);

  // Once promoted it is a real featured campaign and shows up.
  expect((await owner.post(`/api/servers/${intent.id}/promote`)).status).toBe(200);
  const after = await owner.get<ApiMyServer[]>('/api/servers/mine');
  expect(after.body.map((s) => s.id)).toContain(intent.id);
});

it('refuses to promote an intent after it expired, charging nothing, and the prune deletes it', async () => {
  const intent = await createIntent('Late Row');
  const before = await owner.balanceCents();
  app.clock.advance(FEATURED_INTENT_TTL_MS);
  const res = await owner.post<{ message: string }>(`/api/servers/${intent.id}/promote`);
  expect(res.status).toBe(409);
  expect(res.body.message).toBe(FEATURED_INTENT_EXPIRED);
  expect(await owner.balanceCents()).toBe(before);

  const fresh = await createIntent('Fresh Row');
  const removed = await pruneExpiredIntents(app.server.ctx.store, app.clock.now());
  expect(removed).toBe(1);
  const ids = (await campaignsOf(app, owner)).map((s) => s.id);
  expect(ids).not.toContain(intent.id);
  expect(ids).toContain(fresh.id);
  // Promoted or funded campaigns are never pruned, however old.
  app.clock.advance(10 * FEATURED_INTENT_TTL_MS);
  const featuredEarlier = (await campaignsOf(app, owner)).filter((s) => s.isFeatured).length;
  await pruneExpiredIntents(app.server.ctx.store, app.clock.now());
  expect((await campaignsOf(app, owner)).filter((s) => s.isFeatured)).toHaveLength(featuredEarlier);
  expect((await campaignsOf(app, owner)).map((s) => s.id)).not.toContain(fresh.id);
});
