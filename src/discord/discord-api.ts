// The port to Discord's HTTP API. The base URL comes from config: https://discord.com in production,
// the project's Discord simulator in demo mode and tests. Only URLs differ between the two.
import { discordRouteTemplate, recordDiscordRateLimit } from '../metrics.ts';

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar: string | null;
  email?: string | null;
}

export interface DiscordInvite {
  code: string;
  expires_at: string | null;
  guild?: { id: string; name: string; icon: string | null; description?: string | null; banner?: string | null };
  approximate_member_count?: number;
  approximate_presence_count?: number;
}

export interface DiscordGuildMember {
  user?: DiscordUser;
  joined_at: string;
}

export interface DiscordAuditLogEntry {
  id: string;
  action_type: number;
  target_id: string | null;
  user_id: string | null;
}

/** An entry of GET /users/@me/guilds (the `guilds` scope). */
export interface DiscordPartialGuild {
  id: string;
  name: string;
  icon: string | null;
  owner: boolean;
  /** Permission bits of the user in that guild, as a decimal string. */
  permissions: string;
}

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

export const AUDIT_LOG_ACTION = { MEMBER_KICK: 20, MEMBER_BAN_ADD: 22 } as const;

export interface DiscordApiOptions {
  baseUrl: string;
  botToken: string;
  fetch?: typeof fetch;
}

export class DiscordApi {
  readonly apiUrl: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: DiscordApiOptions) {
    this.apiUrl = `${options.baseUrl}/api/v10`;
    this.doFetch = options.fetch ?? fetch;
  }

  private async request<T>(method: string, path: string, init: { body?: unknown; auth?: string } = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.doFetch(`${this.apiUrl}${path}`, {
        method,
        headers: {
          authorization: init.auth ?? `Bot ${this.options.botToken}`,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          'user-agent': 'DiscordBot (https://github.com/coinsync, 1.0)',
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status === 429) recordDiscordRateLimit('rest', discordRouteTemplate(path));
      if (res.status === 429 && attempt < 2) {
        const body = (await res.json().catch(() => ({}))) as { retry_after?: number };
        await new Promise((r) => setTimeout(r, Math.min(5, body.retry_after ?? 1) * 1000));
        continue;
      }
      if (res.status === 204) return undefined as T;
      const text = await res.text();
      const json = text ? (JSON.parse(text) as unknown) : undefined;
      if (!res.ok) {
        const err = (json ?? {}) as { code?: number; message?: string };
        throw new DiscordApiError(res.status, err.code ?? 0, err.message ?? res.statusText);
      }
      return json as T;
    }
  }

  /** The signed-in user, with a user's OAuth2 access token. */
  getCurrentUser(accessToken: string): Promise<DiscordUser> {
    return this.request('GET', '/users/@me', { auth: `Bearer ${accessToken}` });
  }

  /** The guilds the user is in, with their owner flag and permissions (user token, `guilds` scope). */
  getCurrentUserGuilds(accessToken: string): Promise<DiscordPartialGuild[]> {
    return this.request('GET', '/users/@me/guilds', { auth: `Bearer ${accessToken}` });
  }

  /** Exchanges a refresh token for a new token pair (the old refresh token stops working). */
  async refreshUserToken(client: { id: string; secret: string }, refreshToken: string): Promise<DiscordTokenResponse> {
    const res = await this.doFetch(`${this.apiUrl}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json().catch(() => ({}))) as Partial<DiscordTokenResponse> & { error?: string };
    if (!res.ok || !body.access_token) {
      throw new DiscordApiError(res.status, 0, body.error ?? `token refresh failed (${res.status})`);
    }
    return body as DiscordTokenResponse;
  }

  /** Resolves an invite code; null when Discord does not know it. */
  async getInvite(code: string): Promise<DiscordInvite | null> {
    try {
      return await this.request<DiscordInvite>('GET', `/invites/${encodeURIComponent(code)}?with_counts=true`);
    } catch (err) {
      if (err instanceof DiscordApiError && err.code === DISCORD_ERROR.UNKNOWN_INVITE) return null;
      throw err;
    }
  }

  /** The member, or null when the user is not in the guild. */
  async getGuildMember(guildId: string, userId: string): Promise<DiscordGuildMember | null> {
    try {
      return await this.request<DiscordGuildMember>('GET', `/guilds/${guildId}/members/${userId}`);
    } catch (err) {
      if (err instanceof DiscordApiError && err.code === DISCORD_ERROR.UNKNOWN_MEMBER) return null;
      throw err;
    }
  }

  /** Whether our bot is in the guild (it can read the guild). */
  async isBotInGuild(guildId: string): Promise<boolean> {
    try {
      await this.request('GET', `/guilds/${guildId}`);
      return true;
    } catch (err) {
      if (
        err instanceof DiscordApiError &&
        (err.code === DISCORD_ERROR.MISSING_ACCESS || err.code === DISCORD_ERROR.UNKNOWN_GUILD || err.status === 403)
      ) {
        return false;
      }
      throw err;
    }
  }

  async getAuditLog(guildId: string, actionType: number, limit = 25): Promise<DiscordAuditLogEntry[]> {
    const body = await this.request<{ audit_log_entries: DiscordAuditLogEntry[] }>(
      'GET',
      `/guilds/${guildId}/audit-logs?action_type=${actionType}&limit=${limit}`,
    );
    return body.audit_log_entries;
  }

  async sendDirectMessage(userId: string, message: { content: string; embeds?: unknown[] }): Promise<void> {
    const channel = await this.request<{ id: string }>('POST', '/users/@me/channels', { body: { recipient_id: userId } });
    await this.request('POST', `/channels/${channel.id}/messages`, { body: message });
  }
}

export function avatarUrl(cdnUrl: string, discordId: string, hash: string | null): string | null {
  return hash ? `${cdnUrl}/avatars/${discordId}/${hash}.png?size=128` : null;
}

export function guildIconUrl(cdnUrl: string, guildId: string | null, hash: string | null): string | null {
  return guildId && hash ? `${cdnUrl}/icons/${guildId}/${hash}.png?size=128` : null;
}
