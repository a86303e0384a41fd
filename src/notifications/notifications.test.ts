import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, insertJoin } from '../test/factories.ts';
import type { Campaign as Campaign } from '../db/schema.ts';
import { recordVerifiedJoin } from '../bot/verify-join.ts';
import { recordLeave } from '../bot/record-leave.ts';
import { pauseGuildCampaigns, resumeGuildCampaigns } from '../bot/bot-presence.ts';
import {
  MAX_DELIVERY_ATTEMPTS,
  NOTIFICATION_MESSAGES,
  RETRY_DELAYS_MS,
  type ApiNotificationDelivery,
  type ApiNotificationSettings,
} from '../shared/notification-schemas.ts';
import { DELIVERY_RETENTION_MS, deliverDueNotifications, pruneDeliveries } from './deliver.ts';
import { enqueueCampaignEvent, type NotificationPayload } from './outbox.ts';
import { verifySignature } from './signature.ts';
import { registry } from '../metrics.ts';

// Owner notifications end to end (decision 052) on the engine the suite runs on (TEST_DB=pg too): the
// settings API and its refusals, the outbox written in the event's own transaction, the delivery job
// (signature, Discord's Execute Webhook on the simulator, retries with backoff, giving up, leases).

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let app: TestApp;
let receiver: Server;
let receiverUrl = '';
const received: Received[] = [];
/** Statuses the receiver answers next, in order (then 200). */
const script: number[] = [];
let owner: TestClient;
let stranger: TestClient;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(script.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/coinsync`;
  app = await startTestApp({ env: { NOTIFY_ALLOW_PRIVATE_TARGETS: 'on' } });
  owner = await app.signIn('notify_owner');
  stranger = await app.signIn('notify_stranger');
});
afterAll(async () => {
  await app.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
beforeEach(async () => {
  // What an earlier test left pending goes out first, so each test sees only its own deliveries.
  script.length = 0;
  await deliverDueNotifications(app.server.ctx);
  received.length = 0;
});

const ctx = () => app.server.ctx;
const deliver = () => deliverDueNotifications(ctx());

let guildCounter = 0;
async function campaign(slots = 5): Promise<Campaign> {
  guildCounter += 1;
  const guild = app.sim.state.createGuild({ name: `Notify ${guildCounter}`, ownerId: owner.user!.discordId });
  return insertCampaign(ctx().store, {
    ownerId: owner.user!.id,
    guildId: guild.id,
    name: `Notify Guild ${guildCounter}`,
    membersRemaining: slots,
  });
}

function settingsUrl(c: Campaign): string {
  return `/api/campaigns/${c.id}/notifications`;
}

async function configure(c: Campaign, body: Record<string, unknown>): Promise<ApiNotificationSettings> {
  const res = await owner.request<ApiNotificationSettings>('PUT', settingsUrl(c), body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

function log(c: Campaign) {
  return owner.get<ApiNotificationDelivery[]>(`${settingsUrl(c)}/deliveries`);
}

function outbox(c: Campaign) {
  return app.query<{ eventType: string; target: string; status: string; attempts: number }>(
    sql`SELECT event_type AS "eventType", target AS "target", status AS "status", attempts AS "attempts"
      FROM notification_outbox WHERE campaign_id = ${c.id} ORDER BY created_at, event_type, target`,
  );
}

describe('settings', () => {
  it('shows the signing secret once, then only its last characters', async () => {
    const c = await campaign();
    const saved = await configure(c, { endpointUrl: receiverUrl, events: ['join.verified'] });
    expect(saved.endpointSecret).toMatch(/^whsec_/);
    expect(saved).toMatchObject({
      endpointUrl: receiverUrl,
      events: ['join.verified'],
      discordWebhook: null,
    });
    const again = await owner.get<ApiNotificationSettings>(settingsUrl(c));
    expect(again.body.endpointSecret).toBeUndefined();
    expect(again.body.endpointSecretHint).toBe(`…${saved.endpointSecret!.slice(-4)}`);
    // Saving the same URL keeps the secret; rotating makes a new one.
    expect((await configure(c, { endpointUrl: receiverUrl, events: [] })).endpointSecret).toBeUndefined();
    const rotated = await configure(c, { rotateSecret: true, events: [] });
    expect(rotated.endpointSecret).toMatch(/^whsec_/);
    expect(rotated.endpointSecret).not.toBe(saved.endpointSecret);
  });

  it('keeps a Discord webhook URL masked (it carries the webhook token)', async () => {
    const c = await campaign();
    const hook = app.sim.state.channelWebhooks.create({ name: 'owner-alerts' });
    const saved = await configure(c, {
      discordWebhookUrl: `https://discord.com/api/webhooks/${hook.id}/${hook.token}`,
      events: ['campaign.completed'],
    });
    expect(saved.discordWebhook).toBe(
      `discord.com/api/webhooks/${hook.id.slice(0, 6)}…/…${hook.token.slice(-4)}`,
    );
    expect(JSON.stringify(await owner.get(settingsUrl(c)))).not.toContain(hook.token);
    const [row] = await app.query<{ stored: string }>(
      sql`SELECT discord_webhook AS "stored" FROM campaign_notifications WHERE campaign_id = ${c.id}`,
    );
    expect(row!.stored).not.toContain(hook.token);
  });

  it.each([
    [
      { discordWebhookUrl: 'https://evil.example/api/webhooks/123456789012345678/abc', events: [] },
      'discordWebhookInvalid',
    ],
    [
      {
        discordWebhookUrl: 'http://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz',
        events: [],
      },
      'discordWebhookInvalid',
    ],
    [{ endpointUrl: 'ftp://example.com/x', events: [] }, 'endpointInvalid'],
    [{ endpointUrl: 'https://user:pw@example.com/x', events: [] }, 'endpointCredentials'],
    [{ events: ['join.exploded'] }, null],
    [{ events: 'join.verified' }, null],
  ] as const)('refuses %j with a 400 and changes nothing', async (body, message) => {
    const c = await campaign();
    const res = await owner.request<{ message: string }>('PUT', settingsUrl(c), body);
    expect(res.status).toBe(400);
    if (message) expect(res.body.message).toBe(NOTIFICATION_MESSAGES[message]);
    else expect(typeof res.body.message).toBe('string');
    expect((await owner.get<ApiNotificationSettings>(settingsUrl(c))).body).toMatchObject({
      discordWebhook: null,
      endpointUrl: null,
      events: [],
    });
  });

  it("answers 404 for another owner's campaign, and 401 signed out", async () => {
    const c = await campaign();
    expect((await stranger.get(settingsUrl(c))).status).toBe(404);
    expect(
      (await stranger.request('PUT', settingsUrl(c), { endpointUrl: receiverUrl, events: [] })).status,
    ).toBe(404);
    expect((await stranger.post(`${settingsUrl(c)}/test`)).status).toBe(404);
    expect((await stranger.get(`${settingsUrl(c)}/deliveries`)).status).toBe(404);
    expect((await app.anonymous().get(settingsUrl(c))).status).toBe(401);
  });

  it('"Send test" needs a target, and sends one test at a time', async () => {
    const c = await campaign();
    const none = await owner.post<{ message: string }>(`${settingsUrl(c)}/test`);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(NOTIFICATION_MESSAGES.noTarget);
    await configure(c, { endpointUrl: receiverUrl, events: [] });
    expect((await owner.post(`${settingsUrl(c)}/test`)).status).toBe(202);
    const twice = await owner.post<{ message: string }>(`${settingsUrl(c)}/test`);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(NOTIFICATION_MESSAGES.testPending);
    await deliver();
    expect((await owner.post(`${settingsUrl(c)}/test`)).status).toBe(202);
  });
});

describe('delivery', () => {
  it('signs the endpoint body (t=…,v1=…) and sends the event id to dedupe on', async () => {
    const c = await campaign();
    const { endpointSecret } = await configure(c, { endpointUrl: receiverUrl, events: [] });
    await owner.post(`${settingsUrl(c)}/test`);
    expect((await deliver()).delivered).toBe(1);
    const [hit] = received;
    const payload = JSON.parse(hit!.body) as NotificationPayload;
    expect(payload).toMatchObject({ type: 'test', campaign: { id: c.id, name: c.name, slots: 5 } });
    expect(hit!.headers['x-coinsync-event']).toBe('test');
    expect(hit!.headers['x-coinsync-event-id']).toBe(payload.id);
    const signature = hit!.headers['x-coinsync-signature'] as string;
    expect(verifySignature(endpointSecret!, signature, hit!.body, app.clock.now())).toBe(true);
    expect(
      verifySignature(endpointSecret!, signature, hit!.body.replace('test', 'tost'), app.clock.now()),
    ).toBe(false);
    const [entry] = (await log(c)).body;
    expect(entry).toMatchObject({
      eventType: 'test',
      target: 'endpoint',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
    });
  });

  it("posts to the owner's Discord channel webhook (Execute Webhook on the simulator), mentioning nobody", async () => {
    const c = await campaign(1);
    const hook = app.sim.state.channelWebhooks.create({});
    await configure(c, {
      discordWebhookUrl: `https://discord.com/api/webhooks/${hook.id}/${hook.token}`,
      events: ['join.verified', 'campaign.completed'],
    });
    const member = await app.signIn('notify_member_discord');
    await insertJoin(ctx().store, { userId: member.user!.id, campaignId: c.id, joinedAt: app.clock.now() });
    await recordVerifiedJoin(ctx(), {
      guildId: c.guildId!,
      discordUserId: member.user!.discordId,
      at: app.clock.now(),
    });
    expect(await deliver()).toMatchObject({ delivered: 2 });
    expect(hook.messages.map((m) => m.content).sort()).toEqual(
      [
        `✅ <@${member.user!.discordId}> joined **${c.name}** through CoinSync — 1/1 slots filled.`,
        `🎉 **${c.name}** is complete: all 1 member slots are filled.`,
      ].sort(),
    );
    expect(hook.messages.every((m) => m.username === 'CoinSync')).toBe(true);
  });

  it('gives up at once on a Discord webhook that was deleted', async () => {
    const c = await campaign();
    const hook = app.sim.state.channelWebhooks.create({});
    await configure(c, {
      discordWebhookUrl: `https://discord.com/api/webhooks/${hook.id}/${hook.token}`,
      events: [],
    });
    app.sim.state.channelWebhooks.delete(hook.id);
    await owner.post(`${settingsUrl(c)}/test`);
    expect(await deliver()).toMatchObject({ failed: 1 });
    expect((await log(c)).body[0]).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 404 });
  });

  it('retries after the receiver fails, with growing waits, and records every attempt', async () => {
    const c = await campaign();
    await configure(c, { endpointUrl: receiverUrl, events: [] });
    script.push(500, 503);
    await owner.post(`${settingsUrl(c)}/test`);
    expect(await deliver()).toMatchObject({ retrying: 1 });
    const first = (await log(c)).body[0]!;
    expect(first).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'the endpoint answered 500',
    });
    expect(Date.parse(first.nextAttemptAt!) - app.clock.now()).toBe(RETRY_DELAYS_MS[0]);
    // Not before its time.
    app.clock.advance(RETRY_DELAYS_MS[0] - 1);
    expect(await deliver()).toMatchObject({ claimed: 0 });
    app.clock.advance(1);
    expect(await deliver()).toMatchObject({ retrying: 1 });
    expect((await log(c)).body[0]).toMatchObject({ attempts: 2, lastStatusCode: 503 });
    app.clock.advance(RETRY_DELAYS_MS[1]);
    expect(await deliver()).toMatchObject({ delivered: 1 });
    expect((await log(c)).body[0]).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 });
    // The same event every time: one id for the receiver to dedupe on.
    expect(new Set(received.map((r) => r.headers['x-coinsync-event-id'])).size).toBe(1);
    expect(received).toHaveLength(3);
    const attempts = await app.query<{ attempt: number; outcome: string }>(
      sql`SELECT attempt AS "attempt", outcome AS "outcome" FROM notification_attempts WHERE campaign_id = ${c.id} ORDER BY attempt`,
    );
    expect(attempts.map((a) => [Number(a.attempt), a.outcome])).toEqual([
      [1, 'retry'],
      [2, 'retry'],
      [3, 'delivered'],
    ]);
  });

  it(`gives up after ${MAX_DELIVERY_ATTEMPTS} attempts (3 retries)`, async () => {
    const c = await campaign();
    await configure(c, { endpointUrl: receiverUrl, events: [] });
    script.push(500, 500, 500, 500, 500);
    await owner.post(`${settingsUrl(c)}/test`);
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i += 1) {
      await deliver();
      app.clock.advance(RETRY_DELAYS_MS[i] ?? 0);
    }
    app.clock.advance(24 * 3600_000);
    expect(await deliver()).toMatchObject({ claimed: 0 });
    expect(received).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect(await registry.metrics()).toMatch(
      /coinsync_notification_deliveries_total\{target="endpoint",outcome="failed"\} [1-9]/,
    );
    expect((await log(c)).body[0]).toMatchObject({
      status: 'failed',
      attempts: MAX_DELIVERY_ATTEMPTS,
      nextAttemptAt: null,
    });
  });

  it('two delivery runs at once send each row once (leases)', async () => {
    const cs = await Promise.all([campaign(), campaign(), campaign()]);
    for (const c of cs) {
      await configure(c, { endpointUrl: receiverUrl, events: [] });
      await owner.post(`${settingsUrl(c)}/test`);
    }
    const runs = await Promise.all([deliver(), deliver(), deliver()]);
    expect(runs.reduce((n, r) => n + r.delivered, 0)).toBe(3);
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers['x-coinsync-event-id'])).size).toBe(3);
  });

  it('drops a pending delivery whose target the owner removed', async () => {
    const c = await campaign();
    await configure(c, { endpointUrl: receiverUrl, events: [] });
    await owner.post(`${settingsUrl(c)}/test`);
    await configure(c, { endpointUrl: null, events: [] });
    expect(await deliver()).toMatchObject({ dropped: 1 });
    expect(received).toHaveLength(0);
    expect((await log(c)).body[0]).toMatchObject({ status: 'dropped', attempts: 0 });
  });
});

describe('the outbox is written in the transaction of the event', () => {
  it('join verified, campaign completed, early leave, pause and resume: for the events chosen', async () => {
    const c = await campaign(1);
    await configure(c, {
      endpointUrl: receiverUrl,
      events: [
        'join.verified',
        'join.left_early',
        'campaign.completed',
        'campaign.paused',
        'campaign.resumed',
      ],
    });
    const member = await app.signIn('notify_member_events');
    await insertJoin(ctx().store, { userId: member.user!.id, campaignId: c.id, joinedAt: app.clock.now() });
    const event = { guildId: c.guildId!, discordUserId: member.user!.discordId, at: app.clock.now() };
    await recordVerifiedJoin(ctx(), event);
    // A replayed Discord event writes nothing new.
    await recordVerifiedJoin(ctx(), event);
    app.clock.advance(60_000);
    await recordLeave(ctx(), { ...event, at: app.clock.now(), reason: 'leave' });
    await pauseGuildCampaigns(ctx(), c.guildId!, app.clock.now());
    await resumeGuildCampaigns(ctx(), c.guildId!);
    expect((await outbox(c)).map((r) => r.eventType).sort()).toEqual(
      [
        'campaign.completed',
        'campaign.paused',
        'campaign.resumed',
        'join.left_early',
        'join.verified',
      ].sort(),
    );
    await deliver();
    const bodies = received.map((r) => JSON.parse(r.body) as NotificationPayload);
    expect(bodies.find((b) => b.type === 'join.verified')).toMatchObject({
      member: { discordId: member.user!.discordId },
      amount: '0.50',
      campaign: { slots: 1, slotsRemaining: 0 },
    });
    expect(bodies.find((b) => b.type === 'join.left_early')).toMatchObject({
      campaign: { slotsRemaining: 1 },
    });
    expect(bodies.find((b) => b.type === 'campaign.paused')).toMatchObject({ reason: 'bot_removed' });
  });

  it('writes nothing for events the owner did not choose, nor without settings', async () => {
    const chosen = await campaign();
    await configure(chosen, { endpointUrl: receiverUrl, events: ['campaign.completed'] });
    const silent = await campaign();
    for (const c of [chosen, silent]) {
      const member = await app.signIn(`notify_quiet_${c.id.slice(0, 6)}`);
      await insertJoin(ctx().store, { userId: member.user!.id, campaignId: c.id, joinedAt: app.clock.now() });
      await recordVerifiedJoin(ctx(), {
        guildId: c.guildId!,
        discordUserId: member.user!.discordId,
        at: app.clock.now(),
      });
    }
    expect(await outbox(chosen)).toEqual([]);
    expect(await outbox(silent)).toEqual([]);
  });

  it('a transaction that rolls back leaves no outbox row', async () => {
    const c = await campaign();
    await configure(c, { endpointUrl: receiverUrl, events: ['campaign.paused'] });
    await expect(
      ctx().store.transaction(async (tx) => {
        await enqueueCampaignEvent(tx, {
          campaignId: c.id,
          type: 'campaign.paused',
          key: 'rollback',
          at: app.clock.now(),
        });
        throw new Error('the event failed');
      }),
    ).rejects.toThrow('the event failed');
    expect(await outbox(c)).toEqual([]);
  });
});

describe('retention', () => {
  it('deleting the account deletes its notification settings and deliveries', async () => {
    const leaver = await app.signIn('notify_leaver');
    const guild = app.sim.state.createGuild({ name: 'Leaver Guild', ownerId: leaver.user!.discordId });
    const c = await insertCampaign(ctx().store, { ownerId: leaver.user!.id, guildId: guild.id });
    expect(
      (await leaver.request('PUT', settingsUrl(c), { endpointUrl: receiverUrl, events: ['join.verified'] }))
        .status,
    ).toBe(200);
    expect((await leaver.post(`${settingsUrl(c)}/test`)).status).toBe(202);
    await deliver();
    const res = await leaver.request('DELETE', '/api/account', { confirmUsername: 'notify_leaver' });
    expect(res.status).toBe(200);
    const left = await app.query<{ n: number }>(sql`
      SELECT (SELECT COUNT(*) FROM campaign_notifications WHERE campaign_id = ${c.id})
        + (SELECT COUNT(*) FROM notification_outbox WHERE campaign_id = ${c.id})
        + (SELECT COUNT(*) FROM notification_attempts WHERE campaign_id = ${c.id}) AS "n"`);
    expect(Number(left[0]!.n)).toBe(0);
  });

  it('the prune job deletes finished deliveries after 30 days, never pending ones', async () => {
    const c = await campaign();
    await configure(c, { endpointUrl: receiverUrl, events: [] });
    await owner.post(`${settingsUrl(c)}/test`);
    await deliver();
    await owner.post(`${settingsUrl(c)}/test`); // left pending
    app.clock.advance(DELIVERY_RETENTION_MS + 1);
    expect(await pruneDeliveries(ctx())).toBeGreaterThanOrEqual(1);
    expect((await outbox(c)).map((r) => r.status)).toEqual(['pending']);
    await deliver();
  });
});

describe('as production runs it', () => {
  it('refuses an endpoint on a loopback address with a 400', async () => {
    const prod = await startTestApp();
    try {
      const o = await prod.signIn('notify_prod_owner');
      const guild = prod.sim.state.createGuild({ name: 'Prod Guild', ownerId: o.user!.discordId });
      const c = await insertCampaign(prod.server.ctx.store, { ownerId: o.user!.id, guildId: guild.id });
      for (const url of [
        receiverUrl.replace('http:', 'https:'),
        'https://localhost/hook',
        'https://[::ffff:127.0.0.1]/x',
      ]) {
        const res = await o.request<{ message: string }>('PUT', `/api/campaigns/${c.id}/notifications`, {
          endpointUrl: url,
          events: [],
        });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(NOTIFICATION_MESSAGES.endpointNotPublic);
      }
      const http = await o.request<{ message: string }>('PUT', `/api/campaigns/${c.id}/notifications`, {
        endpointUrl: 'http://example.com/hook',
        events: [],
      });
      expect(http.status).toBe(400);
      expect(http.body.message).toBe(NOTIFICATION_MESSAGES.endpointInvalid);
    } finally {
      await prod.close();
    }
  });
});
