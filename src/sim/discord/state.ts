import { randomBytes } from 'node:crypto';
import type { APIEmbed } from 'discord-api-types/v10';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { DEMO_GUILDS, DEMO_USERS, type DemoGuild } from './demo-data.ts';
import { generateSnowflake } from './snowflake.ts';
import { RateLimiter } from './rate-limits.ts';
import { Unreliable } from './unreliable.ts';
import { SimInteractions } from './interactions.ts';

/** An error carrying Discord's HTTP status and JSON error code. */
// Its own module, so interactions.ts can throw it without importing this file (no cycle).
/** New DM channels per window before Create DM answers 40003 (the simulator's numbers; see dmOpenLimit). */
export const DEFAULT_DM_OPEN_LIMIT = { limit: 25, windowMs: 10 * 60_000 };

export { SimError } from './sim-error.ts';
import { SimError } from './sim-error.ts';
import { SimChannelWebhooks } from './channel-webhooks.ts';
import { errorMessage } from '../../ops/error-text.ts';

export const AuditLogEvent = { MemberKick: 20, MemberPrune: 21, MemberBanAdd: 22 } as const;

/** The simulator will not start over a state file it cannot read (it would replace the demo world). */
export class SimStateFileError extends Error {}

export interface GatewaySettings {
  /** Discord closes with 4011 when one shard would hold more guilds than this (Discord: 2,500). */
  maxGuildsPerShard: number;
  /**
   * Privileged intents enabled in the developer portal (bits); others close with 4014. None by default,
   * as for a new application: the demo and tests that want them turn them on (control API
   * `POST /control/gateway/settings`). Without GuildMembers the member list answers 403 50001.
   */
  allowedPrivilegedIntents: number;
  /** `session_start_limit.max_concurrency` of GET /gateway/bot. */
  maxConcurrency: number;
  /** Guilds per shard Discord recommends in GET /gateway/bot (Discord: about 1,000). */
  guildsPerRecommendedShard: number;
}

/** GuildMembers (1 << 1), GuildPresences (1 << 8), MessageContent (1 << 15). */
export const PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15);
/** The Server Members intent (GUILD_MEMBERS, 1 << 1): member events, the member list, op-8 queries. */
export const GUILD_MEMBERS_INTENT = 1 << 1;

export interface SimUser {
  id: string;
  username: string;
  globalName: string | null;
  avatar: string | null;
  email: string;
  acceptsDms: boolean;
  bot: boolean;
  /** Discord's `premium_type` (0 none, 1 Nitro Classic, 2 Nitro: 200 servers instead of 100, 3 Nitro Basic); absent = 0. */
  premiumType?: number;
  /** The user's Discord client language (GET /users/@me `locale`); en-US unless set. */
  locale?: string;
}

export interface SimMembership {
  joinedAt: string;
  /** Has a role with Manage Server (the owner has every permission anyway). */
  manageGuild?: boolean;
}

export interface SimGuild {
  id: string;
  name: string;
  icon: string | null;
  ownerId: string;
  /** The guild's one text channel ("general"). */
  channelId: string;
  botJoinedAt: string | null;
  /** Whether the bot's role grants View Audit Log (128) here; default true. */
  botCanViewAuditLog?: boolean;
  /** Whether the bot's role grants Create Instant Invite (1) in the text channel; default true. */
  botCanCreateInvite?: boolean;
  members: Record<string, SimMembership>;
  bans: Record<string, { reason: string | null }>;
  /** Community servers can have a description and (boosted ones) a banner hash; absent = null. */
  description?: string | null;
  banner?: string | null;
}

export interface SimInvite {
  code: string;
  guildId: string;
  channelId: string;
  maxAge: number;
  /** 0: unlimited. */
  maxUses: number;
  /** Who created it (the bot through POST /channels/{id}/invites); null for invites made by hand. */
  inviterId: string | null;
  createdAt: string;
  expiresAt: string | null;
}

export interface SimAuditEntry {
  id: string;
  guildId: string;
  actionType: number;
  /** null for a prune (action 21): Discord gives only the count, in options. */
  targetId: string | null;
  userId: string;
  reason: string | null;
  options?: { delete_member_days: string; members_removed: string };
  /** Epoch ms from which the entry is visible (late entries; see Unreliable.auditDelayMs). */
  visibleAt?: number;
}

export interface SimDmChannel {
  id: string;
  recipientId: string;
}

export interface SimMessage {
  id: string;
  channelId: string;
  recipientId: string;
  content: string;
  embeds: APIEmbed[];
  createdAt: string;
}

export interface SimToken {
  userId: string;
  scope: string;
  expiresAt: number;
  refreshToken: string;
}

export interface SimAuthCode {
  userId: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: number;
}

interface PersistedData {
  users: SimUser[];
  guilds: SimGuild[];
  invites: SimInvite[];
  audit: SimAuditEntry[];
  dmChannels: SimDmChannel[];
  messages: SimMessage[];
  tokens: Record<string, SimToken>;
}

/** What the gateway is told about; it turns these into Discord dispatches. */
export type SimEvent =
  | { type: 'memberAdd'; guildId: string; userId: string }
  | { type: 'memberRemove'; guildId: string; userId: string }
  | { type: 'guildCreate'; guildId: string }
  | { type: 'guildDelete'; guildId: string; unavailable?: boolean }
  | { type: 'auditEntry'; guildId: string; entryId: string }
  | { type: 'banAdd'; guildId: string; userId: string }
  | { type: 'reconnect' }
  /** INTERACTION_CREATE (interactions.ts); guildId null for a DM with the bot. */
  | { type: 'interaction'; guildId: string | null; payload: Record<string, unknown> }
  | { type: 'gatewayOnline'; online: boolean };

export type RemoveReason = 'leave' | 'kick' | 'ban';

/** New simulated users stand for existing Discord accounts, which are rarely brand new. */
const DEFAULT_ACCOUNT_AGE_MS = 30 * 24 * 60 * 60 * 1000;

const USERNAME_RE = /^[a-z0-9_.]{2,32}$/;

export class SimState {
  /**
   * The application's registered OAuth2 redirect URIs (the developer portal's list). The authorize page
   * redirects only to one of them, as Discord does ("Invalid OAuth2 redirect_uri" otherwise). Empty:
   * none registered yet — a standalone simulator then accepts any http(s) URI (tests of the simulator
   * itself); demo mode and the test harness register the product's callback.
   */
  redirectUris = new Set<string>();
  users = new Map<string, SimUser>();
  guilds = new Map<string, SimGuild>();
  invites = new Map<string, SimInvite>();
  audit: SimAuditEntry[] = [];
  dmChannels = new Map<string, SimDmChannel>();
  messages: SimMessage[] = [];
  /** access token -> grant */
  tokens = new Map<string, SimToken>();
  /** authorization codes live only in memory (10 minutes) */
  codes = new Map<string, SimAuthCode>();
  gatewayOnline = true;
  /**
   * Whether Discord accepts the bot token on REST. False as after a reset of the token in the developer
   * portal (or Discord revoking it): every bot call answers 401 until it is true again.
   */
  botTokenValid = true;
  readonly botUser: SimUser;
  readonly rateLimits = new RateLimiter();
  readonly unreliable = new Unreliable();
  /** Application commands and interactions (slash commands, buttons): interactions.ts. */
  readonly interactions: SimInteractions;
  /** Channel webhooks (Execute Webhook): channel-webhooks.ts. Kept in memory only. */
  readonly channelWebhooks: SimChannelWebhooks;
  gateway: GatewaySettings = {
    maxGuildsPerShard: 2500,
    allowedPrivilegedIntents: 0,
    maxConcurrency: 1,
    guildsPerRecommendedShard: 1000,
  };

  /**
   * Discord's anti-spam on new DM channels: past `limit` new channels in `windowMs`, Create DM answers
   * 403 40003 "You are opening direct messages too fast." Discord publishes no numbers (bots report it
   * after "a few dozen" DMs at once): these are the simulator's, configurable; null turns it off.
   */
  dmOpenLimit: { limit: number; windowMs: number } | null = { ...DEFAULT_DM_OPEN_LIMIT };
  private dmOpens: number[] = [];
  private listeners = new Set<(event: SimEvent) => void>();
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly botId: string,
    private readonly statePath?: string,
    /** The simulator's clock: new accounts' ids encode a creation time read from it (tests inject theirs). */
    readonly now: () => number = Date.now,
  ) {
    this.botUser = {
      id: botId,
      username: 'sim-bot',
      globalName: 'Simulated Bot',
      avatar: null,
      email: '',
      acceptsDms: false,
      bot: true,
    };
    this.interactions = new SimInteractions({
      botId,
      botUser: this.botUser,
      getUser: (id) => this.getUser(id),
      guilds: this.guilds,
      dispatch: ({ guildId, payload }) => this.emit({ type: 'interaction', guildId, payload }),
    });
    this.channelWebhooks = new SimChannelWebhooks(now);
    if (statePath) this.load(statePath);
  }

  // ---- events and persistence -------------------------------------------------------------

  subscribe(listener: (event: SimEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: SimEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Marks state as changed; the file (if any) is written shortly after. */
  changed(): void {
    if (!this.statePath || this.saveTimer) return;
    // Batched and written off the event loop: the simulator shares its process with the product in demo mode.
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.writing = this.writing.then(() => this.writeAsync()).catch(() => undefined);
    }, 2000);
    this.saveTimer.unref();
  }

  private writing: Promise<void> = Promise.resolve();

  private async writeAsync(): Promise<void> {
    if (!this.statePath) return;
    const tmp = `${this.statePath}.tmp`;
    await writeFile(tmp, JSON.stringify(this.snapshot()));
    await rename(tmp, this.statePath);
  }

  private snapshot(): PersistedData {
    return {
      users: [...this.users.values()],
      guilds: [...this.guilds.values()],
      invites: [...this.invites.values()],
      audit: this.audit,
      dmChannels: [...this.dmChannels.values()],
      messages: this.messages,
      tokens: Object.fromEntries(this.tokens),
    };
  }

  /** Writes the state file now (on close). */
  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.statePath) return;
    const tmp = `${this.statePath}.flush.tmp`;
    writeFileSync(tmp, JSON.stringify(this.snapshot()));
    renameSync(tmp, this.statePath);
  }

  private load(path: string): void {
    if (!existsSync(path)) return; // first start: empty world
    let data: PersistedData;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as PersistedData;
      if (!data || typeof data !== 'object' || !Array.isArray(data.users) || !Array.isArray(data.guilds)) {
        throw new Error('not a simulator state file');
      }
    } catch (err) {
      // Starting empty would overwrite it on the next save, and the app would then see every member
      // "gone" (issue 13: one run charged 160 penalties). Refuse, loudly, and leave the file alone.
      throw new SimStateFileError(
        `Discord simulator: cannot read its state file ${path} (${errorMessage(err)}). ` +
          'Refusing to start over it: restore the file or move it away to start with a fresh demo world.',
      );
    }
    for (const u of data.users ?? []) this.users.set(u.id, u);
    for (const g of data.guilds ?? []) this.guilds.set(g.id, g);
    for (const i of data.invites ?? []) this.invites.set(i.code, i);
    this.audit = data.audit ?? [];
    for (const c of data.dmChannels ?? []) this.dmChannels.set(c.id, c);
    this.messages = data.messages ?? [];
    for (const [k, v] of Object.entries(data.tokens ?? {})) this.tokens.set(k, v);
  }

  // ---- users ------------------------------------------------------------------------------

  createUser(input: {
    username: string;
    globalName?: string | null;
    avatar?: string | null;
    email?: string;
    id?: string;
    /** How old the Discord account is (its id encodes the creation time); 30 days unless told. */
    accountAgeMs?: number;
    /** When the account was created (ms); wins over accountAgeMs. */
    createdAt?: number;
    premiumType?: number;
  }): SimUser {
    const username = input.username.trim().toLowerCase();
    if (!USERNAME_RE.test(username)) {
      throw new SimError(400, 50035, 'Invalid Form Body: username must be 2-32 of a-z 0-9 _ .');
    }
    const existing = this.findUserByUsername(username);
    if (existing) return existing;
    if (input.id && this.users.has(input.id)) {
      throw new SimError(400, 50035, `Invalid Form Body: id ${input.id} already exists`);
    }
    const user: SimUser = {
      id:
        input.id ??
        generateSnowflake(input.createdAt ?? this.now() - (input.accountAgeMs ?? DEFAULT_ACCOUNT_AGE_MS)),
      username,
      globalName: input.globalName ?? null,
      avatar: input.avatar ?? null,
      email: input.email ?? `${username}@users.discord-sim.test`,
      acceptsDms: true,
      bot: false,
      ...(input.premiumType ? { premiumType: input.premiumType } : {}),
    };
    this.users.set(user.id, user);
    this.changed();
    return user;
  }

  findUserByUsername(username: string): SimUser | undefined {
    const wanted = username.trim().toLowerCase();
    for (const user of this.users.values()) if (user.username === wanted) return user;
    return undefined;
  }

  /** Humans by id, plus the bot. */
  getUser(id: string): SimUser | undefined {
    return id === this.botId ? this.botUser : this.users.get(id);
  }

  requireUser(id: string): SimUser {
    const user = this.getUser(id);
    if (!user) throw new SimError(404, 10013, 'Unknown User');
    return user;
  }

  /** Gives or takes Nitro (`premium_type`), as a purchase or a lapse would. */
  setPremiumType(userId: string, premiumType: number): void {
    const user = this.users.get(userId);
    if (!user) throw new SimError(404, 10013, 'Unknown User');
    user.premiumType = premiumType;
    this.changed();
  }

  /** How many servers the user is in (owned ones too). */
  guildCountOf(userId: string): number {
    let n = 0;
    for (const guild of this.guilds.values()) if (guild.members[userId]) n += 1;
    return n;
  }

  setAcceptsDms(userId: string, accepts: boolean): void {
    const user = this.users.get(userId);
    if (!user) throw new SimError(404, 10013, 'Unknown User');
    user.acceptsDms = accepts;
    this.changed();
  }

  // ---- guilds -----------------------------------------------------------------------------

  createGuild(input: {
    name: string;
    ownerId: string;
    icon?: string | null;
    botMember?: boolean;
    id?: string;
    channelId?: string;
    description?: string | null;
    banner?: string | null;
  }): SimGuild {
    const name = input.name.trim();
    if (name.length < 2 || name.length > 100) {
      throw new SimError(400, 50035, 'Invalid Form Body: name must be 2-100 characters');
    }
    if (!this.users.has(input.ownerId)) throw new SimError(404, 10013, 'Unknown User');
    if (input.id && this.guilds.has(input.id)) {
      throw new SimError(400, 50035, `Invalid Form Body: guild ${input.id} already exists`);
    }
    const now = new Date().toISOString();
    const guild: SimGuild = {
      id: input.id ?? generateSnowflake(),
      name,
      icon: input.icon ?? null,
      ownerId: input.ownerId,
      channelId: input.channelId ?? generateSnowflake(),
      botJoinedAt: null,
      members: { [input.ownerId]: { joinedAt: now } },
      bans: {},
      description: input.description ?? null,
      banner: input.banner ?? null,
    };
    this.guilds.set(guild.id, guild);
    this.changed();
    if (input.botMember ?? true) this.setBotInGuild(guild.id, true);
    return guild;
  }

  /**
   * Many guilds at once (sharding tests, benches). Their ids are a millisecond apart, so they spread
   * evenly over shards by Discord's rule `(guild_id >> 22) % num_shards`.
   */
  createGuilds(input: {
    count: number;
    ownerId: string;
    namePrefix?: string;
    botMember?: boolean;
    memberIds?: string[];
  }): SimGuild[] {
    const start = Date.now() - input.count;
    const guilds: SimGuild[] = [];
    for (let i = 0; i < input.count; i++) {
      const guild = this.createGuild({
        id: generateSnowflake(start + i),
        name: `${input.namePrefix ?? 'Guild'} ${i + 1}`,
        ownerId: input.ownerId,
        botMember: input.botMember,
      });
      for (const userId of input.memberIds ?? [])
        if (userId !== input.ownerId) this.addMember(guild.id, userId);
      guilds.push(guild);
    }
    return guilds;
  }

  /** Gives or takes the bot's Create Instant Invite permission in a guild's text channel. */
  setBotCanCreateInvite(guildId: string, allowed: boolean): void {
    this.requireGuild(guildId).botCanCreateInvite = allowed;
    this.changed();
  }

  /** Gives or takes the bot's View Audit Log permission in a guild (an owner can untick it). */
  setBotCanViewAuditLog(guildId: string, allowed: boolean): void {
    this.requireGuild(guildId).botCanViewAuditLog = allowed;
    this.changed();
  }

  requireGuild(guildId: string): SimGuild {
    const guild = this.guilds.get(guildId);
    if (!guild) throw new SimError(404, 10004, 'Unknown Guild');
    return guild;
  }

  /** Member count as Discord reports it: humans plus the bot when present. */
  memberCount(guild: SimGuild): number {
    return Object.keys(guild.members).length + (guild.botJoinedAt ? 1 : 0);
  }

  getMembership(guild: SimGuild, userId: string): SimMembership | undefined {
    if (userId === this.botId) return guild.botJoinedAt ? { joinedAt: guild.botJoinedAt } : undefined;
    return guild.members[userId];
  }

  deleteGuild(guildId: string): void {
    const guild = this.requireGuild(guildId);
    // Dispatch while the bot is still a member, so sessions still see it.
    if (guild.botJoinedAt) this.emit({ type: 'guildDelete', guildId });
    this.guilds.delete(guildId);
    for (const [code, invite] of this.invites) if (invite.guildId === guildId) this.invites.delete(code);
    this.changed();
  }

  setBotInGuild(guildId: string, present: boolean): void {
    const guild = this.requireGuild(guildId);
    if (present === Boolean(guild.botJoinedAt)) return;
    if (present) {
      guild.botJoinedAt = new Date().toISOString();
      this.changed();
      this.emit({ type: 'guildCreate', guildId });
    } else {
      this.emit({ type: 'guildDelete', guildId });
      guild.botJoinedAt = null;
      this.changed();
    }
  }

  // ---- members ----------------------------------------------------------------------------

  /** Returns true when the user was newly added. */
  addMember(
    guildId: string,
    userId: string,
    opts: { redispatch?: boolean; joinedAt?: string } = {},
  ): boolean {
    const guild = this.requireGuild(guildId);
    if (userId === this.botId) {
      const added = !guild.botJoinedAt;
      this.setBotInGuild(guildId, true);
      return added;
    }
    if (!this.users.has(userId)) throw new SimError(404, 10013, 'Unknown User');
    if (guild.bans[userId]) throw new SimError(403, 40007, 'The user is banned from this guild.');
    const already = Boolean(guild.members[userId]);
    // Discord's server cap: 100 servers, 200 with Nitro (premium_type 2); a join past it is refused.
    if (!already) {
      const cap = this.users.get(userId)?.premiumType === 2 ? 200 : 100;
      if (this.guildCountOf(userId) >= cap)
        throw new SimError(400, 30001, `Maximum number of guilds reached (${cap})`);
    }
    if (!already) {
      guild.members[userId] = { joinedAt: opts.joinedAt ?? new Date().toISOString() };
      this.changed();
    }
    if (!already || opts.redispatch) this.emit({ type: 'memberAdd', guildId, userId });
    return !already;
  }

  /** Sets the language a user's Discord client uses (GET /users/@me `locale`, e.g. "fr"). */
  setUserLocale(userId: string, locale: string): void {
    const user = this.users.get(userId);
    if (!user) throw new SimError(404, 10013, 'Unknown User');
    user.locale = locale;
    this.changed();
  }

  /** Gives or takes a member's Manage Server permission (a role with it, in real Discord). */
  setManageGuild(guildId: string, userId: string, on: boolean): void {
    const membership = this.requireGuild(guildId).members[userId];
    if (!membership) throw new SimError(404, 10007, 'Unknown Member');
    membership.manageGuild = on;
    this.changed();
  }

  removeMember(
    guildId: string,
    userId: string,
    opts: { reason: RemoveReason; actorId?: string; auditReason?: string | null },
  ): void {
    const guild = this.requireGuild(guildId);
    if (userId === guild.ownerId && opts.reason !== 'leave') {
      throw new SimError(403, 50013, 'Missing Permissions');
    }
    if (userId === this.botId) {
      this.setBotInGuild(guildId, false);
      return;
    }
    const wasMember = Boolean(guild.members[userId]);
    if (!wasMember && opts.reason !== 'ban') throw new SimError(404, 10007, 'Unknown Member');
    if (opts.reason === 'ban') {
      if (!this.users.has(userId)) throw new SimError(404, 10013, 'Unknown User');
      guild.bans[userId] = { reason: opts.auditReason ?? null };
    }
    delete guild.members[userId];
    this.changed();
    // Discord sends GUILD_MEMBER_REMOVE at once; the audit entry (and its gateway event) can follow later.
    if (wasMember) this.emit({ type: 'memberRemove', guildId, userId });
    if (opts.reason === 'ban') this.emit({ type: 'banAdd', guildId, userId });
    if (opts.reason !== 'leave') {
      this.addAuditEntry({
        id: generateSnowflake(),
        guildId,
        actionType: opts.reason === 'kick' ? AuditLogEvent.MemberKick : AuditLogEvent.MemberBanAdd,
        targetId: userId,
        userId: opts.actorId ?? guild.ownerId,
        reason: opts.auditReason ?? null,
      });
    }
  }

  /** A prune: members removed for inactivity; one audit entry (21) without targets, only a count. */
  pruneMembers(guildId: string, userIds: string[], actorId?: string): void {
    const guild = this.requireGuild(guildId);
    const removed = userIds.filter((id) => id !== guild.ownerId && guild.members[id]);
    for (const userId of removed) delete guild.members[userId];
    this.changed();
    for (const userId of removed) this.emit({ type: 'memberRemove', guildId, userId });
    this.addAuditEntry({
      id: generateSnowflake(),
      guildId,
      actionType: AuditLogEvent.MemberPrune,
      targetId: null,
      userId: actorId ?? guild.ownerId,
      reason: null,
      options: { delete_member_days: '7', members_removed: String(removed.length) },
    });
  }

  private addAuditEntry(entry: SimAuditEntry): void {
    // Discord writes entries asynchronously; unreliable mode makes some (or all) of them late.
    const delay = this.unreliable.auditDelay();
    entry.visibleAt = Date.now() + delay;
    this.audit.push(entry);
    if (this.audit.length > 5000) this.audit.splice(0, this.audit.length - 5000);
    this.changed();
    const announce = () => this.emit({ type: 'auditEntry', guildId: entry.guildId, entryId: entry.id });
    if (delay > 0) setTimeout(announce, delay).unref();
    else announce();
  }

  findAuditEntry(entryId: string): SimAuditEntry | undefined {
    return this.audit.find((e) => e.id === entryId);
  }

  unban(guildId: string, userId: string): void {
    const guild = this.requireGuild(guildId);
    if (!guild.bans[userId]) throw new SimError(404, 10026, 'Unknown Ban');
    delete guild.bans[userId];
    this.changed();
  }

  listAudit(
    guildId: string,
    filter: {
      actionType?: number;
      userId?: string;
      targetId?: string;
      before?: string;
      after?: string;
      limit?: number;
    } = {},
  ): SimAuditEntry[] {
    const now = Date.now();
    const before = filter.before ? BigInt(filter.before) : null;
    const after = filter.after ? BigInt(filter.after) : null;
    const matching = this.audit.filter(
      (e) =>
        e.guildId === guildId &&
        (e.visibleAt ?? 0) <= now &&
        (filter.actionType === undefined || e.actionType === filter.actionType) &&
        (filter.userId === undefined || e.userId === filter.userId) &&
        (filter.targetId === undefined || e.targetId === filter.targetId) &&
        (before === null || BigInt(e.id) < before) &&
        (after === null || BigInt(e.id) > after),
    );
    // Discord: newest first, except with `after` alone, which pages forward (oldest first).
    const ordered = after !== null && before === null ? matching : matching.reverse();
    return ordered.slice(0, filter.limit ?? 50);
  }

  // ---- invites ----------------------------------------------------------------------------

  createInvite(
    guildId: string,
    opts: { code?: string; maxAge?: number; maxUses?: number; inviterId?: string } = {},
  ): SimInvite {
    const guild = this.requireGuild(guildId);
    const code = opts.code ?? randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);
    if (!/^[A-Za-z0-9-]{2,64}$/.test(code)) throw new SimError(400, 50035, 'Invalid Form Body: code');
    const maxAge = opts.maxAge ?? 86400;
    const existing = this.invites.get(code);
    if (existing) {
      if (existing.guildId !== guildId) throw new SimError(400, 50035, `Invite code ${code} is taken`);
      return existing;
    }
    const now = Date.now();
    const invite: SimInvite = {
      code,
      guildId,
      channelId: guild.channelId,
      maxAge,
      maxUses: opts.maxUses ?? 0,
      inviterId: opts.inviterId ?? null,
      createdAt: new Date(now).toISOString(),
      expiresAt: maxAge > 0 ? new Date(now + maxAge * 1000).toISOString() : null,
    };
    this.invites.set(code, invite);
    this.changed();
    return invite;
  }

  /** The invite if it exists, its guild exists and it has not expired. */
  findInvite(code: string): SimInvite | undefined {
    const invite = this.invites.get(code);
    if (!invite || !this.guilds.has(invite.guildId)) return undefined;
    if (invite.expiresAt && Date.parse(invite.expiresAt) <= Date.now()) return undefined;
    return invite;
  }

  // ---- DMs --------------------------------------------------------------------------------

  openDmChannel(recipientId: string): SimDmChannel {
    const user = this.users.get(recipientId);
    if (!user) throw new SimError(404, 10013, 'Unknown User');
    for (const channel of this.dmChannels.values()) if (channel.recipientId === recipientId) return channel;
    this.countDmOpen();
    const channel = { id: generateSnowflake(), recipientId };
    this.dmChannels.set(channel.id, channel);
    this.changed();
    return channel;
  }

  private countDmOpen(): void {
    if (!this.dmOpenLimit) return;
    const now = this.now();
    const since = now - this.dmOpenLimit.windowMs;
    this.dmOpens = this.dmOpens.filter((t) => t > since);
    if (this.dmOpens.length >= this.dmOpenLimit.limit)
      throw new SimError(403, 40003, 'You are opening direct messages too fast.');
    this.dmOpens.push(now);
  }

  sendDm(channelId: string, input: { content?: string; embeds?: APIEmbed[] }): SimMessage {
    const channel = this.dmChannels.get(channelId);
    if (!channel) throw new SimError(404, 10003, 'Unknown Channel');
    const content = input.content ?? '';
    const embeds = input.embeds ?? [];
    if (!content && embeds.length === 0) throw new SimError(400, 50006, 'Cannot send an empty message');
    if (content.length > 2000) throw new SimError(400, 50035, 'Invalid Form Body: content too long');
    const user = this.users.get(channel.recipientId);
    if (!user?.acceptsDms) throw new SimError(403, 50007, 'Cannot send messages to this user');
    // Discord refuses a bot's DM to a user it shares no guild with.
    if (!this.sharesGuildWithBot(user.id))
      throw new SimError(403, 50007, 'Cannot send messages to this user');
    const message: SimMessage = {
      id: generateSnowflake(),
      channelId,
      recipientId: channel.recipientId,
      content,
      embeds,
      createdAt: new Date().toISOString(),
    };
    this.messages.push(message);
    if (this.messages.length > 1000) this.messages.splice(0, this.messages.length - 1000);
    this.changed();
    return message;
  }

  sharesGuildWithBot(userId: string): boolean {
    for (const guild of this.guilds.values()) if (guild.botJoinedAt && guild.members[userId]) return true;
    return false;
  }

  listDms(filter: { userId?: string } = {}): SimMessage[] {
    return this.messages.filter((m) => !filter.userId || m.recipientId === filter.userId);
  }

  // ---- gateway ----------------------------------------------------------------------------

  /** Sends op 7 Reconnect on every socket (Discord does this in normal operation). */
  requestReconnect(): void {
    this.emit({ type: 'reconnect' });
  }

  /** A guild outage: GUILD_DELETE with unavailable: true (the bot is still in the guild). */
  setGuildUnavailable(guildId: string): void {
    this.requireGuild(guildId);
    this.emit({ type: 'guildDelete', guildId, unavailable: true });
  }

  setGatewayOnline(online: boolean): void {
    if (this.gatewayOnline === online) return;
    this.gatewayOnline = online;
    this.emit({ type: 'gatewayOnline', online });
  }

  // ---- demo -------------------------------------------------------------------------------

  /** Deterministic demo world; safe to call repeatedly. */
  seedDemo(): void {
    for (const u of DEMO_USERS) {
      if (!this.users.has(u.id))
        this.createUser({ id: u.id, username: u.username, globalName: u.globalName });
    }
    DEMO_GUILDS.forEach((g, index) => {
      if (this.guilds.has(g.id)) return;
      this.createGuild({
        id: g.id,
        channelId: `30000000000000000${index + 1}`,
        name: g.name,
        ownerId: g.ownerId,
        botMember: g.botMember,
        description: (g as DemoGuild).description ?? null,
      });
      for (const username of g.memberUsernames) {
        const user = this.findUserByUsername(username);
        if (user) this.addMember(g.id, user.id);
      }
      this.createInvite(g.id, { code: g.inviteCode, maxAge: 0 });
    });
  }
}
