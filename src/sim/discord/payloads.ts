// Discord API v10 JSON shapes built from simulator state, typed with discord-api-types (the types
// discord.js itself reads), so the compiler holds the simulator to them. Where Discord's OpenAPI
// document requires a field discord-api-types lacks or makes optional, the extra type says so
// (contract.test.ts validates the answers against that document).
// Bit-flag enums have no 0 member: `0 as XFlags` below means "no flag set".
import {
  ApplicationFlags,
  ChannelFlags,
  type APIGuildTextChannel,
  ChannelType,
  EmbedType,
  GuildMemberFlags,
  RoleFlags,
  UserFlags,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  InviteType,
  Locale,
  MessageType,
  type APIApplication,
  type APIAuditLogEntry,
  type APIDMChannel,
  type APIGuild,
  type APIGuildMember,
  type APIInvite,
  type APIInviteGuild,
  type APIMessage,
  type APIRole,
  type APITextChannel,
  type APIUser,
  type GatewayGuildCreateDispatchData,
  type RESTAPIPartialCurrentUserGuild,
} from 'discord-api-types/v10';
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

/** A user as Discord's OpenAPI document has it: `primary_guild` is always present (null when none). */
export type SimApiUser = APIUser & { primary_guild: APIUser['primary_guild'] };

export function userObject(user: SimUser): SimApiUser {
  return {
    id: user.id,
    username: user.username,
    global_name: user.globalName,
    avatar: user.avatar,
    discriminator: '0',
    public_flags: 0 as UserFlags,
    flags: 0 as UserFlags,
    bot: user.bot || undefined,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    primary_guild: null,
  };
}

/** `GET /users/@me`; email only with the email scope (bots have none). */
export function currentUserObject(user: SimUser, scopes: string[]): SimApiUser {
  return {
    ...userObject(user),
    mfa_enabled: false,
    locale: user.locale ?? Locale.EnglishUS,
    premium_type: user.premiumType ?? 0,
    verified: true,
    ...(scopes.includes('email') ? { email: user.email } : {}),
  };
}

export function memberObject(state: SimState, guild: SimGuild, userId: string): APIGuildMember | null {
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
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: null,
  };
}

export function everyoneRole(guild: SimGuild): APIRole {
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
    flags: 0 as RoleFlags,
  };
}

export function guildChannelObject(guild: SimGuild): APITextChannel {
  return {
    id: guild.channelId,
    type: ChannelType.GuildText,
    guild_id: guild.id,
    name: 'general',
    position: 0,
    permission_overwrites: [],
    topic: null,
    nsfw: false,
    last_message_id: null,
    rate_limit_per_user: 0,
    parent_id: null,
    flags: 0 as ChannelFlags,
  };
}

/** Fields Discord's OpenAPI document requires on a guild that discord-api-types marks optional or lacks. */
export type SimApiGuild = APIGuild & {
  region: string;
  widget_channel_id: string | null;
  home_header: string | null;
  nsfw: boolean;
};

/** An invite whose guild carries `nsfw`, as Discord's OpenAPI document requires. */
export type SimApiInvite = Omit<APIInvite, 'guild'> & {
  guild: APIInviteGuild & { nsfw: boolean };
  guild_id: string;
};

/** The guild object of `GET /guilds/{id}`. */
export function guildObject(state: SimState, guild: SimGuild, withCounts = false): SimApiGuild {
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
    widget_channel_id: null,
    region: 'deprecated',
    home_header: null,
    verification_level: GuildVerificationLevel.None,
    default_message_notifications: GuildDefaultMessageNotifications.AllMessages,
    explicit_content_filter: GuildExplicitContentFilter.Disabled,
    roles: [everyoneRole(guild)],
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: guild.channelId,
    system_channel_flags: 0 as GuildSystemChannelFlags,
    rules_channel_id: null,
    max_presences: null,
    max_members: 500000,
    vanity_url_code: null,
    description: guild.description ?? null,
    banner: guild.banner ?? null,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: 0,
    preferred_locale: Locale.EnglishUS,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: GuildNSFWLevel.Default,
    nsfw: false,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    incidents_data: null,
    hub_type: null,
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
): GatewayGuildCreateDispatchData {
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
): RESTAPIPartialCurrentUserGuild {
  const owner = guild.ownerId === userId;
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: null,
    owner,
    permissions: owner
      ? ALL_PERMISSIONS
      : guild.members[userId]?.manageGuild
        ? MANAGER_PERMISSIONS
        : MEMBER_PERMISSIONS,
    features: [],
    approximate_member_count: state.memberCount(guild),
    approximate_presence_count: presenceCount(state, guild),
  };
}

export function presenceCount(state: SimState, guild: SimGuild): number {
  return Math.ceil(state.memberCount(guild) / 2);
}

export function inviteObject(state: SimState, invite: SimInvite, withCounts: boolean): SimApiInvite {
  const guild = state.requireGuild(invite.guildId);
  return {
    type: InviteType.Guild,
    code: invite.code,
    guild: {
      id: guild.id,
      name: guild.name,
      splash: null,
      banner: guild.banner ?? null,
      description: guild.description ?? null,
      icon: guild.icon,
      features: [],
      verification_level: GuildVerificationLevel.None,
      vanity_url_code: null,
      nsfw_level: GuildNSFWLevel.Default,
      nsfw: false,
      premium_subscription_count: 0,
    },
    guild_id: guild.id,
    channel: { id: invite.channelId, type: ChannelType.GuildText, name: 'general' },
    expires_at: invite.expiresAt,
    ...(invite.inviterId && state.users.has(invite.inviterId)
      ? { inviter: userObject(state.requireUser(invite.inviterId)) }
      : {}),
    ...(withCounts
      ? {
          approximate_member_count: state.memberCount(guild),
          approximate_presence_count: presenceCount(state, guild),
        }
      : {}),
  };
}

/** `POST /channels/{id}/invites`' answer: the invite with its metadata (uses, limits, creation time). */
export function createdInviteObject(state: SimState, invite: SimInvite): SimApiInvite {
  return {
    ...inviteObject(state, invite, false),
    uses: 0,
    max_uses: invite.maxUses ?? 0,
    max_age: invite.maxAge,
    temporary: false,
    created_at: invite.createdAt,
  } as SimApiInvite;
}

/** The guild's one text channel, as `GET /guilds/{id}/channels` lists it. */
export function textChannelObject(guild: SimGuild): APIGuildTextChannel<ChannelType.GuildText> {
  return {
    id: guild.channelId,
    type: ChannelType.GuildText,
    guild_id: guild.id,
    name: 'general',
    position: 0,
    flags: 0 as ChannelFlags,
    permission_overwrites: [],
    nsfw: false,
    parent_id: null,
    topic: null,
    last_message_id: null,
    rate_limit_per_user: 0,
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

export function dmChannelObject(state: SimState, channel: SimDmChannel): APIDMChannel {
  const recipient = state.requireUser(channel.recipientId);
  return {
    id: channel.id,
    type: ChannelType.DM,
    name: null,
    last_message_id: null,
    flags: 0 as ChannelFlags,
    recipients: [userObject(recipient)],
  };
}

/** What a message payload is built from: a bot DM (SimMessage) or an interaction's response. */
export interface MessageFields {
  id: string;
  type: MessageType;
  channelId: string;
  guildId?: string | null;
  content: string;
  createdAt: string;
  editedAt: string | null;
  embeds: APIMessage['embeds'];
  components: APIMessage['components'];
  flags: number;
}

/** The one message builder: DMs over REST and interaction responses (interactions.ts) both use it. */
export function messagePayload(author: SimUser, message: MessageFields): APIMessage {
  return {
    id: message.id,
    type: message.type,
    channel_id: message.channelId,
    ...(message.guildId ? { guild_id: message.guildId } : {}),
    author: userObject(author),
    content: message.content,
    timestamp: message.createdAt,
    edited_timestamp: message.editedAt,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: message.embeds,
    components: message.components,
    pinned: false,
    flags: message.flags,
  };
}

export function messageObject(state: SimState, message: SimMessage): APIMessage {
  return messagePayload(state.botUser, {
    id: message.id,
    type: MessageType.Default,
    channelId: message.channelId,
    content: message.content,
    createdAt: message.createdAt,
    editedAt: null,
    // Discord answers with each embed's `type` filled in (rich unless said otherwise).
    embeds: message.embeds.map((embed) => ({ type: EmbedType.Rich, ...embed })),
    components: [],
    flags: 0,
  });
}

export function applicationObject(state: SimState): APIApplication {
  return {
    id: state.botId,
    name: state.botUser.globalName ?? state.botUser.username,
    icon: null,
    description: 'Discord simulator application',
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0 as ApplicationFlags,
    flags_new: '0',
    summary: '',
    team: null,
    bot: userObject(state.botUser),
    redirect_uris: [],
  };
}
