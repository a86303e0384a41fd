// JSON control API for scripts and tests (not part of Discord's API).
import express, { type Router } from 'express';
import { z } from 'zod';
import { handle, param, queryString } from './http-util.ts';
import { SimError, type SimState } from './state.ts';

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
        state.createUser({ ...input, ...(accountAgeDays === undefined ? {} : { accountAgeMs: accountAgeDays * 86_400_000 }) }),
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
  router.post('/seed-demo', (_req, res) => {
    state.seedDemo();
    res.json(snapshot(state));
  });
  router.use((_req, res) => void res.status(404).json({ message: '404: Not Found', code: 0 }));
  return router;
}
