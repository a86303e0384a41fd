// JSON control API for scripts and tests (not part of Discord's API).
import express, { type Router } from 'express';
import { z } from 'zod';
import { handle, param, queryString } from './http-util.ts';
import { SimError, type SimState } from './state.ts';
import type { SimChannelWebhook } from './channel-webhooks.ts';
import { ALL_FAULTS, REST_FAULT_KINDS, type Fault, type RestFaultKind } from './unreliable.ts';

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    throw new SimError(
      400,
      50035,
      `Invalid Form Body: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  }
  return result.data;
}

const userBody = z.object({
  username: z.string(),
  globalName: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
  email: z.string().optional(),
  /** Account age in days (the id encodes the creation time, read from the simulator's clock); default 30. */
  accountAgeDays: z.number().min(0).max(5000).optional(),
  /** Discord's premium_type (2 = Nitro: a 200-server cap instead of 100). */
  premiumType: z.number().int().min(0).max(3).optional(),
});
const guildBody = z.object({
  name: z.string(),
  ownerId: z.string(),
  icon: z.string().nullable().optional(),
  botMember: z.boolean().optional(),
  description: z.string().max(120).nullable().optional(),
  banner: z.string().nullable().optional(),
});
const inviteBody = z.object({ code: z.string().optional(), maxAge: z.number().int().min(0).optional() });
const memberBody = z.object({ userId: z.string(), redispatch: z.boolean().optional() });
const presentBody = z.object({ present: z.boolean() });
const acceptsBody = z.object({ accepts: z.boolean() });
const onlineBody = z.object({ online: z.boolean() });
const reasonSchema = z.enum(['leave', 'kick', 'ban']);
const bulkGuildsBody = z.object({
  count: z.number().int().min(1).max(10_000),
  ownerId: z.string(),
  namePrefix: z.string().optional(),
  botMember: z.boolean().optional(),
  memberIds: z.array(z.string()).max(100).optional(),
});
const auditAccessBody = z.object({ allowed: z.boolean() });
const bucketSchema = z.object({ limit: z.number().int().min(1), windowMs: z.number().int().min(1) });
const rateLimitsBody = z.object({
  enabled: z.boolean().optional(),
  globalPerSecond: z.number().int().min(1).optional(),
  globalWindowMs: z.number().int().min(1).optional(),
  buckets: z.record(z.string(), bucketSchema).optional(),
});
const unreliableBody = z.object({
  rate: z.number().min(0).max(1).optional(),
  seed: z.number().int().optional(),
  faults: z.array(z.enum(ALL_FAULTS as [Fault, ...Fault[]])).optional(),
  auditDelayMs: z.number().int().min(0).optional(),
  lateAuditMs: z.number().int().min(0).optional(),
  retryAfterSeconds: z.number().min(0).optional(),
});
const scriptedFaultBody = z.object({
  fault: z.enum(REST_FAULT_KINDS as [RestFaultKind, ...RestFaultKind[]]),
  retryAfterSeconds: z.number().min(0).max(86_400).optional(),
  method: z.string().max(10).optional(),
  path: z.string().max(200).optional(),
  times: z.number().int().min(1).max(10_000).optional(),
});
const dmOpenLimitBody = z
  .object({ limit: z.number().int().min(0), windowMs: z.number().int().positive() })
  .nullable();
const banBody = z.object({ seconds: z.number().min(0).max(86_400) });
const botTokenBody = z.object({ valid: z.boolean() });
const webhookBody = z.object({ guildId: z.string().optional(), name: z.string().max(80).optional() });
const webhookFailBody = z.object({
  status: z.number().int().min(400).max(599),
  count: z.number().int().min(0).max(100),
});
const gatewaySettingsBody = z.object({
  maxGuildsPerShard: z.number().int().min(1).optional(),
  allowedPrivilegedIntents: z.number().int().min(0).optional(),
  maxConcurrency: z.number().int().min(1).optional(),
  guildsPerRecommendedShard: z.number().int().min(1).optional(),
});

export function snapshot(state: SimState) {
  return {
    bot: { id: state.botId, username: state.botUser.username },
    gatewayOnline: state.gatewayOnline,
    users: [...state.users.values()],
    guilds: [...state.guilds.values()].map((g) => ({
      id: g.id,
      name: g.name,
      icon: g.icon,
      ownerId: g.ownerId,
      channelId: g.channelId,
      botMember: Boolean(g.botJoinedAt),
      memberCount: state.memberCount(g),
      members: Object.entries(g.members).map(([userId, m]) => ({ userId, joinedAt: m.joinedAt })),
      bans: Object.keys(g.bans),
    })),
    invites: [...state.invites.values()],
    auditLog: state.audit,
    dms: state.listDms(),
  };
}

export function createControlRouter(state: SimState): Router {
  const router = express.Router();
  const body = (req: express.Request) => req.body as unknown;

  router.get('/state', (_req, res) => void res.json(snapshot(state)));
  router.post(
    '/users',
    handle((req, res) => {
      const { accountAgeDays, ...input } = parse(userBody, body(req));
      res.status(201).json(
        state.createUser({
          ...input,
          ...(accountAgeDays === undefined ? {} : { accountAgeMs: accountAgeDays * 86_400_000 }),
        }),
      );
    }),
  );
  router.post(
    '/guilds',
    handle((req, res) => {
      const guild = state.createGuild(parse(guildBody, body(req)));
      res.status(201).json(snapshot(state).guilds.find((g) => g.id === guild.id));
    }),
  );
  router.post(
    '/guilds/:guildId/invites',
    handle((req, res) => {
      res.status(201).json(state.createInvite(param(req, 'guildId'), parse(inviteBody, body(req))));
    }),
  );
  router.post(
    '/guilds/:guildId/members',
    handle((req, res) => {
      const input = parse(memberBody, body(req));
      const added = state.addMember(param(req, 'guildId'), input.userId, { redispatch: input.redispatch });
      res.status(added ? 201 : 200).json({ added });
    }),
  );
  router.delete(
    '/guilds/:guildId/members/:userId',
    handle((req, res) => {
      const reason = parse(reasonSchema, queryString(req, 'reason') ?? 'leave');
      const actorId = queryString(req, 'actorId');
      state.removeMember(param(req, 'guildId'), param(req, 'userId'), { reason, actorId });
      res.status(204).end();
    }),
  );
  router.delete(
    '/guilds/:guildId',
    handle((req, res) => {
      state.deleteGuild(param(req, 'guildId'));
      res.status(204).end();
    }),
  );
  router.put(
    '/guilds/:guildId/bot',
    handle((req, res) => {
      state.setBotInGuild(param(req, 'guildId'), parse(presentBody, body(req)).present);
      res.status(204).end();
    }),
  );
  router.put(
    '/users/:userId/dms',
    handle((req, res) => {
      state.setAcceptsDms(param(req, 'userId'), parse(acceptsBody, body(req)).accepts);
      res.status(204).end();
    }),
  );
  router.get('/dms', (req, res) => void res.json(state.listDms({ userId: queryString(req, 'userId') })));
  router.put(
    '/gateway',
    handle((req, res) => {
      state.setGatewayOnline(parse(onlineBody, body(req)).online);
      res.status(204).end();
    }),
  );
  router.post(
    '/guilds-bulk',
    handle((req, res) => {
      const guilds = state.createGuilds(parse(bulkGuildsBody, body(req)));
      res.status(201).json({ ids: guilds.map((g) => g.id) });
    }),
  );
  router.put(
    '/guilds/:guildId/audit-access',
    handle((req, res) => {
      state.setBotCanViewAuditLog(param(req, 'guildId'), parse(auditAccessBody, body(req)).allowed);
      res.status(204).end();
    }),
  );
  // Rate limits: settings and what they did (requests, 429s, the invalid-request count Discord bans on).
  router.get('/rate-limits', (_req, res) => {
    res.json({ config: state.rateLimits.config, stats: state.rateLimits.stats() });
  });
  router.put(
    '/rate-limits',
    handle((req, res) => {
      state.rateLimits.configure(parse(rateLimitsBody, body(req)));
      res.status(204).end();
    }),
  );
  router.post('/rate-limits/reset', (_req, res) => {
    state.rateLimits.reset();
    res.status(204).end();
  });
  // Discord's anti-spam on new DM channels (Create DM's 40003): `{ limit, windowMs }`, or null for off.
  router.put(
    '/dm-open-limit',
    handle((req, res) => {
      state.dmOpenLimit = parse(dmOpenLimitBody, body(req));
      res.status(204).end();
    }),
  );
  // Cloudflare's ban of this address: every REST call answers its HTML 429 page (seconds 0 lifts it).
  router.put(
    '/rate-limits/ban',
    handle((req, res) => {
      state.rateLimits.ban(parse(banBody, body(req)).seconds * 1000);
      res.status(204).end();
    }),
  );
  // The bot token rejected (401 on every bot REST call) or accepted again.
  router.put(
    '/bot-token',
    handle((req, res) => {
      state.botTokenValid = parse(botTokenBody, body(req)).valid;
      res.status(204).end();
    }),
  );
  // A fault for the next matching REST call(s), e.g. one 429 with Retry-After: 120.
  router.post(
    '/unreliable/next',
    handle((req, res) => {
      state.unreliable.inject(parse(scriptedFaultBody, body(req)));
      res.status(204).end();
    }),
  );
  // Unreliable Discord: settings and counts of what was injected.
  router.get('/unreliable', (_req, res) => {
    res.json({ config: state.unreliable.config, injected: state.unreliable.injected });
  });
  router.put(
    '/unreliable',
    handle((req, res) => {
      state.unreliable.configure(parse(unreliableBody, body(req)));
      res.status(204).end();
    }),
  );
  router.delete('/unreliable', (_req, res) => {
    state.unreliable.reset();
    res.status(204).end();
  });
  router.get('/gateway/settings', (_req, res) => void res.json(state.gateway));
  router.put(
    '/gateway/settings',
    handle((req, res) => {
      state.gateway = { ...state.gateway, ...parse(gatewaySettingsBody, body(req)) };
      res.status(204).end();
    }),
  );
  router.post('/gateway/reconnect', (_req, res) => {
    state.requestReconnect();
    res.status(204).end();
  });
  // Channel webhooks (channel-webhooks.ts): the URL an owner would copy from Discord, what it posted,
  // and failures on demand.
  const webhookView = (w: SimChannelWebhook) => ({
    ...w,
    url: `https://discord.com/api/webhooks/${w.id}/${w.token}`,
  });
  router.post(
    '/webhooks',
    handle((req, res) => {
      const input = parse(webhookBody, body(req));
      res.status(201).json(webhookView(state.channelWebhooks.create(input)));
    }),
  );
  router.get(
    '/webhooks/:webhookId',
    handle((req, res) => {
      const webhook = state.channelWebhooks.byId.get(param(req, 'webhookId'));
      if (!webhook) throw new SimError(404, 10015, 'Unknown Webhook');
      res.json(webhookView(webhook));
    }),
  );
  router.put(
    '/webhooks/:webhookId/fail',
    handle((req, res) => {
      const { status, count } = parse(webhookFailBody, body(req));
      state.channelWebhooks.failNext(param(req, 'webhookId'), status, count);
      res.status(204).end();
    }),
  );
  router.delete(
    '/webhooks/:webhookId',
    handle((req, res) => {
      state.channelWebhooks.delete(param(req, 'webhookId'));
      res.status(204).end();
    }),
  );
  router.post('/seed-demo', (_req, res) => {
    state.seedDemo();
    res.json(snapshot(state));
  });
  router.use((_req, res) => void res.status(404).json({ message: '404: Not Found', code: 0 }));
  return router;
}
