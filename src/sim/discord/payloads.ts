// Discord API v10 JSON shapes built from simulator state.
import type { APIAuditLogEntry } from 'discord-api-types/v10';
import type {
  SimAuditEntry,
  SimDmChannel,
  SimGuild,
  SimInvite,
  SimMessage,
  SimState,
  SimUser,
} from './state.ts';

/** All permission bits Discord defines today, as its API returns for owners. */
const ALL_PERMISSIONS = '2251799813685247';
/** A typical @everyone permission set for a plain member. */
const MEMBER_PERMISSIONS = '1071698660929';
/** A plain member plus Manage Server (1 << 5), as a moderator role would give. */
const MANAGER_PERMISSIONS = (BigInt(MEMBER_PERMISSIONS) | (1n << 5n)).toString();

export function userObject(user: SimUser): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    global_name: user.globalName,
    avatar: user.avatar,
    discriminator: '0',
    public_flags: 0,
    flags: 0,
    bot: user.bot || undefined,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
  };
}

/** `GET /users/@me`; email only with the email scope (bots have none). */
export function currentUserObject(user: SimUser, scopes: string[]): Record<string, unknown> {
  return {
    ...userObject(user),
    mfa_enabled: false,
    locale: 'en-US',
    premium_type: 0,
    verified: true,
    ...(scopes.includes('email') ? { email: user.email } : {}),
  };
}

export function memberObject(
  state: SimState,
  guild: SimGuild,
  userId: string,
): Record<string, unknown> | null {
  const membership = state.getMembership(guild, userId);
  const user = state.getUser(userId);
  if (!membership || !user) return null;
  return {
    user: userObject(user),
    nick: null,
    avatar: null,
    banner: null,
    roles: [],
    joined_at: membership.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
}

export function everyoneRole(guild: SimGuild): Record<string, unknown> {
  return {
    id: guild.id,
    name: '@everyone',
    permissions: MEMBER_PERMISSIONS,
    position: 0,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    managed: false,
    mentionable: false,
    flags: 0,
  };
}

export function guildChannelObject(guild: SimGuild): Record<string, unknown> {
  return {
    id: guild.channelId,
    type: 0,
    guild_id: guild.id,
    name: 'general',
    position: 0,
    permission_overwrites: [],
    topic: null,
    nsfw: false,
    last_message_id: null,
    rate_limit_per_user: 0,
    parent_id: null,
    flags: 0,
  };
}

/** The guild object of `GET /guilds/{id}`. */
export function guildObject(state: SimState, guild: SimGuild, withCounts = false): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    icon_hash: guild.icon,
    splash: null,
    discovery_splash: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: [everyoneRole(guild)],
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: guild.channelId,
    system_channel_flags: 0,
    rules_channel_id: null,
    max_presences: null,
    max_members: 500000,
    vanity_url_code: null,
    description: guild.description ?? null,
    banner: guild.banner ?? null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: 'en-US',
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: 0,
    nsfw: false,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    ...(withCounts
      ? {
          approximate_member_count: state.memberCount(guild),
          approximate_presence_count: presenceCount(state, guild),
        }
      : {}),
  };
}

/**
 * GUILD_CREATE for a bot session. Real Discord only lists the bot itself (and voice users) in
 * `members` unless the session has the GUILD_PRESENCES intent, so we do the same.
 */
export function guildCreatePayload(
  state: SimState,
  guild: SimGuild,
  allMembers: boolean,
): Record<string, unknown> {
  const memberIds = allMembers ? [...Object.keys(guild.members), state.botId] : [state.botId];
  return {
    ...guildObject(state, guild),
    joined_at: guild.botJoinedAt ?? new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: state.memberCount(guild),
    voice_states: [],
    members: memberIds.map((id) => memberObject(state, guild, id)).filter((m) => m !== null),
    channels: [guildChannelObject(guild)],
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export function partialGuildForUser(
  state: SimState,
  guild: SimGuild,
  userId: string,
): Record<string, unknown> {
  const owner = guild.ownerId === userId;
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: null,
    owner,
    permissions: owner ? ALL_PERMISSIONS : guild.members[userId]?.manageGuild ? MANAGER_PERMISSIONS : MEMBER_PERMISSIONS,
    features: [],
    approximate_member_count: state.memberCount(guild),
    approximate_presence_count: presenceCount(state, guild),
  };
}

export function presenceCount(state: SimState, guild: SimGuild): number {
  return Math.ceil(state.memberCount(guild) / 2);
}

export function inviteObject(
  state: SimState,
  invite: SimInvite,
  withCounts: boolean,
): Record<string, unknown> {
  const guild = state.requireGuild(invite.guildId);
  return {
    type: 0,
    code: invite.code,
    guild: {
      id: guild.id,
      name: guild.name,
      splash: null,
      banner: guild.banner ?? null,
      description: guild.description ?? null,
      icon: guild.icon,
      features: [],
      verification_level: 0,
      vanity_url_code: null,
      nsfw_level: 0,
      nsfw: false,
      premium_subscription_count: 0,
    },
    guild_id: guild.id,
    channel: { id: invite.channelId, type: 0, name: 'general' },
    expires_at: invite.expiresAt,
    ...(withCounts
      ? {
          approximate_member_count: state.memberCount(guild),
          approximate_presence_count: presenceCount(state, guild),
        }
      : {}),
  };
}

export function auditEntryObject(entry: SimAuditEntry): APIAuditLogEntry {
  return {
    id: entry.id,
    action_type: entry.actionType,
    target_id: entry.targetId,
    user_id: entry.userId,
    ...(entry.reason ? { reason: entry.reason } : {}),
    changes: [],
    ...(entry.options ? { options: entry.options } : {}),
  };
}

export function dmChannelObject(state: SimState, channel: SimDmChannel): Record<string, unknown> {
  const recipient = state.requireUser(channel.recipientId);
  return {
    id: channel.id,
    type: 1,
    last_message_id: null,
    flags: 0,
    recipients: [userObject(recipient)],
  };
}

export function messageObject(state: SimState, message: SimMessage): Record<string, unknown> {
  return {
    id: message.id,
    type: 0,
    channel_id: message.channelId,
    author: userObject(state.botUser),
    content: message.content,
    timestamp: message.createdAt,
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: message.embeds,
    components: [],
    pinned: false,
    flags: 0,
  };
}

export function applicationObject(state: SimState): Record<string, unknown> {
  return {
    id: state.botId,
    name: state.botUser.globalName ?? state.botUser.username,
    icon: null,
    description: 'Discord simulator application',
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0,
    team: null,
    bot: userObject(state.botUser),
    redirect_uris: [],
  };
}
