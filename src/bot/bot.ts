import {
  AuditLogEvent,
  Client,
  DiscordjsErrorCodes,
  Events,
  GatewayIntentBits,
  Options,
  Partials,
  RESTEvents,
  Status,
  type Guild,
  type GuildAuditLogsEntry,
  type GuildBan,
  type GuildMember,
  type Interaction,
  type PartialGuildMember,
} from 'discord.js';
import type { AppContext } from '../context.ts';
import { botRepo } from './bot-repo.ts';
import { verifyJoin } from './verify-join.ts';
import { findOpenPaidJoin, recordAuditEntry, recordModerationFact, removalSince } from './member-removed.ts';
import { snowflakeCreatedAt } from '../discord/discord-api.ts';
import { refundLateKick } from './record-leave.ts';
import { handleBotRemoved, resumeGuildCampaigns } from './bot-presence.ts';
import { RemovalBatcher } from './removal-batcher.ts';
import type { GatewayMembers } from './member-lookup.ts';
import { recordBotEvent, recordDiscordRateLimit } from '../metrics.ts';
import { DEFAULT_AUTO_DEFER_MS, handleInteraction } from './commands/dispatch.ts';
import { registerCommands, registerGuildCommands } from './commands/register.ts';
import { clientShardOptions } from './shards.ts';
import { errorDetail, errorMessage } from '../ops/error-text.ts';

// The discord.js client. Handlers stay thin: they turn gateway events into plain data and call the
// same services reconciliation uses. Time comes from ctx.clock (events carry no reliable time).

export interface BotOptions {
  /**
   * Called whenever a gateway session starts or resumes: events may have been missed before it. With
   * the shard that (re)connected; without one when the whole client became ready.
   */
  onConnected?: (shardId?: number) => void;
  /** Discord writes audit-log entries asynchronously: first look this long after a removal. */
  auditLogDelayMs?: number;
  /** Second look for removals the first did not explain, before charging them as leaves. */
  auditLogRecheckMs?: number;
  /** First delay before retrying a failed login (doubles up to 5 minutes). */
  loginRetryMs?: number;
  /** Slash commands: a handler not done after this long is deferred (Discord allows 3 s). */
  autoDeferMs?: number;
}

export interface Bot {
  /** Resolves when the first gateway session is ready. */
  ready: Promise<void>;
  readonly client: Client | null;
  /** Gateway member lookups (op 8) for reconciliation; unusable without the Server Members intent. */
  readonly members: GatewayMembers;
  /**
   * Whether this bot runs with the Server Members intent: 'on' (asked for; Discord has not refused it),
   * 'refused' (close 4014: running without it since), 'configured-off' (DISCORD_MEMBERS_INTENT=off).
   * Without it, joins and leaves are found by member look-ups (member-sweep.ts), not by events.
   */
  membersIntent(): MembersIntentMode;
  /** Waits until queued event work and open removal batches are done (tests, shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const MAX_LOGIN_RETRY_MS = 5 * 60 * 1000;
/** How long an op-8 member request may wait for its GUILD_MEMBERS_CHUNK before REST is asked instead. */
const GATEWAY_MEMBER_TIMEOUT_MS = 15_000;

/** Intents: Guilds, GuildMembers (privileged: member add/remove, member lists), GuildModeration (kicks, bans). */
export const BOT_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMembers,
  GatewayIntentBits.GuildModeration,
];
/** Without the privileged intent: guilds, and kicks/bans through GuildModeration (audit-log events). */
export const BOT_INTENTS_WITHOUT_MEMBERS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration];

export type MembersIntentMode = 'on' | 'refused' | 'configured-off';

/** The readiness detail and log wording of a mode. */
export function describeMembersIntent(mode: MembersIntentMode): string {
  return mode === 'on' ? 'on' : mode === 'refused' ? 'off (refused by Discord)' : 'off (configured)';
}

function isDisallowedIntents(codeOrMessage: unknown): boolean {
  const text = String(codeOrMessage);
  return (
    text === '4014' ||
    text === String(DiscordjsErrorCodes.DisallowedIntents) ||
    /disallowed intents|not enabled or whitelisted/i.test(text)
  );
}

/**
 * What discord.js may keep in memory (docs/performance-history.md, memory). The bot reads guilds (and their
 * channels and roles for slash commands) from the cache and nothing else: members and users arrive in
 * the events that concern them (as partials on removal) and are not looked up later, so keeping every
 * member who joined while the process ran only grows the heap. Only the bot's own member and user stay.
 */
export const BOT_CACHE = Options.cacheWithLimits({
  ...Options.DefaultMakeCacheSettings,
  GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
  UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
  MessageManager: 0,
  ReactionManager: 0,
  PresenceManager: 0,
  VoiceStateManager: 0,
  ThreadMemberManager: 0,
  GuildEmojiManager: 0,
  GuildStickerManager: 0,
  GuildInviteManager: 0,
  GuildBanManager: 0,
  GuildScheduledEventManager: 0,
  StageInstanceManager: 0,
  AutoModerationRuleManager: 0,
});

/** The one clear line an operator needs for a gateway refusal that retrying cannot fix. */
export function explainGatewayFailure(codeOrMessage: number | string): string | null {
  const text = String(codeOrMessage);
  if (isDisallowedIntents(text)) {
    return (
      'bot: Discord refused the Server Members Intent (gateway close 4014); running without it from now on: ' +
      'joins are verified by member look-up and leaves found by the member sweep. To use it, enable it in the ' +
      'Discord Developer Portal → your application → Bot → Privileged Gateway Intents → "Server Members Intent" and restart.'
    );
  }
  if (text === '4004' || text === String(DiscordjsErrorCodes.TokenInvalid) || /invalid token/i.test(text)) {
    return (
      'bot: Discord rejected the bot token (gateway close 4004 / 401). Set DISCORD_BOT_TOKEN to the token shown in the ' +
      'Discord Developer Portal → your application → Bot → Reset Token.'
    );
  }
  if (text === '4011' || text === String(DiscordjsErrorCodes.ShardingRequired)) {
    return 'bot: Discord requires sharding (gateway close 4011); with shards "auto" (ROLE=all) this clears on the next retry; with SHARD_COUNT set, raise it.';
  }
  if (text === '4013' || text === String(DiscordjsErrorCodes.InvalidIntents)) {
    return 'bot: Discord says the requested intents are invalid (gateway close 4013); this is a bug in the bot.';
  }
  return null;
}

/** What the pieces of one bot share (startBot builds it; each step below reads and sets its part). */
interface BotState {
  readonly ctx: AppContext;
  readonly options: BotOptions;
  /** The gateway client of now; null between a failed login and the retry, and after stop(). */
  client: Client | null;
  stopped: boolean;
  retryTimer: NodeJS.Timeout | null;
  retryMs: number;
  membersIntent: MembersIntentMode;
  /** Operator lines already said (once per process; cleared when a session is ready). */
  readonly explained: Set<string>;
  /** Event, interaction and registration work not done yet: idle() and stop() wait for it. */
  readonly inFlight: Set<Promise<unknown>>;
  readonly markReady: () => void;
  /** Starts a new gateway client (connect, bound to the bot's handlers). */
  connect: () => void;
}

/** The bot's answers to gateway events: plain data in, the same services reconciliation uses. */
interface GatewayHandlers {
  memberAdd: (member: GuildMember) => void;
  memberRemove: (member: GuildMember | PartialGuildMember) => void;
  auditLogEntry: (entry: GuildAuditLogsEntry, guild: Guild) => void;
  banAdd: (ban: GuildBan) => void;
  guildDelete: (guild: Guild) => void;
  guildBack: (guild: Guild) => void;
  interaction: (interaction: Interaction) => void;
}

type Track = (guildId: string, what: string, work: () => Promise<unknown>) => void;

export function startBot(ctx: AppContext, options: BotOptions = {}): Bot {
  const test = ctx.config.env === 'test';
  const removals = new RemovalBatcher(ctx, ctx.logger, {
    firstLookMs: options.auditLogDelayMs ?? (test ? 0 : 1500),
    secondLookMs: options.auditLogRecheckMs ?? (test ? 0 : 15_000),
  });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const state: BotState = {
    ctx,
    options,
    client: null,
    stopped: false,
    retryTimer: null,
    retryMs: options.loginRetryMs ?? 5000,
    membersIntent: ctx.config.membersIntent === 'off' ? 'configured-off' : 'on',
    explained: new Set(),
    inFlight: new Set(),
    markReady,
    connect: () => undefined,
  };
  const track = guildQueue(state);
  const handlers: GatewayHandlers = {
    ...memberHandlers(state, track, removals),
    ...moderationHandlers(state, track),
    ...guildHandlers(state, track),
  };
  state.connect = () => connect(state, handlers);
  state.connect();

  return {
    ready,
    members: gatewayMembers(state),
    membersIntent: () => state.membersIntent,
    get client() {
      return state.client;
    },
    async idle() {
      while (state.inFlight.size > 0) await Promise.allSettled([...state.inFlight]);
      await removals.idle();
      while (state.inFlight.size > 0) await Promise.allSettled([...state.inFlight]);
    },
    async stop() {
      state.stopped = true;
      if (state.retryTimer) clearTimeout(state.retryTimer);
      const current = state.client;
      state.client = null;
      await current?.destroy();
      await Promise.allSettled([...state.inFlight]);
      await removals.idle();
    },
  };
}

/** Keeps work in the bot's in-flight set (idle() and stop() wait for it) until it settles. */
function keepInFlight(state: BotState, work: Promise<unknown>): void {
  state.inFlight.add(work);
  void work.finally(() => state.inFlight.delete(work));
}

/**
 * Close 4014 (Discord refused the Server Members intent): identify again without it at once, no
 * offline period. Said once; the mode stays until restart (readiness names it).
 */
function fallBackWithoutMembers(state: BotState, failed: Client): boolean {
  if (state.membersIntent !== 'on') return false;
  state.membersIntent = 'refused';
  const line = explainGatewayFailure(4014);
  if (line && !state.explained.has(line)) {
    state.explained.add(line);
    state.ctx.logger.warn(line);
  }
  if (state.client === failed) state.client = null;
  void failed.destroy().catch(() => undefined);
  if (!state.stopped) state.connect();
  return true;
}

/** Logs the operator line for a fatal gateway refusal once per process (not on every retry). */
function explain(state: BotState, codeOrMessage: number | string): boolean {
  const line = explainGatewayFailure(codeOrMessage);
  if (!line) return false;
  if (!state.explained.has(line)) {
    state.explained.add(line);
    state.ctx.logger.error(line);
  }
  return true;
}

/**
 * Events of one guild are handled one after the other, in arrival order (an arrival right after a
 * member's own earlier event must see its outcome). Removals only pass through the queue to be
 * recognised; their audit-log wait happens in the batcher, beside the queue. The returned function
 * queues a handler's work for its guild; errors are logged, and stop() waits for it.
 */
function guildQueue(state: BotState): Track {
  const guildQueues = new Map<string, Promise<void>>();
  return (guildId, what, work) => {
    const previous = guildQueues.get(guildId) ?? Promise.resolve();
    const task: Promise<void> = previous
      .then(work)
      .then(
        () => recordBotEvent(what.replace(/ /g, '_'), 'ok'),
        (err: unknown) => {
          recordBotEvent(what.replace(/ /g, '_'), 'failed');
          state.ctx.logger.error(`bot: ${what} failed`, {
            error: errorDetail(err),
          });
        },
      )
      .finally(() => {
        state.inFlight.delete(task);
        if (guildQueues.get(guildId) === task) guildQueues.delete(guildId);
      });
    guildQueues.set(guildId, task);
    state.inFlight.add(task);
  };
}

/** Arrivals are verified; removals of paid members wait in the batcher for the audit log. */
function memberHandlers(
  state: BotState,
  track: Track,
  removals: RemovalBatcher,
): Pick<GatewayHandlers, 'memberAdd' | 'memberRemove'> {
  const { ctx } = state;
  /** Whether a campaign of the guild is out of slots (then a pending removal may free one). */
  const guildIsFull = (guildId: string): Promise<boolean> => botRepo(ctx.store.read).hasFullCampaign(guildId);
  return {
    memberAdd(member) {
      if (member.user.bot) return;
      const event = {
        guildId: member.guild.id,
        discordUserId: member.id,
        at: ctx.clock.now(),
        discordJoinedAt: member.joinedTimestamp ?? undefined,
      };
      track(event.guildId, 'member add', async () => {
        if (removals.hasPending(event.guildId) && (await guildIsFull(event.guildId)))
          await removals.pending(event.guildId);
        await verifyJoin(ctx, event);
      });
    },
    memberRemove(member) {
      const guildId = member.guild.id;
      const discordUserId = member.id;
      const at = ctx.clock.now();
      // Discord's time domain (audit-entry snowflakes), for the order of events (decision 042).
      const discordAt = Date.now();
      track(guildId, 'member remove', async () => {
        // Most removals are of people we never paid: no audit log for them. Checked in the queue, after
        // any earlier arrival of the same member has been verified.
        const join = await findOpenPaidJoin(ctx, guildId, discordUserId);
        if (join) removals.add(guildId, { discordUserId, at, since: removalSince(join), discordAt });
      });
    },
  };
}

/** Kicks and bans as they happen (GuildModeration): recorded, and a leave already charged is refunded. */
function moderationHandlers(
  state: BotState,
  track: Track,
): Pick<GatewayHandlers, 'auditLogEntry' | 'banAdd'> {
  const { ctx } = state;
  /** A kick or ban learned after the removal was already charged as a leave: refund (record-leave.ts). */
  const refundIfCharged = (
    guildId: string,
    discordUserId: string,
    reason: 'kick' | 'ban',
    entryAt: number,
  ): void => {
    track(guildId, 'late audit entry', () =>
      refundLateKick(ctx, { guildId, discordUserId, reason, entryAt }),
    );
  };
  return {
    auditLogEntry(entry, guild) {
      recordAuditEntry(ctx, guild.id, { id: entry.id, action_type: entry.action, target_id: entry.targetId });
      const reason =
        entry.action === AuditLogEvent.MemberKick
          ? 'kick'
          : entry.action === AuditLogEvent.MemberBanAdd
            ? 'ban'
            : null;
      if (reason && entry.targetId)
        refundIfCharged(guild.id, entry.targetId, reason, snowflakeCreatedAt(entry.id));
    },
    banAdd(ban) {
      const at = Date.now();
      recordModerationFact(ctx, ban.guild.id, { action: 'ban', userId: ban.user.id, at });
      refundIfCharged(ban.guild.id, ban.user.id, 'ban', at);
    },
  };
}

/** The bot leaving and coming back to a guild, and slash commands. */
function guildHandlers(
  state: BotState,
  track: Track,
): Pick<GatewayHandlers, 'guildDelete' | 'guildBack' | 'interaction'> {
  const { ctx, options } = state;
  return {
    // discord.js emits guildDelete only without `unavailable` (an outage emits guildUnavailable): the bot
    // was removed, or the guild deleted — the same event. Campaigns pause; see bot-presence.ts.
    guildDelete(guild) {
      const at = ctx.clock.now();
      track(guild.id, 'guild delete', async () => {
        const outcome = await handleBotRemoved(ctx, guild.id, at);
        ctx.logger.warn(`bot: removed from guild ${guild.id}`, { name: guild.name, outcome });
      });
    },
    guildBack(guild) {
      track(guild.id, 'guild create', () => resumeGuildCampaigns(ctx, guild.id));
    },
    // Slash commands and buttons (src/bot/commands): answered beside the guild queues, not behind them
    // (Discord gives an interaction 3 seconds).
    interaction(interaction) {
      keepInFlight(
        state,
        handleInteraction(ctx, interaction, { autoDeferMs: options.autoDeferMs ?? DEFAULT_AUTO_DEFER_MS }),
      );
    },
  };
}

/** Registers the slash commands (globally, or in one guild in demo mode); a failure is logged. */
function registerSlashCommands(state: BotState, c: Client<true>, guildId?: string): void {
  const { ctx } = state;
  const work = (guildId ? registerGuildCommands(ctx, c, guildId) : registerCommands(ctx, c)).catch(
    (err: unknown) =>
      ctx.logger.error('bot: could not register slash commands', {
        guildId,
        error: errorMessage(err),
      }),
  );
  keepInFlight(state, work);
}

/** A new gateway client with the bot's intents, cache and handlers, logging in (retried on failure). */
function connect(state: BotState, handlers: GatewayHandlers): void {
  const { ctx } = state;
  const { logger } = ctx;
  state.retryTimer = null;
  if (state.stopped) return;
  const next = new Client({
    intents: state.membersIntent === 'on' ? BOT_INTENTS : BOT_INTENTS_WITHOUT_MEMBERS,
    // Members we never cached (most of them) arrive as partials on removal.
    partials: [Partials.GuildMember, Partials.User],
    makeCache: BOT_CACHE,
    rest: { api: `${ctx.config.discord.baseUrl}/api` },
    // ROLE=all: one process, as many shards as Discord recommends (GET /gateway/bot), which works
    // past 2,500 guilds. ROLE=bot with SHARD_COUNT/SHARD_IDS: this process's group of a fixed count;
    // Discord then sends it only the guilds (guild_id >> 22) % count on those shards (decision 028).
    ...clientShardOptions(ctx.config.shards),
  });
  // discord.js's own REST (commands, anything through client.rest) survives a 401 on the bot token
  // as the product's Discord port does: the configured token goes back, tried again now and then.
  ctx.discord.guardBotRest(next.rest);
  const session = watchSessions(state, next);
  // Only the bot's current client acts. A client destroyed while one of its shards was reconnecting can
  // finish that reconnect afterwards (discord.js's WebSocketManager): its events must change nothing,
  // or a stopped bot process would still verify and charge joins.
  const live =
    <A extends unknown[]>(handler: (...args: A) => void) =>
    (...args: A): void => {
      if (!state.stopped && state.client === next) handler(...args);
    };
  next.on(Events.GuildMemberAdd, live(handlers.memberAdd));
  next.on(Events.GuildMemberRemove, live(handlers.memberRemove));
  next.on(Events.GuildAuditLogEntryCreate, live(handlers.auditLogEntry));
  next.on(Events.GuildBanAdd, live(handlers.banAdd));
  next.on(Events.GuildDelete, live(handlers.guildDelete));
  next.on(
    Events.GuildCreate,
    live((guild: Guild) => {
      handlers.guildBack(guild);
      // A guild that added the bot after start-up gets its demo-mode commands too.
      if (session.readyOnce && next.isReady()) registerSlashCommands(state, next, guild.id);
    }),
  );
  next.on(Events.InteractionCreate, live(handlers.interaction));
  next.on(Events.GuildAvailable, live(handlers.guildBack));
  next.on(Events.Error, (err) => logger.error('bot: client error', { error: errorMessage(err) }));
  next.rest.on(RESTEvents.RateLimited, (info) => {
    recordDiscordRateLimit('bot', info.route);
    logger.warn('bot: Discord rate limit', {
      route: info.route,
      retryAfterMs: info.retryAfter,
      global: info.global,
    });
  });
  state.client = next;
  logIn(state, next);
}

/**
 * The client's sessions: ready once (slash commands registered), and after an outage a resumed session
 * or a new one when Discord would not resume the old. Every loss and return of a shard's session is
 * logged, with how long it was down (issue 29 item 5). `readyOnce` is read by the GuildCreate handler.
 */
function watchSessions(state: BotState, next: Client): { readyOnce: boolean } {
  const { options, ctx } = state;
  const { logger } = ctx;
  const session = { readyOnce: false };
  next.once(Events.ClientReady, (c) => {
    session.readyOnce = true;
    state.retryMs = options.loginRetryMs ?? 5000;
    state.explained.clear();
    logger.info(`bot: connected as ${c.user.tag}`, {
      guilds: c.guilds.cache.size,
      shards: [...c.ws.shards.keys()],
      shardCount: c.options.shardCount,
      membersIntent: describeMembersIntent(state.membersIntent),
    });
    state.markReady();
    options.onConnected?.();
    registerSlashCommands(state, c);
  });
  const downSince = new Map<number, number>();
  const back = (shardId: number, how: string): void => {
    const since = downSince.get(shardId);
    if (since === undefined) return;
    downSince.delete(shardId);
    logger.info(`bot: gateway ${how}`, { shardId, downMs: Date.now() - since });
  };
  next.on(Events.ShardReconnecting, (shardId) => {
    if (!downSince.has(shardId)) {
      downSince.set(shardId, Date.now());
      logger.warn('bot: gateway disconnected; reconnecting', { shardId });
    }
  });
  next.on(Events.ShardResume, (shardId) => {
    back(shardId, 'session resumed');
    options.onConnected?.(shardId);
  });
  next.on(Events.ShardReady, (shardId) => {
    back(shardId, 'new session ready');
    if (session.readyOnce) options.onConnected?.(shardId);
  });
  next.on(Events.ShardDisconnect, (event, shardId) => {
    // A later identify refused (the intent switched off in the portal while we ran).
    if (isDisallowedIntents(event.code) && fallBackWithoutMembers(state, next)) return;
    if (!explain(state, event.code))
      logger.warn('bot: shard disconnected for good', { shardId, code: event.code });
  });
  return session;
}

/** Logs the client in; a failure retries with a doubling wait (up to 5 minutes), or falls back on 4014. */
function logIn(state: BotState, next: Client): void {
  const { logger } = state.ctx;
  next.login(state.ctx.config.discord.botToken).catch(async (err: unknown) => {
    const message = errorMessage(err);
    const code = (err as { code?: unknown }).code;
    if (state.client !== next && state.client !== null) return; // replaced already (4014 fall-back on a shard)
    if ((isDisallowedIntents(code) || isDisallowedIntents(message)) && fallBackWithoutMembers(state, next))
      return;
    const retryIn = `bot: login failed; retrying in ${Math.round(state.retryMs / 1000)} s`;
    if (!explain(state, typeof code === 'string' ? code : message)) logger.error(retryIn, { error: message });
    else logger.warn(retryIn, { error: message });
    if (state.client === next) state.client = null;
    await next.destroy().catch(() => undefined);
    if (state.stopped) return;
    state.retryTimer = setTimeout(() => {
      // A timer must never throw into the event loop (decision 010).
      try {
        state.connect();
      } catch (connectErr) {
        logger.error('bot: could not start a new gateway connection', { error: connectErr });
      }
    }, state.retryMs);
    state.retryTimer.unref();
    state.retryMs = Math.min(state.retryMs * 2, MAX_LOGIN_RETRY_MS);
  });
}

/** Gateway member look-ups (op 8) for reconciliation, on a cached guild whose shard is connected. */
function gatewayMembers(state: BotState): GatewayMembers {
  const readyGuild = (guildId: string): Guild | null => {
    const c = state.client;
    if (!c?.isReady()) return null;
    const guild = c.guilds.cache.get(guildId);
    if (!guild?.available || guild.shard.status !== Status.Ready) return null;
    return guild;
  };
  return {
    // Op 8 needs the Server Members intent (Discord closes the session without it).
    memberCount: (guildId) =>
      state.membersIntent === 'on' ? (readyGuild(guildId)?.memberCount ?? null) : null,
    async fetchMembers(guildId, userIds) {
      const guild = readyGuild(guildId);
      if (!guild) throw new Error('guild not on a connected shard');
      const fetched = await guild.members.fetch({ user: userIds, time: GATEWAY_MEMBER_TIMEOUT_MS });
      const found = new Map<string, number>();
      for (const [id, member] of fetched) found.set(id, member.joinedTimestamp ?? Number.NaN);
      // discord.js caches what it fetched; reconciliation asks again next time, so drop them (a bot in
      // thousands of guilds would otherwise keep every member it ever looked up).
      for (const id of fetched.keys()) if (id !== guild.client.user.id) guild.members.cache.delete(id);
      return found;
    },
  };
}
