import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertCampaign } from '../test/factories.ts';
import { DAY } from '../clock.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { openEventStream, type EventStreamReader } from '../test/sse.ts';
import { startFakeStripe, type FakeStripe } from '../sim/stripe/index.ts';
import { buyPack, WEBHOOK_SECRET } from '../payments/test-support.ts';
import { createBotCampaign, findJoin, joinViaWebsite, waitFor } from '../bot/bot-test-kit.ts';
import { createLogger } from '../logger.ts';
import { createMemoryEventBus, createRedisEventBus, type StoredEvent } from './event-bus.ts';
import { createRedisClient } from '../ops/redis.ts';

// Issue 12 item 7: live events over Server-Sent Events, read here over real HTTP connections with the
// session cookie, as a browser's EventSource would. The bot verifies joins from the simulator's
// gateway; payments arrive as signed webhooks from the local Stripe fake.

let app: TestApp;
let stripe: FakeStripe;
let owner: TestClient;
let counter = 0;
const streams: EventStreamReader[] = [];
const open = async (client: TestClient, lastEventId?: string) => {
  const stream = await openEventStream(client, lastEventId);
  streams.push(stream);
  return stream;
};

beforeAll(async () => {
  stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  app = await startTestApp({
    background: true,
    liveHeartbeatMs: 50,
    env: {
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    },
  });
  stripe.connect({ webhookUrl: `${app.url}/api/stripe/webhook`, now: () => app.clock.now() });
  await app.server.background.bot?.ready;
  owner = await app.signIn('live_owner');
});
afterAll(async () => {
  for (const s of streams) s.close();
  await app.close();
  await stripe.close();
});
afterEach(() => app.checkLedger());

async function verifiedJoin(member: TestClient, guildId: string, campaignId: string): Promise<void> {
  await joinViaWebsite(member, campaignId);
  app.sim.state.addMember(guildId, member.user!.discordId);
  await waitFor(
    async () => (await findJoin(app, campaignId, member.user!.id))?.verified === true,
    5000,
    'verification',
  );
}

describe('GET /api/events', () => {
  it('answers 401 with a message when signed out, and streams with a heartbeat when signed in', async () => {
    const res = await app.anonymous().get<{ message: string }>('/api/events');
    expect(res.status).toBe(401);
    expect(res.body.message).toEqual(expect.any(String));

    const member = await app.signIn(`live_member_${++counter}`);
    const stream = await open(member);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    // The CSP the page gets allows a same-origin EventSource.
    expect(stream.response.headers.get('content-security-policy')).toMatch(/connect-src 'self'/);
    await stream.until((s) => s.comments.includes('ping'), 5000, 'a heartbeat');
  });

  it('pushes join verified (with the new balance) to the member and campaign completed to the owner', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 1, name: 'Live Guild' });
    const member = await app.signIn(`live_member_${++counter}`);
    const memberStream = await open(member);
    const ownerStream = await open(owner);
    await verifiedJoin(member, guild.id, campaign.id);

    const joined = await memberStream.nextOfType('join_verified');
    expect(joined.data).toEqual({
      type: 'join_verified',
      serverName: 'Live Guild',
      amount: '0.50',
      balance: '5.50',
    });
    expect(joined.id).toMatch(/^\d+$/);
    const completed = await ownerStream.nextOfType('campaign_completed');
    expect(completed.data).toEqual({ type: 'campaign_completed', serverName: 'Live Guild', members: 1 });
    // Nobody else's events: the owner got no join_verified, the member no campaign_completed.
    expect(ownerStream.messages.some((m) => (m.data as { type: string }).type === 'join_verified')).toBe(
      false,
    );
    expect(
      memberStream.messages.some((m) => (m.data as { type: string }).type === 'campaign_completed'),
    ).toBe(false);
  });

  it('pushes penalty charged when a member leaves early', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 5 });
    const member = await app.signIn(`live_member_${++counter}`);
    const stream = await open(member);
    await verifiedJoin(member, guild.id, campaign.id);
    await stream.nextOfType('join_verified');
    app.clock.advance(DAY);
    app.sim.state.removeMember(guild.id, member.user!.discordId, { reason: 'leave' });
    const penalty = await stream.nextOfType('penalty_charged');
    expect(penalty.data).toMatchObject({ type: 'penalty_charged', amount: '2.00', balance: '3.50' });
  });

  it('ends the stream when its session signs out, and every stream of the user on sign-out everywhere', async () => {
    const member = await app.signIn(`live_member_${++counter}`);
    const stream = await open(member);
    await stream.until((s) => s.comments.includes('ping'), 5000, 'a heartbeat');
    expect((await member.post('/api/auth/logout')).status).toBe(200);
    await stream.closedByServer();

    const name = `live_member_${++counter}`;
    const tabA = await app.signIn(name);
    const tabB = await app.signIn(name);
    const [a, b] = [await open(tabA), await open(tabB)];
    await a.until((s) => s.comments.includes('ping'), 5000, 'a heartbeat');
    // Another browser of someone else stays open.
    const other = await open(await app.signIn(`live_member_${++counter}`));
    expect((await tabA.post('/api/auth/sign-out-everywhere')).status).toBe(200);
    await a.closedByServer();
    await b.closedByServer();
    const pings = other.comments.length;
    await other.until((s) => s.comments.length > pings + 2, 5000, 'more heartbeats');
  });

  it('pushes the no-bot reward (with the new balance) when the member claims it', async () => {
    const guild = app.sim.state.createGuild({
      name: 'Live Corner',
      ownerId: owner.user!.discordId,
      botMember: false,
    });
    const campaign = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      kind: 'nobot',
      name: 'Live Corner',
      guildId: guild.id,
      membersRemaining: 3,
    });
    const member = await app.signIn(`live_member_${++counter}`);
    const stream = await open(member);
    await joinViaWebsite(member, campaign.id);
    app.sim.state.addMember(guild.id, member.user!.discordId);
    app.clock.advance(10_000);
    expect((await member.post(`/api/servers/${campaign.id}/claim-nobot`)).status).toBe(200);
    const reward = await stream.nextOfType('nobot_reward');
    expect(reward.data).toEqual({
      type: 'nobot_reward',
      campaignId: campaign.id,
      serverName: 'Live Corner',
      amount: '0.20',
      balance: '5.20',
    });
  });

  it('pushes payment credited after the Stripe webhook, to every open tab of the buyer', async () => {
    const buyer = await app.signIn(`live_member_${++counter}`);
    const tabs = [await open(buyer), await open(buyer)];
    const { id } = await buyPack(buyer, 'small');
    const delivered = await stripe.deliver(stripe.event('payment_intent.succeeded', stripe.succeed(id)));
    expect(delivered.status).toBe(200);
    for (const tab of tabs) {
      const credited = await tab.nextOfType('payment_credited');
      expect(credited.data).toEqual({ type: 'payment_credited', coins: '250.00', balance: '255.00' });
    }
  });

  it('replays what a tab missed when it reconnects with Last-Event-ID, once and in order', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 10 });
    const member = await app.signIn(`live_member_${++counter}`);
    const first = await open(member);
    await verifiedJoin(member, guild.id, campaign.id);
    const seen = await first.nextOfType('join_verified');
    first.close();

    // While the tab is away: a penalty and a purchase.
    app.clock.advance(DAY);
    app.sim.state.removeMember(guild.id, member.user!.discordId, { reason: 'leave' });
    await waitFor(
      async () => (await findJoin(app, campaign.id, member.user!.id))?.hasLeft === true,
      5000,
      'the leave',
    );
    const { id } = await buyPack(member, 'small');
    await stripe.deliver(stripe.event('payment_intent.succeeded', stripe.succeed(id)));

    const again = await open(member, seen.id);
    await again.until((s) => s.messages.length >= 2, 5000, 'two replayed events');
    expect(again.messages.map((m) => (m.data as { type: string }).type)).toEqual([
      'penalty_charged',
      'payment_credited',
    ]);
    expect(again.messages.at(-1)?.data).toMatchObject({ balance: '253.50' });
    const ids = again.messages.map((m) => Number(m.id));
    expect(ids[0]).toBeGreaterThan(Number(seen.id));
    expect(ids[1]).toBeGreaterThan(ids[0]!);
    // A fresh tab (no Last-Event-ID) gets only what happens from now on.
    const fresh = await open(member);
    await fresh.until((s) => s.comments.includes('ping'), 5000, 'a heartbeat');
    expect(fresh.messages).toHaveLength(0);
  });

  it(`uses the ${process.env.REDIS_URL ? 'Redis' : 'in-process'} bus in this run`, () => {
    expect(app.server.ctx.events.kind).toBe(process.env.REDIS_URL ? 'redis' : 'memory');
  });
});

describe('event bus', () => {
  it('keeps a bounded replay buffer per user (memory)', async () => {
    const bus = createMemoryEventBus(createLogger('silent'));
    for (let i = 0; i < 60; i++)
      await bus.publish('u1', { type: 'campaign_completed', serverName: `S${i}`, members: i });
    const all = await bus.since('u1', 0);
    expect(all).toHaveLength(50);
    expect(all[0]?.event).toMatchObject({ serverName: 'S10' });
    expect(await bus.since('u2', 0)).toEqual([]);
  });

  it.runIf(process.env.REDIS_URL)(
    'delivers across processes through Redis pub/sub and replays from Redis',
    async () => {
      const url = process.env.REDIS_URL!;
      const prefix = `coinsync-test:live-${process.pid}-${Date.now()}:`;
      const logger = createLogger('silent');
      const clients = [createRedisClient(url, 1500), createRedisClient(url, 1500)];
      for (const c of clients) await c.connect();
      const [a, b] = await Promise.all(
        clients.map((redis) => createRedisEventBus({ redis, prefix, timeoutMs: 1500, logger })),
      );
      try {
        const got: StoredEvent[] = [];
        b!.subscribe('u1', (e) => got.push(e));
        await a!.publish('u1', { type: 'payment_credited', coins: '250.00', balance: '255.00' });
        await a!.publish('u2', { type: 'payment_credited', coins: '1.00', balance: '1.00' });
        await waitFor(() => got.length >= 1, 5000, 'the event on the other bus');
        expect(got.map((e) => e.event)).toEqual([
          { type: 'payment_credited', coins: '250.00', balance: '255.00' },
        ]);
        const replay = await b!.since('u1', 0);
        expect(replay.map((e) => e.id)).toEqual([got[0]!.id]);
        expect(await b!.since('u1', got[0]!.id)).toEqual([]);
      } finally {
        await a!.close();
        await b!.close();
        await clients[0]!.del([`${prefix}events:seq`, `${prefix}events:user:u1`, `${prefix}events:user:u2`]);
        for (const c of clients) await c.close();
      }
    },
  );
});
