import { Client, Events, GatewayIntentBits, Partials, RESTEvents, type Guild, type GuildMember, type PartialGuildMember } from 'discord.js';
import type { AppContext } from '../context.ts';
import { DISCORD_ERROR, DiscordApiError } from '../discord/discord-api.ts';
import { verifyJoin } from './verify-join.ts';
import { findOpenPaidJoinSince, handleMemberRemoved } from './member-removed.ts';
import { recordGuildDeleted } from './record-leave.ts';
import { recordBotEvent, recordDiscordRateLimit } from '../metrics.ts';

// The discord.js client. Handlers stay thin: they turn gateway events into plain data and call the
// same services reconciliation uses. Time comes from ctx.clock (events carry no reliable time).

export interface BotOptions {
  /** Called whenever a gateway session starts or resumes: events may have been missed before it. */
  onConnected?: () => void;
  /** Discord writes the audit log entry of a kick/ban asynchronously; wait this long before reading it. */
  auditLogDelayMs?: number;
  /** First delay before retrying a failed login (doubles up to 5 minutes). */
  loginRetryMs?: number;
}

export interface Bot {
  /** Resolves when the first gateway session is ready. */
  ready: Promise<void>;
  readonly client: Client | null;
  stop(): Promise<void>;
}

const MAX_LOGIN_RETRY_MS = 5 * 60 * 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function startBot(ctx: AppContext, options: BotOptions = {}): Bot {
  const { logger } = ctx;
  const auditLogDelayMs = options.auditLogDelayMs ?? (ctx.config.env === 'test' ? 0 : 1500);
  const inFlight = new Set<Promise<unknown>>();
  let client: Client | null = null;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let retryMs = options.loginRetryMs ?? 5000;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  // Events of one guild are handled one after the other, in arrival order: a removal waits for the
  // audit log, and an arrival right after it must see the slot that removal gives back.
  const guildQueues = new Map<string, Promise<void>>();

  /** Queues a handler's work for its guild; errors are logged, and stop() waits for it. */
  const track = (guildId: string, what: string, work: () => Promise<unknown>): void => {
    const previous = guildQueues.get(guildId) ?? Promise.resolve();
    const task: Promise<void> = previous
      .then(work)
      .then(
        () => recordBotEvent(what.replace(/ /g, '_'), 'ok'),
        (err: unknown) => {
          recordBotEvent(what.replace(/ /g, '_'), 'failed');
          logger.error(`bot: ${what} failed`, { error: err instanceof Error ? err.stack : String(err) });
        },
      )
      .finally(() => {
        inFlight.delete(task);
        if (guildQueues.get(guildId) === task) guildQueues.delete(guildId);
      });
    guildQueues.set(guildId, task);
    inFlight.add(task);
  };

  const onMemberAdd = (member: GuildMember): void => {
    if (member.user.bot) return;
    const event = { guildId: member.guild.id, discordUserId: member.id, at: ctx.clock.now() };
    track(event.guildId, 'member add', () => verifyJoin(ctx, event));
  };

  const onMemberRemove = (member: GuildMember | PartialGuildMember): void => {
    const event = { guildId: member.guild.id, discordUserId: member.id, at: ctx.clock.now() };
    track(event.guildId, 'member remove', async () => {
      // Most removals are of people we never paid: no audit log wait for them. Checked in the queue,
      // after any earlier arrival of the same member has been verified.
      if (findOpenPaidJoinSince(ctx, event.guildId, event.discordUserId) === null) return;
      if (auditLogDelayMs > 0) await sleep(auditLogDelayMs);
      await handleMemberRemoved(ctx, event);
    });
  };

  // discord.js emits guildDelete only when the guild is not merely unavailable (an outage). That is
  // either a deleted guild or our bot being removed; REST tells them apart (10004 vs 50001).
  const onGuildDelete = (guild: Guild): void => {
    const at = ctx.clock.now();
    track(guild.id, 'guild delete', async () => {
      try {
        await ctx.discord.getGuildMember(guild.id, guild.client.user.id);
        return;
      } catch (err) {
        if (err instanceof DiscordApiError && err.code === DISCORD_ERROR.UNKNOWN_GUILD) {
          recordGuildDeleted(ctx, guild.id, at);
          return;
        }
        logger.warn('bot: removed from a guild; its joins can no longer be verified', { guildId: guild.id, name: guild.name });
      }
    });
  };

  const connect = (): void => {
    retryTimer = null;
    if (stopped) return;
    const next = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
      // Members we never cached (most of them) arrive as partials on removal.
      partials: [Partials.GuildMember, Partials.User],
      rest: { api: `${ctx.config.discord.baseUrl}/api` },
    });
    let readyOnce = false;
    next.once(Events.ClientReady, (c) => {
      readyOnce = true;
      retryMs = options.loginRetryMs ?? 5000;
      logger.info(`bot: connected as ${c.user.tag}`, { guilds: c.guilds.cache.size });
      markReady();
      options.onConnected?.();
    });
    // After an outage: a resumed session, or a new one when Discord would not resume the old.
    next.on(Events.ShardResume, () => options.onConnected?.());
    next.on(Events.ShardReady, () => {
      if (readyOnce) options.onConnected?.();
    });
    next.on(Events.GuildMemberAdd, onMemberAdd);
    next.on(Events.GuildMemberRemove, onMemberRemove);
    next.on(Events.GuildDelete, onGuildDelete);
    next.on(Events.Error, (err) => logger.error('bot: client error', { error: err.message }));
    next.rest.on(RESTEvents.RateLimited, (info) => {
      recordDiscordRateLimit('bot', info.route);
      logger.warn('bot: Discord rate limit', { route: info.route, retryAfterMs: info.retryAfter, global: info.global });
    });
    client = next;
    next.login(ctx.config.discord.botToken).catch(async (err: unknown) => {
      logger.error(`bot: login failed; retrying in ${Math.round(retryMs / 1000)} s`, {
        error: err instanceof Error ? err.message : String(err),
      });
      if (client === next) client = null;
      await next.destroy().catch(() => undefined);
      if (stopped) return;
      retryTimer = setTimeout(() => {
        // A timer must never throw into the event loop (decision 010).
        try {
          connect();
        } catch (connectErr) {
          logger.error('bot: could not start a new gateway connection', { error: connectErr });
        }
      }, retryMs);
      retryTimer.unref();
      retryMs = Math.min(retryMs * 2, MAX_LOGIN_RETRY_MS);
    });
  };
  connect();

  return {
    ready,
    get client() {
      return client;
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = null;
      await current?.destroy();
      await Promise.allSettled([...inFlight]);
    },
  };
}
