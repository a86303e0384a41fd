// Discord REST API v10 (bot and OAuth2 bearer routes), served under /api/v10 and /api.
import {
  OAuth2Scopes,
  type APIBan,
  type APIEmbed,
  type RESTError,
  type RESTGetAPIAuditLogResult,
  type RESTGetAPIGatewayBotResult,
  type RESTGetAPIGatewayResult,
  type RESTGetAPIOAuth2CurrentAuthorizationResult,
} from 'discord-api-types/v10';
import express, { type Request, type Router } from 'express';
import { mountAuthorize, mountToken } from './oauth.ts';
import {
  applicationObject,
  auditEntryObject,
  currentUserObject,
  dmChannelObject,
  guildObject,
  createdInviteObject,
  inviteObject,
  memberObject,
  messageObject,
  partialGuildForUser,
  textChannelObject,
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
import { GUILD_MEMBERS_INTENT, SimError, type SimGuild, type SimState, type SimToken } from './state.ts';

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
  // @discordjs/rest percent-encodes path segments ('@me' arrives as '%40me'); Discord decodes them.
  router.use((req, _res, next) => {
    if (req.url.includes('%40')) req.url = req.url.replace(/%40me(?=\/|\?|$)/gi, '@me');
    next();
  });

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
  /**
   * A guild the bot can see. Since 2023 Discord answers 404 10004 Unknown Guild both for a guild that
   * does not exist and for one the bot is not in (discord-api-docs #5840), so the two look the same.
   */
  const botGuild = (req: Request): SimGuild => {
    bot(req);
    const guild = state.requireGuild(param(req, 'guildId'));
    if (!guild.botJoinedAt) throw new SimError(404, 10004, 'Unknown Guild');
    return guild;
  };
  const auditReason = (req: Request): string | null => {
    const header = req.get('x-audit-log-reason');
    return header ? decodeURIComponent(header) : null;
  };

  mountToken(router, cfg);
  // Discord also serves the authorize page under /api (passport-discord's default URL uses it).
  mountAuthorize(router, cfg);

  // Rate limits (every response carries the headers), then injected faults (unreliable mode). After
  // the OAuth2 token and authorize routes: those are limited per user/IP on Discord, not by the bot's
  // buckets, and a burst of sign-ins must not fail on the bot's global limit.
  router.use(state.rateLimits.middleware());
  router.use(state.unreliable.middleware());

  const gatewayInfo = handle((req, res) => {
    if (req.path.endsWith('/bot')) {
      bot(req);
      const guilds = [...state.guilds.values()].filter((g) => g.botJoinedAt).length;
      res.json({
        url: cfg.gatewayUrl,
        shards: Math.max(1, Math.ceil(guilds / state.gateway.guildsPerRecommendedShard)),
        session_start_limit: {
          total: 1000,
          remaining: 999,
          reset_after: 86400000,
          max_concurrency: state.gateway.maxConcurrency,
        },
      } satisfies RESTGetAPIGatewayBotResult);
    } else {
      res.json({ url: cfg.gatewayUrl } satisfies RESTGetAPIGatewayResult);
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
      // Paged like Discord: sorted by id, `after` / `before` a guild id, `limit` 1-200 (default 200).
      const limit = intQuery(req, 'limit', 200, 1, 200);
      const after = queryString(req, 'after');
      const before = queryString(req, 'before');
      for (const [name, value] of [
        ['after', after],
        ['before', before],
      ] as const) {
        if (value !== undefined && !/^\d{1,20}$/.test(value))
          throw new SimError(400, 50035, `Invalid Form Body: ${name}`);
      }
      let guilds = [...state.guilds.values()]
        .filter((g) => state.getMembership(g, userId))
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      if (after !== undefined) guilds = guilds.filter((g) => BigInt(g.id) > BigInt(after));
      if (before !== undefined) guilds = guilds.filter((g) => BigInt(g.id) < BigInt(before));
      guilds = before !== undefined && after === undefined ? guilds.slice(-limit) : guilds.slice(0, limit);
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
        scopes: auth.token.scope
          .split(' ')
          .filter((scope): scope is OAuth2Scopes =>
            (Object.values(OAuth2Scopes) as string[]).includes(scope),
          ),
        expires: new Date(auth.token.expiresAt).toISOString(),
        user: userObject(state.requireUser(auth.token.userId)),
      } satisfies RESTGetAPIOAuth2CurrentAuthorizationResult);
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
  // Every guild has one text channel here ("general"); Discord lists the channels the bot can see.
  router.get(
    '/guilds/:guildId/channels',
    handle((req, res) => {
      res.json([textChannelObject(botGuild(req))]);
    }),
  );
  router.get(
    '/guilds/:guildId/members',
    handle((req, res) => {
      const guild = botGuild(req);
      // Discord refuses the member list to an application without the Server Members intent
      // (developer portal), whatever the bot identified with; single members stay readable.
      if (!(state.gateway.allowedPrivilegedIntents & GUILD_MEMBERS_INTENT))
        throw new SimError(403, 50001, 'Missing Access');
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
      res.json({ reason: ban.reason, user: userObject(state.requireUser(userId)) } satisfies APIBan);
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
      // Needs View Audit Log (128); an owner can take it away from the bot's role.
      if (guild.botCanViewAuditLog === false) throw new SimError(403, 50013, 'Missing Permissions');
      const actionRaw = queryString(req, 'action_type');
      const snowflakeQuery = (name: string): string | undefined => {
        const value = queryString(req, name);
        if (value !== undefined && !/^\d{1,20}$/.test(value))
          throw new SimError(400, 50035, `Invalid Form Body: ${name}`);
        return value;
      };
      const entries = state.listAudit(guild.id, {
        actionType: actionRaw === undefined ? undefined : intQuery(req, 'action_type', 0, 1, 255),
        userId: snowflakeQuery('user_id'),
        targetId: snowflakeQuery('target_id'),
        before: snowflakeQuery('before'),
        after: snowflakeQuery('after'),
        limit: intQuery(req, 'limit', 50, 1, 100),
      });
      const userIds = new Set(entries.flatMap((e) => (e.targetId ? [e.userId, e.targetId] : [e.userId])));
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
      } satisfies RESTGetAPIAuditLogResult);
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
        // Embeds are stored as sent (the simulator does not check their fields).
        embeds: Array.isArray(embeds) ? (embeds as APIEmbed[]) : undefined,
      });
      cfg.log(`dm to ${message.recipientId}: ${message.content.slice(0, 80)}`);
      res.json(messageObject(state, message));
    }),
  );

  // Create Channel Invite: needs Create Instant Invite in the channel. Without `unique: true` Discord
  // hands back an existing invite of the same settings by the same inviter rather than a new one.
  router.post(
    '/channels/:channelId/invites',
    handle((req, res) => {
      bot(req);
      const channelId = param(req, 'channelId');
      const guild = [...state.guilds.values()].find((g) => g.channelId === channelId);
      if (!guild) throw new SimError(404, 10003, 'Unknown Channel');
      if (!guild.botJoinedAt) throw new SimError(403, 50001, 'Missing Access');
      if (guild.botCanCreateInvite === false) throw new SimError(403, 50013, 'Missing Permissions');
      const intField = (name: string, def: number, max: number): number => {
        const value = bodyField(req, name) ?? def;
        if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max)
          throw new SimError(400, 50035, `Invalid Form Body: ${name}`);
        return value as number;
      };
      const maxAge = intField('max_age', 86400, 604800);
      const maxUses = intField('max_uses', 0, 100);
      const unique = bodyField(req, 'unique') === true;
      const existing = unique
        ? undefined
        : [...state.invites.values()].find(
            (i) =>
              i.channelId === channelId &&
              i.inviterId === state.botId &&
              i.maxAge === maxAge &&
              (i.maxUses ?? 0) === maxUses &&
              state.findInvite(i.code),
          );
      const invite = existing ?? state.createInvite(guild.id, { maxAge, maxUses, inviterId: state.botId });
      cfg.log(`invite ${invite.code} for ${guild.name} (max_age ${maxAge})`);
      res.json(createdInviteObject(state, invite));
    }),
  );

  router.use((_req, res) => {
    res.status(404).json({ message: '404: Not Found', code: 0 } satisfies RESTError);
  });
  return router;
}
