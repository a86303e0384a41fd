// The port to Discord's HTTP API. The base URL comes from config: https://discord.com in production,
// the project's Discord simulator in demo mode and tests. Only URLs differ between the two.
//
// Every call goes through @discordjs/rest, the REST client discord.js itself uses: it queues requests
// per rate-limit bucket (route + major parameter), reads X-RateLimit-* and Retry-After, honours the
// global limit (50/s) and sublimits, retries 5xx and timeouts a few times, and never parses an HTML
// error page as JSON. Around it (decision 037):
//
// - Two lanes. A call made while a person waits (a web request, a slash command: code run inside
//   `whilePersonWaits`) shares the scope's budget of PERSON_DEADLINE_MS (all its calls together wait
//   that long at most; each call gets what is left); when Discord asks for a longer wait
//   (429 Retry-After, the global limit, a Cloudflare ban page) or the budget runs out, the call fails
//   at once with DiscordBusyError (a 503 with Retry-After for the person). Every other call is
//   background work and waits out any Retry-After, however long. Each lane has its own REST instance
//   (own queues; the bot's global 50/s shared, people first), so a background sweep queued on a bucket never
//   holds a member's request back.
// - One rate-limit queue per token. The bot's calls go through the bot's instances; each member's
//   OAuth calls through an instance of their own token (a bounded LRU of them), so one member who
//   used up his own limit delays nobody else, as Discord limits each token on its own.
// - A 401 on the bot token is reported (log, metric, readiness) and the configured token is put back
//   (@discordjs/rest forgets its token on a 401); one call per BOT_TOKEN_RETRY_MS tries it again, so
//   bot REST comes back without a restart once the token is valid again.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import {
  DefaultRestOptions,
  DiscordAPIError,
  HTTPError,
  REST,
  RESTEvents,
  RateLimitError,
  type RateLimitData,
  type ResponseLike,
} from '@discordjs/rest';
import {
  ChannelType,
  Routes,
  type APIAuditLog,
  type APIAuditLogEntry,
  type APIChannel,
  type APIGuildMember,
  type APIInvite,
  type APIPartialGuild,
  type APIUser,
  type RESTGetAPIGuildMembersResult,
  type RESTPostAPIChannelMessageJSONBody,
} from 'discord-api-types/v10';
import { recordDiscordBotTokenRejected, recordDiscordBusy, recordDiscordRateLimit } from '../metrics.ts';
import { AppError } from '../shared/errors.ts';
import { GlobalLimit, type GlobalLimitStats } from './global-limit.ts';

export type DiscordUser = Pick<APIUser, 'id' | 'username' | 'avatar'> & {
  global_name?: string | null;
  email?: string | null;
  /** 0 none, 1 Nitro Classic, 2 Nitro, 3 Nitro Basic (GET /users/@me). */
  premium_type?: number;
  /** GET /users/@me with an OAuth token: the user's chosen language ("en-US"); campaign targeting reads it. */
  locale?: string;
};
export type DiscordInvite = Pick<
  APIInvite,
  'code' | 'approximate_member_count' | 'approximate_presence_count'
> & {
  expires_at?: string | null;
  guild?: Pick<APIPartialGuild, 'id' | 'name' | 'icon' | 'description' | 'banner'>;
};
export type DiscordGuildMember = Pick<APIGuildMember, 'user' | 'joined_at'>;
export type DiscordAuditLogEntry = Pick<
  APIAuditLogEntry,
  'id' | 'action_type' | 'target_id' | 'user_id' | 'options'
>;

/** An entry of GET /users/@me/guilds (the `guilds` scope). */
export type DiscordPartialGuild = Pick<APIPartialGuild, 'id' | 'name' | 'icon'> & {
  owner: boolean;
  /** Permission bits of the user in that guild, as a decimal string. */
  permissions: string;
};

export interface DiscordTokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** Manage Server (1 << 5) and Administrator (1 << 3). */
export const PERMISSION = { ADMINISTRATOR: 1n << 3n, MANAGE_GUILD: 1n << 5n } as const;

/** Whether a guild-list entry lets its user manage the guild (owner, Administrator or Manage Server). */
export function canManageGuild(guild: DiscordPartialGuild): boolean {
  if (guild.owner) return true;
  let bits: bigint;
  try {
    bits = BigInt(guild.permissions);
  } catch {
    return false;
  }
  return (bits & (PERMISSION.ADMINISTRATOR | PERMISSION.MANAGE_GUILD)) !== 0n;
}

/** When a Discord account (or any object) was created: the top bits of its snowflake id. */
export function snowflakeCreatedAt(id: string): number {
  try {
    return Number((BigInt(id) >> 22n) + 1420070400000n);
  } catch {
    return Number.NaN;
  }
}

/** A Discord answer other than success: status, Discord's JSON error code (0 when none, e.g. HTML). */
export class DiscordApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'DiscordApiError';
  }
}

export const DISCORD_ERROR = {
  UNKNOWN_GUILD: 10004,
  UNKNOWN_INVITE: 10006,
  UNKNOWN_MEMBER: 10007,
  MISSING_ACCESS: 50001,
  MISSING_PERMISSIONS: 50013,
  CANNOT_DM_USER: 50007,
  UNKNOWN_CHANNEL: 10003,
  /** Discord's anti-spam for DMs (a 403, not a 429): the bot opened DM channels too fast. */
  OPENING_DMS_TOO_FAST: 40003,
} as const;

/**
 * After Discord said 40003 ("You are opening direct messages too fast"), no new DM channel is opened for
 * this long: a bot that keeps opening DMs gets blocked from opening them (Create DM's warning in
 * discord-api-docs `resources/user.mdx`). DMs to members whose channel is already open still go.
 */
export const DM_OPEN_PAUSE_MS = 15 * 60_000;
/** DM channel ids kept per process (member → channel), so repeat DMs do not open a channel again. */
export const DM_CHANNEL_CACHE_MAX = 20_000;

/** A DM that was not sent because new DM channels are paused (after a 40003) until `until` (epoch ms). */
export class DmOpensPausedError extends Error {
  constructor(readonly until: number) {
    super('Discord asked the bot to open DMs more slowly (40003); new DMs wait');
    this.name = 'DmOpensPausedError';
  }
}

export const AUDIT_LOG_ACTION = { MEMBER_KICK: 20, MEMBER_PRUNE: 21, MEMBER_BAN_ADD: 22 } as const;

/** Discord's maximum page of GET /guilds/{id}/members. */
export const MEMBER_PAGE_SIZE = 1000;
/** Discord's maximum page of GET /users/@me/guilds. */
export const GUILD_PAGE_SIZE = 200;

/**
 * How long a person waits on Discord in total, over all the calls of one web request or slash command
 * (a budget per `whilePersonWaits` scope; each call gets what is left), before they are
 * told "Discord is busy" with a Retry-After. A few seconds: long enough for Discord's usual answer
 * (well under a second) and a short bucket wait or one retry, short enough that a page never hangs
 * and a slash command, deferred after 1.5 s, still answers long before its 15-minute token runs out.
 */
export const PERSON_DEADLINE_MS = 4_000;
/** The Retry-After a person gets when Discord said nothing about how long (it just did not answer in time). */
export const BUSY_FALLBACK_WAIT_MS = 30_000;
/** While Discord rejects the bot token, one bot call per this long tries the configured token again. */
export const BOT_TOKEN_RETRY_MS = 10_000;
/** Members' OAuth tokens with a REST instance (own buckets) kept at once; the least recently used go. */
export const MAX_TOKEN_CLIENTS = 500;
/**
 * The bot's global 50 requests/s (Discord's limit per bot token), shared by calls people wait on and
 * background jobs through one limiter (global-limit.ts): people's calls take the next free slot first,
 * background takes whatever is left, so a sweep runs at the full 50/s when nobody waits and a person
 * never queues behind it. Each lane's @discordjs/rest instance keeps its own (never binding) 50/s.
 */
export const BOT_GLOBAL_PER_SECOND = 50;

/**
 * The time one person-waiting scope (a web request, a slash command) has left to wait on Discord. The
 * budget is spent while at least one Discord call of the scope is in flight (calls running side by
 * side spend it once), so a request making three calls waits PERSON_DEADLINE_MS in total, not three
 * times that: each call gets what is left.
 */
class PersonBudget {
  private spentMs = 0;
  private inFlight = 0;
  private since = 0;
  constructor(readonly budgetMs: number) {}

  /** What is left at `now` (ms; may be 0 or less). */
  left(now: number): number {
    return this.budgetMs - this.spentMs - (this.inFlight > 0 ? now - this.since : 0);
  }

  begin(now: number): void {
    if (this.inFlight === 0) this.since = now;
    this.inFlight += 1;
  }

  end(now: number): void {
    this.inFlight -= 1;
    if (this.inFlight === 0) this.spentMs += now - this.since;
  }
}

interface PersonWait {
  budget: PersonBudget;
  /** Set per call: when this call's share of the budget runs out (epoch ms). */
  deadlineAt?: number;
}
const personWaiting = new AsyncLocalStorage<PersonWait>();

/**
 * Runs `fn` as work a person waits on: the Discord calls made inside it (however deep) share a budget
 * of `deadlineMs` in total; a call that would pass what is left fails with DiscordBusyError rather
 * than wait longer. The API's middleware and the slash-command dispatcher wrap their handlers in it.
 */
export function whilePersonWaits<T>(fn: () => T, deadlineMs = PERSON_DEADLINE_MS): T {
  return personWaiting.run({ budget: new PersonBudget(deadlineMs) }, fn);
}

/** Runs `fn` as background work (no deadline) even when started from a person's request. */
export function inBackground<T>(fn: () => T): T {
  return personWaiting.exit(fn);
}

/** "45 s", "2 min", "1 h": a wait as a person reads it, to the nearest unit (Discord's own numbers are round). */
export function waitInWords(ms: number): string {
  const seconds = waitSeconds(ms);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}

/** A wait in whole seconds, at least 1 (@discordjs/rest adds a few ms of margin to Discord's figure). */
function waitSeconds(ms: number): number {
  return Math.max(1, Math.round(ms / 1000));
}

export type BusyReason = 'rate-limit' | 'ban' | 'deadline';

/**
 * Discord asked for a wait longer than a person's deadline, or did not answer within it: a 503 whose
 * Retry-After is Discord's own wait. Nothing was sent on the person's behalf after it.
 */
export class DiscordBusyError extends AppError {
  constructor(
    readonly waitMs: number,
    readonly reason: BusyReason,
  ) {
    super('unavailable', `Discord is busy — try again in ${waitInWords(waitMs)}`);
    this.name = 'DiscordBusyError';
    this.retryAfterSeconds = waitSeconds(waitMs);
  }
}

export interface DiscordApiLogger {
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
}

export interface DiscordApiOptions {
  baseUrl: string;
  botToken: string;
  /** Request timeout per attempt (ms). */
  timeoutMs?: number;
  /** Attempts after the first on 5xx / timeouts (@discordjs/rest's `retries`). */
  retries?: number;
  /** The HTTP call itself (tests); @discordjs/rest's undici request by default. */
  fetch?: typeof fetch;
  /** Where a rejected bot token and Cloudflare bans are reported. */
  logger?: DiscordApiLogger;
  /** Members' token clients kept at once (default MAX_TOKEN_CLIENTS). */
  maxTokenClients?: number;
  /** While the bot token is rejected, how often a bot call tries it again (default BOT_TOKEN_RETRY_MS). */
  botTokenRetryMs?: number;
  /** Epoch ms now (the DM-open pause); Date.now by default. */
  now?: () => number;
}

export interface DiscordApiStats {
  /** HTTP responses received (every attempt). */
  responses: number;
  /** 429 responses received (each one counts toward Discord's invalid-request limit unless shared). */
  rateLimited: number;
  /** Times @discordjs/rest held a request back because a bucket or the global limit was exhausted. */
  waitedForBucket: number;
  /** 401, 403 and 429 (non-shared) responses: what Discord's 10,000-per-10-minutes ban counts. */
  invalid: number;
  /** Calls a person waited on that were given up with DiscordBusyError. */
  busy: number;
  /** 401 answers to the bot token. */
  botTokenRejected: number;
}

/** Whether Discord currently accepts the bot token, for /api/ready. */
export interface BotTokenState {
  ok: boolean;
  detail: string;
}

/** Turns @discordjs/rest's errors into DiscordApiError; anything else (network) passes through. */
function translate(err: unknown): unknown {
  if (err instanceof DiscordAPIError) {
    return new DiscordApiError(err.status, typeof err.code === 'number' ? err.code : 0, err.message);
  }
  if (err instanceof HTTPError) return new DiscordApiError(err.status, 0, err.message);
  return err;
}

/** Adapts a fetch function to @discordjs/rest's makeRequest (which passes undici's RequestInit). */
function wrapFetch(doFetch: typeof fetch) {
  return (url: string, init: Record<string, unknown>): Promise<ResponseLike> => doFetch(url, init);
}

/**
 * @discordjs/rest asks this before any rate-limit wait (a bucket or the global limit exhausted, a 429's
 * Retry-After): inside a person's call, a wait that ends after the call's deadline throws
 * RateLimitError at once instead. Background calls (no deadline) wait.
 */
function rejectLongWait(data: RateLimitData): boolean {
  const wait = personWaiting.getStore();
  if (wait?.deadlineAt === undefined) return false;
  return Date.now() + data.retryAfter > wait.deadlineAt;
}

type Lane = 'person' | 'background';
/** Who a call is made as: the bot, a member's OAuth token, or the application (token refresh). */
type Caller = { kind: 'bot' } | { kind: 'user'; token: string } | { kind: 'app' };

interface Client {
  key: string;
  rest: REST;
  caller: Caller['kind'];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nowMs = () => Date.now();

export class DiscordApi {
  readonly apiUrl: string;
  /** The bot's REST client for background work (Authorization: Bot). */
  readonly rest: REST;
  private readonly botToken: string;
  private readonly restOptions: ConstructorParameters<typeof REST>[0];
  private readonly logger: DiscordApiLogger | undefined;
  private readonly maxTokenClients: number;
  private readonly botTokenRetryMs: number;
  private readonly bot: Record<Lane, Client>;
  private readonly app: Record<Lane, Client>;
  /** Members' token clients, least recently used first (Map keeps insertion order). */
  private readonly tokenClients = new Map<string, Client>();
  /**
   * Waits Discord asked for, by `client|bucket` (a bucket's 429), `client|*` (a global 429) and `ip`
   * (Cloudflare's ban: every request from this address), until epoch ms. People are told at once; the
   * background lane waits out `ip` before sending (@discordjs/rest waits out the others itself).
   */
  private readonly holds = new Map<string, number>();
  private botTokenRejectedSince: number | null = null;
  /** The bot token's global 50/s, people first (shared by both bot lanes and discord.js's REST). */
  private readonly globalLimit = new GlobalLimit(BOT_GLOBAL_PER_SECOND);
  private botTokenLastTry = 0;
  private readonly counters: DiscordApiStats = {
    responses: 0,
    rateLimited: 0,
    waitedForBucket: 0,
    invalid: 0,
    busy: 0,
    botTokenRejected: 0,
  };
  /** Open DM channels by recipient, least recently used first (Map keeps insertion order). */
  private readonly dmChannels = new Map<string, string>();
  /** No new DM channel before this epoch ms (a 40003 was answered). */
  private dmOpensPausedUntil = 0;
  private readonly now: () => number;

  constructor(options: DiscordApiOptions) {
    this.apiUrl = `${options.baseUrl}/api/v10`;
    this.now = options.now ?? Date.now;
    this.botToken = options.botToken;
    this.logger = options.logger;
    this.maxTokenClients = options.maxTokenClients ?? MAX_TOKEN_CLIENTS;
    this.botTokenRetryMs = options.botTokenRetryMs ?? BOT_TOKEN_RETRY_MS;
    this.restOptions = {
      api: `${options.baseUrl}/api`,
      version: '10',
      timeout: options.timeoutMs ?? 10_000,
      retries: options.retries ?? 3,
      rejectOnRateLimit: rejectLongWait,
      ...(options.fetch ? { makeRequest: wrapFetch(options.fetch) } : {}),
    };
    const send = this.restOptions.makeRequest ?? DefaultRestOptions.makeRequest;
    const limited =
      (lane: Lane): typeof send =>
      async (url, init) => {
        await this.globalLimit.acquire(lane, init.signal ?? undefined);
        return send(url, init);
      };
    this.bot = {
      background: this.client('bot:background', 'bot', {
        globalRequestsPerSecond: BOT_GLOBAL_PER_SECOND,
        makeRequest: limited('background'),
      }),
      person: this.client('bot:person', 'bot', {
        globalRequestsPerSecond: BOT_GLOBAL_PER_SECOND,
        makeRequest: limited('person'),
      }),
    };
    this.bot.background.rest.setToken(this.botToken);
    this.bot.person.rest.setToken(this.botToken);
    this.rest = this.bot.background.rest;
    this.app = { background: this.client('app:background', 'app'), person: this.client('app:person', 'app') };
  }

  private client(
    key: string,
    caller: Caller['kind'],
    extra: Partial<ConstructorParameters<typeof REST>[0]> = {},
  ): Client {
    const rest = new REST({
      ...this.restOptions,
      ...extra,
      ...(caller === 'user'
        ? // Short-lived: no sweep timers per member (the LRU bounds them instead).
          { authPrefix: 'Bearer' as const, hashSweepInterval: 0, handlerSweepInterval: 0 }
        : {}),
    });
    const client: Client = { key, rest, caller };
    rest.on(RESTEvents.Response, (request, response: ResponseLike) => {
      this.counters.responses += 1;
      const status = response.status;
      if (status === 429) {
        this.counters.rateLimited += 1;
        recordDiscordRateLimit('rest', request.route);
        this.noteTooManyRequests(client, response);
      }
      const scope = response.headers.get('x-ratelimit-scope');
      if (status === 401 || status === 403 || (status === 429 && scope !== 'shared'))
        this.counters.invalid += 1;
      if (caller === 'bot') {
        if (status === 401) this.botTokenRejected();
        else if (status >= 200 && status < 300) this.botTokenAccepted();
      }
    });
    rest.on(RESTEvents.RateLimited, () => {
      this.counters.waitedForBucket += 1;
    });
    return client;
  }

  /** A 429 whose body is not JSON is Cloudflare's ban page: every request from this address waits. */
  private noteTooManyRequests(client: Client, response: ResponseLike): void {
    const retryAfter = Number(response.headers.get('retry-after'));
    if (!Number.isFinite(retryAfter) || retryAfter <= 0) return;
    const until = nowMs() + retryAfter * 1000;
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('json')) {
      if ((this.holds.get('ip') ?? 0) < until) {
        this.logger?.error('discord: Cloudflare refuses our requests (HTML 429); waiting it out', {
          retryAfterSeconds: retryAfter,
        });
      }
      this.hold('ip', until);
    } else if (response.headers.has('x-ratelimit-global')) {
      this.hold(`${client.key}|*`, until);
    }
  }

  private hold(key: string, until: number): void {
    if ((this.holds.get(key) ?? 0) >= until) return;
    if (this.holds.size > 10_000) {
      const now = nowMs();
      for (const [k, t] of this.holds) if (t <= now) this.holds.delete(k);
    }
    this.holds.set(key, until);
  }

  /** How long a call on `client` to `bucket` must still wait, as far as Discord told us (ms, 0 = none). */
  private heldFor(client: Client, bucket: string): { ms: number; reason: BusyReason } {
    const now = nowMs();
    const ban = (this.holds.get('ip') ?? 0) - now;
    if (ban > 0) return { ms: ban, reason: 'ban' };
    const held = Math.max(
      this.holds.get(`${client.key}|*`) ?? 0,
      this.holds.get(`${client.key}|${bucket}`) ?? 0,
    );
    return { ms: Math.max(0, held - now), reason: 'rate-limit' };
  }

  private botTokenRejected(): void {
    this.counters.botTokenRejected += 1;
    recordDiscordBotTokenRejected();
    if (this.botTokenRejectedSince === null) {
      this.botTokenRejectedSince = nowMs();
      this.logger?.error(
        'discord: Discord rejected the bot token (401). Bot REST calls fail until it is valid again; ' +
          `the configured DISCORD_BOT_TOKEN is tried again every ${this.botTokenRetryMs / 1000} s.`,
      );
    }
  }

  private botTokenAccepted(): void {
    if (this.botTokenRejectedSince === null) return;
    this.logger?.info('discord: the bot token is accepted again', {
      rejectedForSeconds: Math.round((nowMs() - this.botTokenRejectedSince) / 1000),
    });
    this.botTokenRejectedSince = null;
  }

  /**
   * Gives another REST instance holding the bot token (discord.js's own `client.rest`: command
   * registration, anything through `client.rest`) the same 401 recovery as this port's bot lanes:
   * @discordjs/rest's `setToken(null)` on a 401 puts the configured token back instead of leaving
   * every later call to fail with "Expected token to be set"; its 401s and successes feed the same
   * report (one log line, metric, readiness); and while Discord rejects the token, one bot call per
   * BOT_TOKEN_RETRY_MS (shared with this port's calls) reaches Discord, the others fail at once with
   * a 401 without being sent.
   */
  guardBotRest(rest: REST): void {
    // Only a call with the configured token speaks for it (a login tried with another token does not).
    let current: string | null = null;
    const setToken = rest.setToken.bind(rest);
    rest.setToken = (token: string | null) => {
      current = token ?? this.botToken;
      return setToken(current);
    };
    const { options } = rest;
    const send = options.makeRequest.bind(options);
    options.makeRequest = async (url, init) => {
      if (current === this.botToken) this.gateBotToken();
      await this.globalLimit.acquire(
        personWaiting.getStore() ? 'person' : 'background',
        init.signal ?? undefined,
      );
      return send(url, init);
    };
    rest.on(RESTEvents.Response, (_request, response: ResponseLike) => {
      if (current !== this.botToken) return;
      if (response.status === 401) {
        this.botTokenLastTry = nowMs();
        this.botTokenRejected();
      } else if (response.status >= 200 && response.status < 300) this.botTokenAccepted();
    });
  }

  /** Readiness: whether Discord accepts the bot token (as far as the last bot call tells). */
  botTokenState(): BotTokenState {
    if (this.botTokenRejectedSince === null) return { ok: true, detail: 'accepted' };
    const seconds = Math.round((nowMs() - this.botTokenRejectedSince) / 1000);
    return {
      ok: false,
      detail:
        `Discord rejected the bot token (401) ${seconds} s ago; bot REST calls fail. ` +
        'Set DISCORD_BOT_TOKEN to the token shown in the Discord developer portal (Bot page); ' +
        `it is tried again every ${this.botTokenRetryMs / 1000} s.`,
    };
  }

  stats(): DiscordApiStats {
    return { ...this.counters };
  }

  /** Bot requests granted by the shared global limit per lane, and those waiting for a slot now. */
  globalLimitStats(): GlobalLimitStats {
    return this.globalLimit.stats();
  }

  /** The REST instance for a member's own token (their own buckets), most recently used last. */
  private tokenClient(token: string, lane: Lane): Client {
    const key = `user:${lane}:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`;
    let client = this.tokenClients.get(key);
    if (client) {
      this.tokenClients.delete(key);
    } else {
      client = this.client(key, 'user');
      client.rest.setToken(token);
      while (this.tokenClients.size >= this.maxTokenClients) {
        const oldest = this.tokenClients.keys().next().value;
        if (oldest === undefined) break;
        this.tokenClients.delete(oldest);
      }
    }
    this.tokenClients.set(key, client);
    return client;
  }

  /** Members' token clients held now (tests: the LRU stays bounded). */
  tokenClientCount(): number {
    return this.tokenClients.size;
  }

  private clientFor(caller: Caller, lane: Lane): Client {
    if (caller.kind === 'bot') return this.bot[lane];
    if (caller.kind === 'app') return this.app[lane];
    return this.tokenClient(caller.token, lane);
  }

  /**
   * Runs one Discord call as `caller`. `bucket` names the rate-limit bucket (route and major parameter)
   * so a wait Discord asked for is known before the next person's call to it.
   */
  private async call<T>(
    caller: Caller,
    bucket: string,
    run: (rest: REST, signal: AbortSignal | undefined) => Promise<unknown>,
  ): Promise<T> {
    const wait = personWaiting.getStore();
    const lane: Lane = wait ? 'person' : 'background';
    const client = this.clientFor(caller, lane);
    if (caller.kind === 'bot') this.gateBotToken();
    if (!wait) {
      // Background: a Cloudflare ban is waited out here, however long; @discordjs/rest waits out the rest.
      for (
        let ban = this.heldFor(client, bucket);
        ban.reason === 'ban' && ban.ms > 0;
        ban = this.heldFor(client, bucket)
      )
        await sleep(ban.ms);
      try {
        return (await run(client.rest, undefined)) as T;
      } catch (err) {
        throw this.failure(client, bucket, err);
      }
    }
    // A wait Discord already asked for: longer than what is left of the person's budget, the person is
    // told at once; shorter, it is waited out here (this lane's @discordjs/rest may not know it).
    const { budget } = wait;
    const start = nowMs();
    const left = budget.left(start);
    const held = this.heldFor(client, bucket);
    if (held.ms >= left || left <= 0)
      throw held.ms > 0 ? this.busy(held.ms, held.reason) : this.busy(BUSY_FALLBACK_WAIT_MS, 'deadline');
    const deadlineAt = start + left;
    budget.begin(start);
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        const known = this.heldFor(client, bucket);
        reject(
          this.busy(
            known.ms > 0 ? known.ms : BUSY_FALLBACK_WAIT_MS,
            known.ms > 0 ? known.reason : 'deadline',
          ),
        );
      }, left);
    });
    try {
      if (held.ms > 0) await Promise.race([sleep(held.ms), expired]);
      return (await personWaiting.run({ budget, deadlineAt }, () =>
        Promise.race([run(client.rest, controller.signal), expired]),
      )) as T;
    } catch (err) {
      throw this.failure(client, bucket, err);
    } finally {
      clearTimeout(timer);
      budget.end(nowMs());
    }
  }

  private busy(waitMs: number, reason: BusyReason): DiscordBusyError {
    this.counters.busy += 1;
    recordDiscordBusy(reason);
    return new DiscordBusyError(waitMs, reason);
  }

  /** While the bot token is rejected, one call per BOT_TOKEN_RETRY_MS tries it; the others fail here. */
  private gateBotToken(): void {
    if (this.botTokenRejectedSince === null) return;
    const now = nowMs();
    if (now - this.botTokenLastTry >= this.botTokenRetryMs) {
      this.botTokenLastTry = now;
      return;
    }
    throw new DiscordApiError(401, 0, '401: Unauthorized (the bot token was rejected; tried again soon)');
  }

  /** What a failed call throws; also puts the bot's token back and forgets a member's rejected one. */
  private failure(client: Client, bucket: string, err: unknown): unknown {
    if (err instanceof DiscordBusyError) return err;
    if (err instanceof RateLimitError) {
      // A person's call and Discord asked for a longer wait than the deadline leaves.
      const until = nowMs() + err.retryAfter;
      if (err.global) this.hold(`${client.key}|*`, until);
      else this.hold(`${client.key}|${bucket}`, until);
      const held = this.heldFor(client, bucket);
      return this.busy(Math.max(err.retryAfter, held.ms), held.reason);
    }
    const tokenGone = err instanceof Error && /Expected token to be set/.test(err.message);
    if (client.caller === 'bot' && ((err instanceof DiscordAPIError && err.status === 401) || tokenGone)) {
      // @discordjs/rest forgets its token on a 401 ("Expected token to be set" for every call after it):
      // the configured token goes back, to be tried again.
      this.botTokenLastTry = nowMs();
      this.bot.background.rest.setToken(this.botToken);
      this.bot.person.rest.setToken(this.botToken);
      if (tokenGone) return new DiscordApiError(401, 0, '401: Unauthorized (the bot token was rejected)');
    }
    if (client.caller === 'user' && err instanceof DiscordAPIError && err.status === 401) {
      this.tokenClients.delete(client.key);
    }
    return translate(err);
  }

  /** The signed-in user, with a user's OAuth2 access token. */
  getCurrentUser(accessToken: string): Promise<DiscordUser> {
    return this.call({ kind: 'user', token: accessToken }, 'GET /users/@me', (rest, signal) =>
      rest.get(Routes.user('@me'), { signal }),
    );
  }

  /** The guilds the user is in, with their owner flag and permissions (user token, `guilds` scope; at most 200). */
  getCurrentUserGuilds(accessToken: string): Promise<DiscordPartialGuild[]> {
    return this.call({ kind: 'user', token: accessToken }, 'GET /users/@me/guilds', (rest, signal) =>
      rest.get(Routes.userGuilds(), {
        signal,
        query: new URLSearchParams({ limit: String(GUILD_PAGE_SIZE) }),
      }),
    );
  }

  /** Exchanges a refresh token for a new token pair (the old refresh token stops working). */
  refreshUserToken(
    client: { id: string; secret: string },
    refreshToken: string,
  ): Promise<DiscordTokenResponse> {
    return this.call({ kind: 'app' }, 'POST /oauth2/token', (rest, signal) =>
      rest.post(Routes.oauth2TokenExchange(), {
        auth: false,
        signal,
        passThroughBody: true,
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        },
      }),
    );
  }

  /**
   * Resolves an invite code; null when Discord does not know it (10006). Sent with the bot token:
   * Discord answers unauthenticated calls without rate-limit headers (discord-api-docs #1487), so
   * their 429s would come unannounced.
   */
  async getInvite(code: string): Promise<DiscordInvite | null> {
    try {
      return await this.call<DiscordInvite>({ kind: 'bot' }, 'GET /invites/:code', (rest, signal) =>
        rest.get(Routes.invite(encodeURIComponent(code)), {
          signal,
          query: new URLSearchParams({ with_counts: 'true' }),
        }),
      );
    } catch (err) {
      if (isDiscordError(err, DISCORD_ERROR.UNKNOWN_INVITE)) return null;
      throw err;
    }
  }

  /**
   * A never-expiring, unlimited invite made by the bot in the guild's first text channels (Create Instant
   * Invite there): its code, or null when the bot may not create one (50013/50001) or the guild has no
   * text channel. Without `unique` Discord hands back the bot's existing invite of the same settings, so
   * asking twice makes one invite, not two.
   */
  async createPermanentInvite(guildId: string, reason: string): Promise<string | null> {
    const channels = await this.call<APIChannel[]>(
      { kind: 'bot' },
      `GET /guilds/${guildId}/channels`,
      (rest, signal) => rest.get(Routes.guildChannels(guildId), { signal }),
    );
    const textChannels = channels
      .filter((c) => c.type === ChannelType.GuildText)
      .sort((a, b) => ('position' in a ? a.position : 0) - ('position' in b ? b.position : 0));
    // Two tries at most: a guild whose first channels refuse the bot is one the owner must set up by hand.
    for (const channel of textChannels.slice(0, 2)) {
      try {
        const invite = await this.call<APIInvite>(
          { kind: 'bot' },
          `POST /channels/${channel.id}/invites`,
          (rest, signal) =>
            rest.post(Routes.channelInvites(channel.id), {
              signal,
              reason,
              body: { max_age: 0, max_uses: 0, unique: false },
            }),
        );
        return invite.code;
      } catch (err) {
        if (
          isDiscordError(err, DISCORD_ERROR.MISSING_PERMISSIONS) ||
          isDiscordError(err, DISCORD_ERROR.MISSING_ACCESS)
        )
          continue;
        throw err;
      }
    }
    return null;
  }

  /** The member, or null when the user is not in the guild (10007). */
  async getGuildMember(guildId: string, userId: string): Promise<DiscordGuildMember | null> {
    try {
      return await this.call<DiscordGuildMember>(
        { kind: 'bot' },
        `GET /guilds/${guildId}/members/:id`,
        (rest, signal) => rest.get(Routes.guildMember(guildId, userId), { signal }),
      );
    } catch (err) {
      if (isDiscordError(err, DISCORD_ERROR.UNKNOWN_MEMBER)) return null;
      throw err;
    }
  }

  /** One page of the guild's members, in id order after `after` (needs the GuildMembers intent). */
  listGuildMembers(
    guildId: string,
    after = '0',
    limit = MEMBER_PAGE_SIZE,
  ): Promise<RESTGetAPIGuildMembersResult> {
    return this.call({ kind: 'bot' }, `GET /guilds/${guildId}/members`, (rest, signal) =>
      rest.get(Routes.guildMembers(guildId), {
        signal,
        query: new URLSearchParams({ limit: String(limit), after }),
      }),
    );
  }

  /** Every guild the bot is in (paged by 200, as Discord requires). */
  async listBotGuildIds(): Promise<Set<string>> {
    const ids = new Set<string>();
    let after = '0';
    for (;;) {
      const page = await this.call<APIPartialGuild[]>(
        { kind: 'bot' },
        'GET /users/@me/guilds',
        (rest, signal) =>
          rest.get(Routes.userGuilds(), {
            signal,
            query: new URLSearchParams({ limit: String(GUILD_PAGE_SIZE), after }),
          }),
      );
      for (const g of page) ids.add(g.id);
      const last = page.at(-1);
      if (page.length < GUILD_PAGE_SIZE || !last) return ids;
      after = last.id;
    }
  }

  /** Whether our bot is in the guild. 10004 means "no" (Discord answers it for absent bots too). */
  async isBotInGuild(guildId: string): Promise<boolean> {
    try {
      await this.call({ kind: 'bot' }, `GET /guilds/${guildId}`, (rest, signal) =>
        rest.get(Routes.guild(guildId), { signal }),
      );
      return true;
    } catch (err) {
      if (
        err instanceof DiscordApiError &&
        (err.code === DISCORD_ERROR.MISSING_ACCESS ||
          err.code === DISCORD_ERROR.UNKNOWN_GUILD ||
          err.status === 403)
      ) {
        return false;
      }
      throw err;
    }
  }

  /** Audit-log entries, newest first (needs View Audit Log; 403 50013 without it). */
  async getAuditLog(
    guildId: string,
    page: { before?: string; limit?: number } = {},
  ): Promise<DiscordAuditLogEntry[]> {
    const query = new URLSearchParams({ limit: String(page.limit ?? 50) });
    if (page.before !== undefined) query.set('before', page.before);
    const body = await this.call<APIAuditLog>(
      { kind: 'bot' },
      `GET /guilds/${guildId}/audit-logs`,
      (rest, signal) => rest.get(Routes.guildAuditLog(guildId), { signal, query }),
    );
    return body.audit_log_entries;
  }

  /**
   * DMs a user through their DM channel, opened once and kept (so a member's next reminder opens
   * nothing). Discord's answer 40003 pauses new DM channels for DM_OPEN_PAUSE_MS: meanwhile a DM that
   * needs a new channel fails at once with DmOpensPausedError and nothing is sent to Discord.
   */
  async sendDirectMessage(userId: string, message: RESTPostAPIChannelMessageJSONBody): Promise<void> {
    const cached = this.dmChannels.get(userId);
    try {
      try {
        await this.postDirectMessage(cached ?? (await this.openDmChannel(userId)), message);
      } catch (err) {
        // A kept channel Discord no longer knows: open it again, once.
        if (cached === undefined || !isDiscordError(err, DISCORD_ERROR.UNKNOWN_CHANNEL)) throw err;
        this.dmChannels.delete(userId);
        await this.postDirectMessage(await this.openDmChannel(userId), message);
      }
    } catch (err) {
      if (!isDiscordError(err, DISCORD_ERROR.OPENING_DMS_TOO_FAST)) throw err;
      this.dmOpensPausedUntil = this.now() + DM_OPEN_PAUSE_MS;
      this.logger?.warn('discord: opening DMs too fast (40003); new DM channels paused', {
        pauseMs: DM_OPEN_PAUSE_MS,
      });
      throw new DmOpensPausedError(this.dmOpensPausedUntil);
    }
  }

  private async openDmChannel(userId: string): Promise<string> {
    if (this.now() < this.dmOpensPausedUntil) throw new DmOpensPausedError(this.dmOpensPausedUntil);
    const channel = await this.call<APIChannel>({ kind: 'bot' }, 'POST /users/@me/channels', (rest, signal) =>
      rest.post(Routes.userChannels(), { signal, body: { recipient_id: userId } }),
    );
    this.dmChannels.set(userId, channel.id);
    if (this.dmChannels.size > DM_CHANNEL_CACHE_MAX)
      this.dmChannels.delete(this.dmChannels.keys().next().value!);
    return channel.id;
  }

  private async postDirectMessage(
    channelId: string,
    message: RESTPostAPIChannelMessageJSONBody,
  ): Promise<void> {
    await this.call({ kind: 'bot' }, `POST /channels/${channelId}/messages`, (rest, signal) =>
      rest.post(Routes.channelMessages(channelId), { signal, body: message }),
    );
  }
}

function isDiscordError(err: unknown, code: number): boolean {
  return err instanceof DiscordApiError && err.code === code;
}

export function avatarUrl(cdnUrl: string, discordId: string, hash: string | null): string | null {
  return hash ? `${cdnUrl}/avatars/${discordId}/${hash}.png?size=128` : null;
}

export function guildIconUrl(cdnUrl: string, guildId: string | null, hash: string | null): string | null {
  return guildId && hash ? `${cdnUrl}/icons/${guildId}/${hash}.png?size=128` : null;
}
