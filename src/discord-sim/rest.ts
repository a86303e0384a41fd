// Discord REST API v10 (bot and OAuth2 bearer routes), served under /api/v10 and /api.
import express, { type Request, type Router } from 'express';
import { mountAuthorize, mountToken } from './oauth.ts';
import {
  applicationObject,
  auditEntryObject,
  currentUserObject,
  dmChannelObject,
  guildObject,
  inviteObject,
  memberObject,
  messageObject,
  partialGuildForUser,
  userObject,
} from './payloads.ts';
import {
  bodyField,
  bodyString,
  handle,
  param,
  parseAuth,
  queryString,
  requireBot,
  unauthorized,
  type Auth,
} from './http-util.ts';
import { SimError, type SimGuild, type SimState, type SimToken } from './state.ts';

export interface RestConfig {
  state: SimState;
  clientId: string;
  clientSecret: string;
  basePath: string;
  botToken: string;
  gatewayUrl: string;
  log: (msg: string) => void;
}

function intQuery(req: Request, name: string, def: number, min: number, max: number): number {
  const raw = queryString(req, name);
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new SimError(400, 50035, `Invalid Form Body: ${name} must be an integer between ${min} and ${max}`);
  }
  return n;
}

export function createApiRouter(cfg: RestConfig): Router {
  const { state, botToken } = cfg;
  const router = express.Router();

  const bot = (req: Request): void => requireBot(req, state, botToken);
  const bearer = (req: Request, scope: string): SimToken => {
    const auth = parseAuth(req, state, botToken);
    if (auth?.kind !== 'bearer') throw unauthorized();
    if (!auth.token.scope.split(' ').includes(scope)) throw unauthorized();
    return auth.token;
  };
  const anyAuth = (req: Request): Auth => {
    const auth = parseAuth(req, state, botToken);
    if (!auth) throw unauthorized();
    return auth;
  };
  /** A guild the bot can see: 404 10004 if unknown, 403 50001 if the bot is not in it. */
  const botGuild = (req: Request): SimGuild => {
    bot(req);
    const guild = state.requireGuild(param(req, 'guildId'));
    if (!guild.botJoinedAt) throw new SimError(403, 50001, 'Missing Access');
    return guild;
  };
  const auditReason = (req: Request): string | null => {
    const header = req.get('x-audit-log-reason');
    return header ? decodeURIComponent(header) : null;
  };

  mountToken(router, cfg);
  // Discord also serves the authorize page under /api (passport-discord's default URL uses it).
  mountAuthorize(router, cfg);

  const gatewayInfo = handle((req, res) => {
    if (req.path.endsWith('/bot')) {
      bot(req);
      res.json({
        url: cfg.gatewayUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 86400000, max_concurrency: 1 },
      });
    } else {
      res.json({ url: cfg.gatewayUrl });
    }
  });
  router.get('/gateway', gatewayInfo);
  router.get('/gateway/bot', gatewayInfo);

  // ---- current user / application ----
  router.get(
    '/users/@me',
    handle((req, res) => {
      const auth = anyAuth(req);
      if (auth.kind === 'bot') return void res.json(currentUserObject(state.botUser, []));
      if (!auth.token.scope.split(' ').includes('identify')) throw unauthorized();
      res.json(currentUserObject(state.requireUser(auth.token.userId), auth.token.scope.split(' ')));
    }),
  );
  router.get(
    '/users/@me/guilds',
    handle((req, res) => {
      const auth = anyAuth(req);
      const userId = auth.kind === 'bot' ? state.botId : bearer(req, 'guilds').userId;
      const guilds = [...state.guilds.values()].filter((g) => state.getMembership(g, userId));
      res.json(guilds.map((g) => partialGuildForUser(state, g, userId)));
    }),
  );
  router.get(
    '/users/@me/guilds/:guildId/member',
    handle((req, res) => {
      const token = bearer(req, 'guilds.members.read');
      const guild = state.guilds.get(param(req, 'guildId'));
      const member = guild && memberObject(state, guild, token.userId);
      if (!member) throw new SimError(404, 10004, 'Unknown Guild');
      res.json(member);
    }),
  );
  const application = handle((req, res) => {
    bot(req);
    res.json(applicationObject(state));
  });
  router.get('/applications/@me', application);
  router.get('/oauth2/applications/@me', application);
  router.get(
    '/oauth2/@me',
    handle((req, res) => {
      const auth = anyAuth(req);
      if (auth.kind !== 'bearer') throw unauthorized();
      res.json({
        application: applicationObject(state),
        scopes: auth.token.scope.split(' '),
        expires: new Date(auth.token.expiresAt).toISOString(),
        user: userObject(state.requireUser(auth.token.userId)),
      });
    }),
  );
  router.get(
    '/users/:userId',
    handle((req, res) => {
      bot(req);
      res.json(userObject(state.requireUser(param(req, 'userId'))));
    }),
  );

  // ---- invites (public in Discord: no auth needed) ----
  router.get(
    '/invites/:code',
    handle((req, res) => {
      const invite = state.findInvite(param(req, 'code'));
      if (!invite) throw new SimError(404, 10006, 'Unknown Invite');
      res.json(inviteObject(state, invite, queryString(req, 'with_counts') === 'true'));
    }),
  );

  // ---- guilds ----
  router.get(
    '/guilds/:guildId',
    handle((req, res) => {
      res.json(guildObject(state, botGuild(req), queryString(req, 'with_counts') === 'true'));
    }),
  );
  router.get(
    '/guilds/:guildId/members',
    handle((req, res) => {
      const guild = botGuild(req);
      const limit = intQuery(req, 'limit', 1, 1, 1000);
      const afterRaw = queryString(req, 'after') ?? '0';
      if (!/^\d{1,20}$/.test(afterRaw)) throw new SimError(400, 50035, 'Invalid Form Body: after');
      const after = BigInt(afterRaw);
      const ids = [...Object.keys(guild.members), ...(guild.botJoinedAt ? [state.botId] : [])]
        .filter((id) => BigInt(id) > after)
        .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
        .slice(0, limit);
      res.json(ids.map((id) => memberObject(state, guild, id)));
    }),
  );
  router.get(
    '/guilds/:guildId/members/:userId',
    handle((req, res) => {
      const guild = botGuild(req);
      const member = memberObject(state, guild, param(req, 'userId'));
      if (!member) throw new SimError(404, 10007, 'Unknown Member');
      res.json(member);
    }),
  );
  router.put(
    '/guilds/:guildId/members/:userId',
    handle((req, res) => {
      const guild = botGuild(req);
      const userId = param(req, 'userId');
      const accessToken = bodyString(req, 'access_token');
      if (accessToken !== undefined) {
        const token = state.tokens.get(accessToken);
        if (!token || token.userId !== userId || !token.scope.split(' ').includes('guilds.join')) {
          throw new SimError(403, 50025, 'Invalid OAuth2 access token');
        }
      }
      state.requireUser(userId);
      const added = state.addMember(guild.id, userId);
      if (added) res.status(201).json(memberObject(state, guild, userId));
      else res.status(204).end();
    }),
  );
  router.delete(
    '/guilds/:guildId/members/:userId',
    handle((req, res) => {
      const guild = botGuild(req);
      state.removeMember(guild.id, param(req, 'userId'), {
        reason: 'kick',
        actorId: state.botId,
        auditReason: auditReason(req),
      });
      res.status(204).end();
    }),
  );
  router.put(
    '/guilds/:guildId/bans/:userId',
    handle((req, res) => {
      const guild = botGuild(req);
      state.removeMember(guild.id, param(req, 'userId'), {
        reason: 'ban',
        actorId: state.botId,
        auditReason: auditReason(req) ?? bodyString(req, 'reason') ?? null,
      });
      res.status(204).end();
    }),
  );
  router.get(
    '/guilds/:guildId/bans/:userId',
    handle((req, res) => {
      const guild = botGuild(req);
      const userId = param(req, 'userId');
      const ban = guild.bans[userId];
      if (!ban) throw new SimError(404, 10026, 'Unknown Ban');
      res.json({ reason: ban.reason, user: userObject(state.requireUser(userId)) });
    }),
  );
  router.delete(
    '/guilds/:guildId/bans/:userId',
    handle((req, res) => {
      const guild = botGuild(req);
      state.unban(guild.id, param(req, 'userId'));
      res.status(204).end();
    }),
  );
  router.get(
    '/guilds/:guildId/audit-logs',
    handle((req, res) => {
      const guild = botGuild(req);
      const actionRaw = queryString(req, 'action_type');
      const entries = state.listAudit(guild.id, {
        actionType: actionRaw === undefined ? undefined : Number(actionRaw),
        userId: queryString(req, 'user_id'),
        limit: intQuery(req, 'limit', 50, 1, 100),
      });
      const userIds = new Set(entries.flatMap((e) => [e.userId, e.targetId]));
      res.json({
        audit_log_entries: entries.map(auditEntryObject),
        users: [...userIds]
          .map((id) => state.getUser(id))
          .filter((u) => u !== undefined)
          .map(userObject),
        integrations: [],
        webhooks: [],
        guild_scheduled_events: [],
        threads: [],
        application_commands: [],
        auto_moderation_rules: [],
      });
    }),
  );
  router.delete(
    '/users/@me/guilds/:guildId',
    handle((req, res) => {
      bot(req);
      state.requireGuild(param(req, 'guildId'));
      state.setBotInGuild(param(req, 'guildId'), false);
      res.status(204).end();
    }),
  );

  // ---- DMs ----
  router.post(
    '/users/@me/channels',
    handle((req, res) => {
      bot(req);
      const recipientId = bodyField(req, 'recipient_id');
      if (typeof recipientId !== 'string') throw new SimError(400, 50035, 'Invalid Form Body: recipient_id');
      res.json(dmChannelObject(state, state.openDmChannel(recipientId)));
    }),
  );
  router.get(
    '/channels/:channelId',
    handle((req, res) => {
      bot(req);
      const channel = state.dmChannels.get(param(req, 'channelId'));
      if (!channel) throw new SimError(404, 10003, 'Unknown Channel');
      res.json(dmChannelObject(state, channel));
    }),
  );
  router.post(
    '/channels/:channelId/messages',
    handle((req, res) => {
      bot(req);
      const channelId = param(req, 'channelId');
      if ([...state.guilds.values()].some((g) => g.channelId === channelId)) {
        throw new SimError(403, 50013, 'Missing Permissions');
      }
      const content = bodyField(req, 'content');
      const embeds = bodyField(req, 'embeds');
      const message = state.sendDm(channelId, {
        content: typeof content === 'string' ? content : undefined,
        embeds: Array.isArray(embeds) ? (embeds as unknown[]) : undefined,
      });
      cfg.log(`dm to ${message.recipientId}: ${message.content.slice(0, 80)}`);
      res.json(messageObject(state, message));
    }),
  );

  router.use((_req, res) => {
    res.status(404).json({ message: '404: Not Found', code: 0 });
  });
  return router;
}
