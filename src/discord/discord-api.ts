// The port to Discord's HTTP API. The base URL comes from config: https://discord.com in production,
// the project's Discord simulator in demo mode and tests. Only URLs differ between the two.
//
// Every call goes through @discordjs/rest, the REST client discord.js itself uses: it queues requests
// per rate-limit bucket (route + major parameter), reads X-RateLimit-* and Retry-After, honours the
// global limit (50/s) and sublimits, retries 5xx and timeouts a few times, and never parses an HTML
// error page as JSON. No retry or back-off logic of our own lives here.
import {
  DiscordAPIError,
  HTTPError,
  REST,
  RESTEvents,
  type RateLimitData,
  type ResponseLike,
} from '@discordjs/rest';
import {
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
import { recordDiscordRateLimit } from '../metrics.ts';

export type DiscordUser = Pick<APIUser, 'id' | 'username' | 'avatar'> & {
  global_name?: string | null;
  email?: string | null;
  /** 0 none, 1 Nitro Classic, 2 Nitro, 3 Nitro Basic (GET /users/@me). */
  premium_type?: number;
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
} as const;

export const AUDIT_LOG_ACTION = { MEMBER_KICK: 20, MEMBER_PRUNE: 21, MEMBER_BAN_ADD: 22 } as const;

/** Discord's maximum page of GET /guilds/{id}/members. */
export const MEMBER_PAGE_SIZE = 1000;
/** Discord's maximum page of GET /users/@me/guilds. */
export const GUILD_PAGE_SIZE = 200;

export interface DiscordApiOptions {
  baseUrl: string;
  botToken: string;
  /** Request timeout per attempt (ms). */
  timeoutMs?: number;
  /** Attempts after the first on 5xx / timeouts (@discordjs/rest's `retries`). */
  retries?: number;
  /** The HTTP call itself (tests); @discordjs/rest's undici request by default. */
  fetch?: typeof fetch;
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
}

type Listener = (
  event: { kind: 'response'; status: number; route: string } | { kind: 'rateLimited'; data: RateLimitData },
) => void;

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

export class DiscordApi {
  readonly apiUrl: string;
  /** The bot's REST client (Authorization: Bot). */
  readonly rest: REST;
  /** User (OAuth2 bearer) calls: their own client so their buckets never hold up the bot's. */
  private readonly userRest: REST;
  private readonly counters: DiscordApiStats = {
    responses: 0,
    rateLimited: 0,
    waitedForBucket: 0,
    invalid: 0,
  };
  private readonly listeners = new Set<Listener>();

  constructor(options: DiscordApiOptions) {
    this.apiUrl = `${options.baseUrl}/api/v10`;
    const restOptions = {
      api: `${options.baseUrl}/api`,
      version: '10',
      timeout: options.timeoutMs ?? 10_000,
      retries: options.retries ?? 3,
      ...(options.fetch ? { makeRequest: wrapFetch(options.fetch) } : {}),
    };
    this.rest = new REST(restOptions).setToken(options.botToken);
    this.userRest = new REST({ ...restOptions, authPrefix: 'Bearer' });
    for (const rest of [this.rest, this.userRest]) {
      rest.on(RESTEvents.Response, (request, response: ResponseLike) => {
        this.counters.responses += 1;
        const status = response.status;
        if (status === 429) {
          this.counters.rateLimited += 1;
          recordDiscordRateLimit('rest', request.route);
        }
        const scope = response.headers.get('x-ratelimit-scope');
        if (status === 401 || status === 403 || (status === 429 && scope !== 'shared'))
          this.counters.invalid += 1;
        for (const l of this.listeners) l({ kind: 'response', status, route: request.route });
      });
      rest.on(RESTEvents.RateLimited, (data) => {
        this.counters.waitedForBucket += 1;
        for (const l of this.listeners) l({ kind: 'rateLimited', data });
      });
    }
  }

  stats(): DiscordApiStats {
    return { ...this.counters };
  }

  /** Observes responses and rate-limit waits (metrics). */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async call<T>(run: () => Promise<unknown>): Promise<T> {
    try {
      return (await run()) as T;
    } catch (err) {
      throw translate(err);
    }
  }

  /** The signed-in user, with a user's OAuth2 access token. */
  getCurrentUser(accessToken: string): Promise<DiscordUser> {
    return this.call(() =>
      this.userRest.get(Routes.user('@me'), {
        auth: false,
        headers: { Authorization: `Bearer ${accessToken}` },
      }),
    );
  }

  /** The guilds the user is in, with their owner flag and permissions (user token, `guilds` scope; at most 200). */
  getCurrentUserGuilds(accessToken: string): Promise<DiscordPartialGuild[]> {
    return this.call(() =>
      this.userRest.get(Routes.userGuilds(), {
        auth: false,
        headers: { Authorization: `Bearer ${accessToken}` },
        query: new URLSearchParams({ limit: String(GUILD_PAGE_SIZE) }),
      }),
    );
  }

  /** Exchanges a refresh token for a new token pair (the old refresh token stops working). */
  refreshUserToken(
    client: { id: string; secret: string },
    refreshToken: string,
  ): Promise<DiscordTokenResponse> {
    return this.call(() =>
      this.userRest.post(Routes.oauth2TokenExchange(), {
        auth: false,
        passThroughBody: true,
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        },
      }),
    );
  }

  /** Resolves an invite code; null when Discord does not know it (10006). */
  async getInvite(code: string): Promise<DiscordInvite | null> {
    try {
      return await this.call<DiscordInvite>(() =>
        this.rest.get(Routes.invite(encodeURIComponent(code)), {
          auth: false,
          query: new URLSearchParams({ with_counts: 'true' }),
        }),
      );
    } catch (err) {
      if (err instanceof DiscordApiError && err.code === DISCORD_ERROR.UNKNOWN_INVITE) return null;
      throw err;
    }
  }

  /** The member, or null when the user is not in the guild (10007). */
  async getGuildMember(guildId: string, userId: string): Promise<DiscordGuildMember | null> {
    try {
      return await this.call<DiscordGuildMember>(() => this.rest.get(Routes.guildMember(guildId, userId)));
    } catch (err) {
      if (err instanceof DiscordApiError && err.code === DISCORD_ERROR.UNKNOWN_MEMBER) return null;
      throw err;
    }
  }

  /** One page of the guild's members, in id order after `after` (needs the GuildMembers intent). */
  listGuildMembers(
    guildId: string,
    after = '0',
    limit = MEMBER_PAGE_SIZE,
  ): Promise<RESTGetAPIGuildMembersResult> {
    return this.call(() =>
      this.rest.get(Routes.guildMembers(guildId), {
        query: new URLSearchParams({ limit: String(limit), after }),
      }),
    );
  }

  /** Every guild the bot is in (paged by 200, as Discord requires). */
  async listBotGuildIds(): Promise<Set<string>> {
    const ids = new Set<string>();
    let after = '0';
    for (;;) {
      const page = await this.call<APIPartialGuild[]>(() =>
        this.rest.get(Routes.userGuilds(), {
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
      await this.call(() => this.rest.get(Routes.guild(guildId)));
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
    filter: { actionType?: number; targetId?: string; before?: string; after?: string; limit?: number } = {},
  ): Promise<DiscordAuditLogEntry[]> {
    const query = new URLSearchParams({ limit: String(filter.limit ?? 50) });
    if (filter.actionType !== undefined) query.set('action_type', String(filter.actionType));
    if (filter.targetId !== undefined) query.set('target_id', filter.targetId);
    if (filter.before !== undefined) query.set('before', filter.before);
    if (filter.after !== undefined) query.set('after', filter.after);
    const body = await this.call<APIAuditLog>(() => this.rest.get(Routes.guildAuditLog(guildId), { query }));
    return body.audit_log_entries;
  }

  async sendDirectMessage(userId: string, message: RESTPostAPIChannelMessageJSONBody): Promise<void> {
    const channel = await this.call<APIChannel>(() =>
      this.rest.post(Routes.userChannels(), { body: { recipient_id: userId } }),
    );
    await this.call(() => this.rest.post(Routes.channelMessages(channel.id), { body: message }));
  }
}

export function avatarUrl(cdnUrl: string, discordId: string, hash: string | null): string | null {
  return hash ? `${cdnUrl}/avatars/${discordId}/${hash}.png?size=128` : null;
}

export function guildIconUrl(cdnUrl: string, guildId: string | null, hash: string | null): string | null {
  return guildId && hash ? `${cdnUrl}/icons/${guildId}/${hash}.png?size=128` : null;
}
