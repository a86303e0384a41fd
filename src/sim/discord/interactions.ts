// Application commands and interactions, as Discord runs them for a bot that receives interactions
// over the gateway (discord-api-docs: interactions/application-commands.mdx and
// interactions/receiving-and-responding.mdx):
//  - commands are registered globally or per guild (bulk overwrite, PUT);
//  - a user runs a command or presses a button → INTERACTION_CREATE on the gateway, with a token;
//  - the bot must call POST /interactions/{id}/{token}/callback within 3 seconds (else 404 10062
//    Unknown interaction), once (else 400 40060), with type 4 (message), 5 (deferred message), and for
//    components also 6 (deferred update) or 7 (update the component's message);
//  - for 15 minutes the token then works on /webhooks/{application_id}/{token} (follow-ups, edits of
//    @original).
// Messages are checked against Discord's limits (2,000 characters, 10 embeds of at most 6,000
// characters and 25 fields, 5 action rows of at most 5 buttons) and refused with 400 50035 like Discord.
import { randomBytes } from 'node:crypto';
import { Locale, type APIMessage } from 'discord-api-types/v10';
import { generateSnowflake } from './snowflake.ts';
import { SimError } from './sim-error.ts';
import type { SimGuild, SimUser } from './state.ts';
import { guildChannelObject, messagePayload, userObject } from './payloads.ts';

export const InteractionType = { ApplicationCommand: 2, MessageComponent: 3 } as const;
export const CallbackType = {
  ChannelMessageWithSource: 4,
  DeferredChannelMessageWithSource: 5,
  DeferredUpdateMessage: 6,
  UpdateMessage: 7,
} as const;
export const MessageFlag = { Ephemeral: 1 << 6, Loading: 1 << 7 } as const;

/** Option types the simulator understands (STRING 3, INTEGER 4, BOOLEAN 5, NUMBER 10). */
const OPTION_TYPES = new Set([3, 4, 5, 10]);
const COMMAND_NAME_RE = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

export interface SimCommandOption {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  max_length?: number;
  name_localizations?: Record<string, string> | null;
  description_localizations?: Record<string, string> | null;
}

export interface SimCommand {
  id: string;
  application_id: string;
  guild_id?: string;
  type: 1;
  name: string;
  description: string;
  /** Per Discord locale ("de", "es-ES"); null when the command has none. */
  name_localizations: Record<string, string> | null;
  description_localizations: Record<string, string> | null;
  options: SimCommandOption[];
  default_member_permissions: string | null;
  dm_permission?: boolean;
  contexts: number[] | null;
  integration_types: number[];
  nsfw: boolean;
  version: string;
}

export interface SimButton {
  type: 2;
  style: number;
  label?: string;
  custom_id?: string;
  url?: string;
  disabled?: boolean;
  emoji?: unknown;
}

export interface SimActionRow {
  type: 1;
  components: SimButton[];
}

export interface SimEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  author?: { name: string };
  [key: string]: unknown;
}

/** A message made through an interaction (the response or a follow-up). */
export interface SimInteractionMessage {
  id: string;
  /** The interaction that created it. */
  interactionId: string;
  channelId: string;
  guildId: string | null;
  /** Who ran the command: the only one who sees an ephemeral message. */
  userId: string;
  /** Command name (for display). */
  commandName: string;
  content: string;
  embeds: SimEmbed[];
  components: SimActionRow[];
  flags: number;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
}

export interface SimInteraction {
  id: string;
  token: string;
  type: number;
  userId: string;
  guildId: string | null;
  channelId: string;
  commandName: string;
  /** custom_id of the pressed button (type 3). */
  customId?: string;
  /** The message the pressed button sat on (type 3). */
  sourceMessageId?: string;
  createdAt: number;
  /** Callback types received, in order, and the refused ones (with the error code). */
  callbacks: { type: number; at: number }[];
  refused: { code: number; at: number }[];
  responseMessageId: string | null;
  /** Message ids of follow-ups. */
  followups: string[];
  /** Edits of @original seen so far. */
  edits: number;
  /** Where it was invoked: 0 guild, 1 the bot's DM, 2 a private channel (group DM / DM between users). */
  context: InteractionContext;
  /** authorizing_integration_owners: '0' → guild id ('0' in the bot's DM), '1' → the installing user. */
  owners: Record<string, string>;
}

/** Discord's interaction context types. */
export type InteractionContext = 0 | 1 | 2;

export interface InteractionSettings {
  /** Time the bot has for its first callback (Discord: 3 s). */
  responseDeadlineMs: number;
  /** Lifetime of the token on /webhooks (Discord: 15 minutes). */
  tokenLifetimeMs: number;
}

export const DEFAULT_INTERACTION_SETTINGS: InteractionSettings = {
  responseDeadlineMs: 3000,
  tokenLifetimeMs: 15 * 60 * 1000,
};

/** What the gateway receives: an INTERACTION_CREATE for sessions of the guild's shard. */
export interface InteractionDispatch {
  guildId: string | null;
  payload: Record<string, unknown>;
}

/** What SimInteractions needs from the rest of the simulator (kept narrow: no import cycle at load). */
export interface InteractionHost {
  botId: string;
  botUser: SimUser;
  getUser(id: string): SimUser | undefined;
  guilds: Map<string, SimGuild>;
  dispatch(event: InteractionDispatch): void;
}

const invalid = (what: string): SimError => new SimError(400, 50035, `Invalid Form Body: ${what}`);

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Discord's locales (https://discord.com/developers/docs/reference#locales): keys of localization dictionaries. */
const DISCORD_LOCALES: ReadonlySet<string> = new Set(Object.values(Locale));

/**
 * A `name_localizations` or `description_localizations` dictionary, checked as Discord checks it: null
 * or an object keyed by Discord locales only, each value held to the same rule as the default value
 * (`check` returns the problem, or null). Values identical to the default are ignored by Discord.
 */
function parseLocalizations(
  raw: unknown,
  path: string,
  check: (value: string) => string | null,
): Record<string, string> | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid(`${path}: must be an object`);
  const out: Record<string, string> = {};
  for (const [locale, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!DISCORD_LOCALES.has(locale)) throw invalid(`${path}.${locale}: Invalid locale`);
    if (typeof value !== 'string') throw invalid(`${path}.${locale}: must be a string`);
    const problem = check(value);
    if (problem) throw invalid(`${path}.${locale}: ${problem}`);
    out[locale] = value;
  }
  return out;
}

/** A chat-input command's or option's name, default or localized: Discord's regex, lowercase. */
const nameProblem = (value: string): string | null =>
  COMMAND_NAME_RE.test(value) && value === value.toLowerCase() ? null : 'invalid command name';
const descriptionProblem = (value: string): string | null =>
  value.length >= 1 && value.length <= 100 ? null : 'must be 1-100 characters';

/**
 * Localized option names must differ from every other default option name of the command and from
 * every other option name in the same locale.
 */
function checkOptionLocalizations(options: SimCommandOption[], index: number): void {
  const defaults = new Set(options.map((o) => o.name));
  const perLocale = new Map<string, Set<string>>();
  options.forEach((option, j) => {
    for (const [locale, name] of Object.entries(option.name_localizations ?? {})) {
      if (name !== option.name && defaults.has(name))
        throw invalid(`${index}.options.${j}.name_localizations.${locale}: duplicates another option's name`);
      const taken = perLocale.get(locale) ?? new Set<string>();
      if (taken.has(name))
        throw invalid(`${index}.options.${j}.name_localizations.${locale}: duplicates another option's name`);
      taken.add(name);
      perLocale.set(locale, taken);
    }
  });
}

/** Validates one command of a bulk overwrite (the parts this simulator cares about). */
function parseCommand(raw: unknown, index: number): Omit<SimCommand, 'id' | 'application_id' | 'version'> {
  if (!raw || typeof raw !== 'object') throw invalid(`${index}: must be an object`);
  const body = raw as Record<string, unknown>;
  const type = body.type ?? 1;
  if (type !== 1) throw invalid(`${index}.type: only CHAT_INPUT (1) commands are simulated`);
  const name = str(body.name) ?? '';
  if (nameProblem(name)) throw invalid(`${index}.name: invalid command name`);
  const description = str(body.description) ?? '';
  if (descriptionProblem(description)) throw invalid(`${index}.description: must be 1-100 characters`);
  const nameLocalizations = parseLocalizations(
    body.name_localizations,
    `${index}.name_localizations`,
    nameProblem,
  );
  const descriptionLocalizations = parseLocalizations(
    body.description_localizations,
    `${index}.description_localizations`,
    descriptionProblem,
  );
  const rawOptions = Array.isArray(body.options) ? (body.options as unknown[]) : [];
  if (rawOptions.length > 25) throw invalid(`${index}.options: at most 25`);
  const options = rawOptions.map((o, j): SimCommandOption => {
    const option = (o ?? {}) as Record<string, unknown>;
    const optionName = str(option.name) ?? '';
    if (!COMMAND_NAME_RE.test(optionName)) throw invalid(`${index}.options.${j}.name: invalid`);
    if (typeof option.type !== 'number' || !OPTION_TYPES.has(option.type))
      throw invalid(`${index}.options.${j}.type: not simulated`);
    const optionDescription = str(option.description) ?? '';
    if (optionDescription.length < 1 || optionDescription.length > 100)
      throw invalid(`${index}.options.${j}.description: must be 1-100 characters`);
    return {
      type: option.type,
      name: optionName,
      description: optionDescription,
      required: option.required === true,
      ...(typeof option.max_length === 'number' ? { max_length: option.max_length } : {}),
      name_localizations: parseLocalizations(
        option.name_localizations,
        `${index}.options.${j}.name_localizations`,
        nameProblem,
      ),
      description_localizations: parseLocalizations(
        option.description_localizations,
        `${index}.options.${j}.description_localizations`,
        descriptionProblem,
      ),
    };
  });
  checkOptionLocalizations(options, index);
  // integration_types: 0 guild install, 1 user install (default: guild install only, as an app whose
  // installation settings allow only guild installs); contexts: 0 guild, 1 bot DM, 2 private channels
  // (null: every context the install types allow). Both are for global commands only.
  const integrationTypes = body.integration_types ?? [0];
  if (
    !Array.isArray(integrationTypes) ||
    integrationTypes.length === 0 ||
    integrationTypes.some((t) => t !== 0 && t !== 1) ||
    new Set(integrationTypes).size !== integrationTypes.length
  )
    throw invalid(`${index}.integration_types: must be unique values of 0 (guild) and 1 (user)`);
  const rawContexts = body.contexts ?? null;
  if (
    rawContexts !== null &&
    (!Array.isArray(rawContexts) ||
      rawContexts.some((c) => c !== 0 && c !== 1 && c !== 2) ||
      new Set(rawContexts).size !== rawContexts.length)
  )
    throw invalid(`${index}.contexts: must be unique values of 0, 1 and 2`);
  const contexts = rawContexts as number[] | null;
  return {
    type: 1,
    name,
    description,
    name_localizations: nameLocalizations,
    description_localizations: descriptionLocalizations,
    options,
    default_member_permissions: str(body.default_member_permissions) ?? null,
    contexts,
    integration_types: integrationTypes as number[],
    nsfw: body.nsfw === true,
  };
}

/** Discord's checks on a message body; returns the normalized parts. */
export function validateMessage(
  body: Record<string, unknown>,
  opts: { requireContent: boolean },
): { content?: string; embeds?: SimEmbed[]; components?: SimActionRow[]; flags?: number } {
  const out: { content?: string; embeds?: SimEmbed[]; components?: SimActionRow[]; flags?: number } = {};
  if (body.content !== undefined && body.content !== null) {
    if (typeof body.content !== 'string') throw invalid('content: must be a string');
    if (body.content.length > 2000) throw invalid('content: Must be 2000 or fewer in length.');
    out.content = body.content;
  }
  if (body.embeds !== undefined && body.embeds !== null) {
    if (!Array.isArray(body.embeds)) throw invalid('embeds: must be an array');
    if (body.embeds.length > 10) throw invalid('embeds: Must be 10 or fewer in length.');
    let total = 0;
    out.embeds = (body.embeds as unknown[]).map((e, i) => {
      const embed = (e ?? {}) as SimEmbed;
      const limit = (value: unknown, max: number, what: string): void => {
        if (value === undefined || value === null) return;
        if (typeof value !== 'string') throw invalid(`embeds.${i}.${what}: must be a string`);
        if (value.length > max) throw invalid(`embeds.${i}.${what}: Must be ${max} or fewer in length.`);
        total += value.length;
      };
      limit(embed.title, 256, 'title');
      limit(embed.description, 4096, 'description');
      limit(embed.footer?.text, 2048, 'footer.text');
      limit(embed.author?.name, 256, 'author.name');
      const fields = embed.fields ?? [];
      if (fields.length > 25) throw invalid(`embeds.${i}.fields: Must be 25 or fewer in length.`);
      fields.forEach((f, j) => {
        if (!f.name || !f.value) throw invalid(`embeds.${i}.fields.${j}: name and value are required`);
        limit(f.name, 256, `fields.${j}.name`);
        limit(f.value, 1024, `fields.${j}.value`);
      });
      return embed;
    });
    if (total > 6000) throw invalid('embeds: Embed size exceeds maximum size of 6000');
  }
  if (body.components !== undefined && body.components !== null) {
    if (!Array.isArray(body.components)) throw invalid('components: must be an array');
    if (body.components.length > 5) throw invalid('components: Must be 5 or fewer in length.');
    const ids = new Set<string>();
    out.components = (body.components as unknown[]).map((r, i) => {
      const row = (r ?? {}) as { type?: unknown; components?: unknown };
      if (row.type !== 1 || !Array.isArray(row.components))
        throw invalid(`components.${i}: must be an action row`);
      if (row.components.length < 1 || row.components.length > 5)
        throw invalid(`components.${i}.components: Must be between 1 and 5 in length.`);
      const buttons = (row.components as unknown[]).map((c, j) => {
        const button = (c ?? {}) as SimButton;
        const where = `components.${i}.components.${j}`;
        if (button.type !== 2) throw invalid(`${where}.type: only buttons are simulated`);
        if (typeof button.style !== 'number' || button.style < 1 || button.style > 5)
          throw invalid(`${where}.style: invalid`);
        if (button.label !== undefined && (typeof button.label !== 'string' || button.label.length > 80))
          throw invalid(`${where}.label: Must be 80 or fewer in length.`);
        if (!button.label && !button.emoji) throw invalid(`${where}: a button needs a label or an emoji`);
        if (button.style === 5) {
          if (typeof button.url !== 'string' || button.url.length > 512)
            throw invalid(`${where}.url: required for link buttons`);
          if (button.custom_id !== undefined)
            throw invalid(`${where}.custom_id: not allowed on link buttons`);
        } else {
          const id = button.custom_id;
          if (typeof id !== 'string' || id.length < 1 || id.length > 100)
            throw invalid(`${where}.custom_id: Must be between 1 and 100 in length.`);
          if (ids.has(id)) throw invalid(`${where}.custom_id: Component custom id cannot be duplicated`);
          ids.add(id);
        }
        return button;
      });
      return { type: 1 as const, components: buttons };
    });
  }
  if (body.flags !== undefined && body.flags !== null) {
    if (typeof body.flags !== 'number') throw invalid('flags: must be an integer');
    out.flags = body.flags;
  }
  if (opts.requireContent && !out.content && !(out.embeds?.length ?? 0) && !(out.components?.length ?? 0)) {
    throw new SimError(400, 50006, 'Cannot send an empty message');
  }
  return out;
}

export class SimInteractions {
  settings: InteractionSettings = { ...DEFAULT_INTERACTION_SETTINGS };
  /** Global commands, then per guild. */
  readonly globalCommands = new Map<string, SimCommand>();
  readonly guildCommands = new Map<string, Map<string, SimCommand>>();
  readonly interactions = new Map<string, SimInteraction>();
  readonly messages = new Map<string, SimInteractionMessage>();
  private readonly waiters = new Set<() => void>();

  /** Users who installed the application to their account (a user install, integration type 1). */
  readonly userInstalls = new Set<string>();

  constructor(private readonly host: InteractionHost) {}

  /** The user authorizes the app for their account (OAuth2 with integration_type=1), or removes it. */
  installForUser(userId: string, installed = true): void {
    if (!this.host.getUser(userId)) throw new SimError(404, 10013, 'Unknown User');
    if (installed) this.userInstalls.add(userId);
    else this.userInstalls.delete(userId);
  }

  configure(settings: Partial<InteractionSettings>): void {
    this.settings = { ...this.settings, ...settings };
  }

  reset(): void {
    this.settings = { ...DEFAULT_INTERACTION_SETTINGS };
  }

  // ---- commands -------------------------------------------------------------------------------

  /** PUT /applications/{id}/commands or /applications/{id}/guilds/{guildId}/commands. */
  overwriteCommands(guildId: string | null, body: unknown): SimCommand[] {
    if (!Array.isArray(body)) throw invalid('body: must be an array of commands');
    if (body.length > 100) throw invalid('body: at most 100 chat input commands');
    const parsed = (body as unknown[]).map((raw, i) => parseCommand(raw, i));
    const names = new Set<string>();
    for (const command of parsed) {
      if (names.has(command.name)) throw invalid(`${command.name}: Application command names must be unique`);
      names.add(command.name);
    }
    const existing =
      guildId === null
        ? this.globalCommands
        : (this.guildCommands.get(guildId) ?? new Map<string, SimCommand>());
    const next = new Map<string, SimCommand>();
    for (const command of parsed) {
      const previous = existing.get(command.name);
      next.set(command.name, {
        ...command,
        // Ids survive an overwrite of the same name, as on Discord.
        id: previous?.id ?? generateSnowflake(),
        application_id: this.host.botId,
        ...(guildId === null ? {} : { guild_id: guildId }),
        version: generateSnowflake(),
      });
    }
    if (guildId === null) {
      this.globalCommands.clear();
      for (const [name, command] of next) this.globalCommands.set(name, command);
    } else {
      this.guildCommands.set(guildId, next);
    }
    return [...next.values()];
  }

  listCommands(guildId: string | null): SimCommand[] {
    const commands = guildId === null ? this.globalCommands : this.guildCommands.get(guildId);
    return commands ? [...commands.values()] : [];
  }

  /** The command a user sees under `name` in a guild (guild commands win) or in DMs (global only). */
  findCommand(guildId: string | null, name: string): SimCommand | undefined {
    return (
      (guildId ? this.guildCommands.get(guildId)?.get(name) : undefined) ?? this.globalCommands.get(name)
    );
  }

  // ---- invoking -------------------------------------------------------------------------------

  private userAndPlace(
    userId: string,
    guildId: string | null,
    needBot = true,
  ): { user: SimUser; guild: SimGuild | null } {
    const user = this.host.getUser(userId);
    if (!user || user.bot) throw new SimError(404, 10013, 'Unknown User');
    if (guildId === null) return { user, guild: null };
    const guild = this.host.guilds.get(guildId);
    if (!guild) throw new SimError(404, 10004, 'Unknown Guild');
    if (!guild.members[userId])
      throw new SimError(403, 50001, 'Missing Access: the user is not a member of this server');
    if (needBot && !guild.botJoinedAt)
      throw new SimError(403, 50001, 'Missing Access: the bot is not in this server');
    return { user, guild };
  }

  /**
   * Whether `user` can run `command` in `context` (in `guild` for context 0), and the
   * authorizing_integration_owners Discord then sends: the guild install counts in a guild with the
   * bot and in the bot's DM; the user install everywhere the user is; `contexts` narrows both.
   */
  private ownersFor(
    command: SimCommand,
    userId: string,
    context: InteractionContext,
    guild: SimGuild | null,
  ): Record<string, string> | null {
    if (command.contexts && !command.contexts.includes(context)) return null;
    const owners: Record<string, string> = {};
    const guildScoped = command.guild_id !== undefined;
    if (command.integration_types.includes(0) || guildScoped) {
      if (context === 0 && guild?.botJoinedAt) owners['0'] = guild.id;
      if (context === 1) owners['0'] = '0';
    }
    if (!guildScoped && command.integration_types.includes(1) && this.userInstalls.has(userId))
      owners['1'] = userId;
    return Object.keys(owners).length > 0 ? owners : null;
  }

  private basePayload(
    interaction: SimInteraction,
    user: SimUser,
    guild: SimGuild | null,
  ): Record<string, unknown> {
    const userJson = userObject(user);
    const common = {
      id: interaction.id,
      application_id: this.host.botId,
      type: interaction.type,
      token: interaction.token,
      version: 1,
      app_permissions: '2248473465835073',
      // The language of the user's Discord client (GET /users/@me `locale`; setUserLocale changes it).
      locale: user.locale ?? 'en-US',
      entitlements: [],
      attachment_size_limit: 10_485_760,
    };
    if (!guild) {
      // Context 1: the DM between the user and the bot. Context 2: a group DM of the user's
      // (type 3; the app is not a recipient, only the user install reaches it).
      const channel =
        interaction.context === 2
          ? {
              id: interaction.channelId,
              type: 3,
              name: null,
              last_message_id: null,
              flags: 0,
              recipients: [],
            }
          : { id: interaction.channelId, type: 1, last_message_id: null, flags: 0, recipients: [userJson] };
      return {
        ...common,
        channel_id: interaction.channelId,
        channel,
        user: userJson,
        authorizing_integration_owners: interaction.owners,
        context: interaction.context,
      };
    }
    const membership = guild.members[user.id];
    return {
      ...common,
      guild_id: guild.id,
      guild: { id: guild.id, locale: 'en-US', features: [] },
      guild_locale: 'en-US',
      channel_id: guild.channelId,
      channel: { ...guildChannelObject(guild), permissions: '1071698660929' },
      member: {
        user: userJson,
        nick: null,
        avatar: null,
        banner: null,
        roles: [],
        joined_at: membership?.joinedAt ?? new Date().toISOString(),
        premium_since: null,
        deaf: false,
        mute: false,
        flags: 0,
        pending: false,
        communication_disabled_until: null,
        permissions: user.id === guild.ownerId ? '2251799813685247' : '1071698660929',
      },
      authorizing_integration_owners: interaction.owners,
      context: 0,
    };
  }

  private newInteraction(
    type: number,
    userId: string,
    guild: SimGuild | null,
    commandName: string,
    context: InteractionContext,
    owners: Record<string, string>,
  ): SimInteraction {
    const interaction: SimInteraction = {
      id: generateSnowflake(),
      token: `aW50ZXJhY3Rpb24${randomBytes(48).toString('base64url')}`,
      type,
      userId,
      guildId: guild?.id ?? null,
      channelId: guild?.channelId ?? (context === 2 ? `gdm-${userId}` : `dm-${userId}`),
      commandName,
      context,
      owners,
      createdAt: Date.now(),
      callbacks: [],
      refused: [],
      responseMessageId: null,
      followups: [],
      edits: 0,
    };
    this.interactions.set(interaction.id, interaction);
    this.prune();
    return interaction;
  }

  /**
   * A user runs `/name` with options (strings as typed; converted by the option's type). Dispatches
   * INTERACTION_CREATE and returns the interaction (its responses arrive asynchronously).
   */
  runCommand(input: {
    userId: string;
    guildId: string | null;
    name: string;
    options?: Record<string, unknown>;
    /** Without a guild: 1 the bot's DM (default), 2 a private channel (group DM). */
    privateChannel?: boolean;
  }): SimInteraction {
    const { user, guild } = this.userAndPlace(input.userId, input.guildId, false);
    const context: InteractionContext = guild ? 0 : input.privateChannel ? 2 : 1;
    const command = this.findCommand(input.guildId, input.name.replace(/^\//, ''));
    if (!command) throw new SimError(404, 10063, 'Unknown application command');
    // Discord's client does not offer a command where neither install reaches or `contexts` excludes.
    const owners = this.ownersFor(command, user.id, context, guild);
    if (!owners) {
      if (guild && !guild.botJoinedAt && !this.userInstalls.has(user.id))
        throw new SimError(403, 50001, 'Missing Access: the bot is not in this server');
      throw new SimError(400, 50001, `This command cannot be used here (context ${context})`);
    }
    const options = this.convertOptions(command, input.options ?? {});
    const interaction = this.newInteraction(
      InteractionType.ApplicationCommand,
      user.id,
      guild,
      command.name,
      context,
      owners,
    );
    const payload = {
      ...this.basePayload(interaction, user, guild),
      data: {
        id: command.id,
        name: command.name,
        type: 1,
        ...(options.length > 0 ? { options } : {}),
        ...(command.guild_id ? { guild_id: command.guild_id } : {}),
      },
    };
    this.host.dispatch({ guildId: guild?.id ?? null, payload });
    return interaction;
  }

  private convertOptions(
    command: SimCommand,
    given: Record<string, unknown>,
  ): { name: string; type: number; value: unknown }[] {
    const out: { name: string; type: number; value: unknown }[] = [];
    for (const name of Object.keys(given)) {
      if (!command.options.some((o) => o.name === name)) throw invalid(`options.${name}: unknown option`);
    }
    for (const option of command.options) {
      const raw = given[option.name];
      if (raw === undefined || raw === '') {
        if (option.required) throw invalid(`options.${option.name}: required`);
        continue;
      }
      let value: unknown = raw;
      if (option.type === 4 || option.type === 10) {
        value = Number(raw);
        if (!Number.isFinite(value) || (option.type === 4 && !Number.isInteger(value)))
          throw invalid(`options.${option.name}: must be a number`);
      } else if (option.type === 5) {
        value = raw === true || raw === 'true';
      } else {
        value = typeof raw === 'string' ? raw : JSON.stringify(raw);
        if (option.max_length !== undefined && (value as string).length > option.max_length)
          throw invalid(`options.${option.name}: at most ${option.max_length} characters`);
      }
      out.push({ name: option.name, type: option.type, value });
    }
    return out;
  }

  /** A user presses a button on a message the bot sent through an interaction. */
  pressButton(input: { userId: string; messageId: string; customId: string }): SimInteraction {
    const message = this.messages.get(input.messageId);
    if (!message || message.deleted) throw new SimError(404, 10008, 'Unknown Message');
    if (message.flags & MessageFlag.Ephemeral && message.userId !== input.userId)
      throw new SimError(404, 10008, 'Unknown Message');
    const button = message.components
      .flatMap((r) => r.components)
      .find((b) => b.custom_id === input.customId);
    if (!button) throw invalid('custom_id: no such button on this message');
    if (button.disabled) throw invalid('custom_id: the button is disabled');
    const { user, guild } = this.userAndPlace(input.userId, message.guildId, false);
    const origin = this.interactions.get(message.interactionId);
    const interaction = this.newInteraction(
      InteractionType.MessageComponent,
      user.id,
      guild,
      message.commandName,
      origin?.context ?? (guild ? 0 : 1),
      origin?.owners ?? (guild ? { '0': guild.id } : { '0': '0' }),
    );
    interaction.customId = input.customId;
    interaction.sourceMessageId = message.id;
    const payload = {
      ...this.basePayload(interaction, user, guild),
      data: { custom_id: input.customId, component_type: 2 },
      message: this.messageJson(message),
    };
    this.host.dispatch({ guildId: guild?.id ?? null, payload });
    return interaction;
  }

  // ---- responding -----------------------------------------------------------------------------

  private byToken(applicationId: string, token: string): SimInteraction {
    if (applicationId !== this.host.botId) throw new SimError(404, 10015, 'Unknown Webhook');
    for (const interaction of this.interactions.values()) {
      if (interaction.token === token) {
        if (Date.now() - interaction.createdAt > this.settings.tokenLifetimeMs)
          throw new SimError(401, 50027, 'Invalid Webhook Token');
        return interaction;
      }
    }
    throw new SimError(404, 10015, 'Unknown Webhook');
  }

  /** POST /interactions/{id}/{token}/callback. Returns the callback response object. */
  callback(
    id: string,
    token: string,
    body: unknown,
  ): { interaction: Record<string, unknown>; resource: Record<string, unknown> } {
    const interaction = this.interactions.get(id);
    if (!interaction || interaction.token !== token) throw new SimError(404, 10062, 'Unknown interaction');
    const now = Date.now();
    if (
      interaction.callbacks.length === 0 &&
      now - interaction.createdAt > this.settings.responseDeadlineMs
    ) {
      interaction.refused.push({ code: 10062, at: now });
      this.wake();
      throw new SimError(404, 10062, 'Unknown interaction');
    }
    if (interaction.callbacks.length > 0) {
      interaction.refused.push({ code: 40060, at: now });
      throw new SimError(400, 40060, 'Interaction has already been acknowledged.');
    }
    try {
      return this.respond(interaction, body, now);
    } catch (err) {
      // Recorded so a control call or the demo page can say why the bot's answer did not show.
      if (err instanceof SimError) interaction.refused.push({ code: err.code, at: now });
      throw err;
    }
  }

  private respond(
    interaction: SimInteraction,
    body: unknown,
    now: number,
  ): { interaction: Record<string, unknown>; resource: Record<string, unknown> } {
    const request = (body ?? {}) as { type?: unknown; data?: unknown };
    const type = request.type;
    const data = (request.data && typeof request.data === 'object' ? request.data : {}) as Record<
      string,
      unknown
    >;
    const component = interaction.type === InteractionType.MessageComponent;
    let message: SimInteractionMessage | undefined;
    switch (type) {
      case CallbackType.ChannelMessageWithSource: {
        const parts = validateMessage(data, { requireContent: true });
        message = this.createMessage(interaction, parts, (parts.flags ?? 0) & MessageFlag.Ephemeral);
        interaction.responseMessageId = message.id;
        break;
      }
      case CallbackType.DeferredChannelMessageWithSource: {
        const flags = typeof data.flags === 'number' ? data.flags & MessageFlag.Ephemeral : 0;
        message = this.createMessage(interaction, {}, flags | MessageFlag.Loading);
        interaction.responseMessageId = message.id;
        break;
      }
      case CallbackType.DeferredUpdateMessage:
      case CallbackType.UpdateMessage: {
        if (!component) throw invalid('type: Interaction callback type invalid for this interaction');
        message = this.messages.get(interaction.sourceMessageId ?? '');
        if (!message) throw new SimError(404, 10008, 'Unknown Message');
        if (type === CallbackType.UpdateMessage)
          this.applyEdit(message, validateMessage(data, { requireContent: false }));
        interaction.responseMessageId = message.id;
        break;
      }
      default:
        throw invalid('type: unsupported interaction callback type');
    }
    interaction.callbacks.push({ type, at: now });
    this.wake();
    return {
      interaction: {
        id: interaction.id,
        type: interaction.type,
        response_message_id: message.id,
        response_message_loading: Boolean(message.flags & MessageFlag.Loading),
        response_message_ephemeral: Boolean(message.flags & MessageFlag.Ephemeral),
      },
      resource: {
        type,
        ...(type === CallbackType.ChannelMessageWithSource || type === CallbackType.UpdateMessage
          ? { message: this.messageJson(message) }
          : {}),
      },
    };
  }

  private createMessage(
    interaction: SimInteraction,
    parts: ReturnType<typeof validateMessage>,
    flags: number,
  ): SimInteractionMessage {
    const message: SimInteractionMessage = {
      id: generateSnowflake(),
      interactionId: interaction.id,
      channelId: interaction.channelId,
      guildId: interaction.guildId,
      userId: interaction.userId,
      commandName: interaction.commandName,
      content: parts.content ?? '',
      embeds: parts.embeds ?? [],
      components: parts.components ?? [],
      flags,
      createdAt: new Date().toISOString(),
      editedAt: null,
      deleted: false,
    };
    this.messages.set(message.id, message);
    return message;
  }

  private applyEdit(message: SimInteractionMessage, parts: ReturnType<typeof validateMessage>): void {
    if (parts.content !== undefined) message.content = parts.content;
    if (parts.embeds !== undefined) message.embeds = parts.embeds;
    if (parts.components !== undefined) message.components = parts.components;
    message.flags &= ~MessageFlag.Loading;
    message.editedAt = new Date().toISOString();
    if (!message.content && message.embeds.length === 0 && message.components.length === 0)
      throw new SimError(400, 50006, 'Cannot send an empty message');
  }

  /** The message `messageId` (or @original) of the interaction behind `token`. */
  private webhookMessage(interaction: SimInteraction, messageId: string): SimInteractionMessage {
    const id = messageId === '@original' ? interaction.responseMessageId : messageId;
    const message = id ? this.messages.get(id) : undefined;
    const own = message && (message.interactionId === interaction.id || id === interaction.responseMessageId);
    if (!message || !own || message.deleted) throw new SimError(404, 10008, 'Unknown Message');
    return message;
  }

  getWebhookMessage(applicationId: string, token: string, messageId: string): Record<string, unknown> {
    const interaction = this.byToken(applicationId, token);
    return this.messageJson(this.webhookMessage(interaction, messageId));
  }

  /** PATCH /webhooks/{app}/{token}/messages/{id|@original}. */
  editWebhookMessage(
    applicationId: string,
    token: string,
    messageId: string,
    body: unknown,
  ): Record<string, unknown> {
    const interaction = this.byToken(applicationId, token);
    const message = this.webhookMessage(interaction, messageId);
    const parts = validateMessage((body ?? {}) as Record<string, unknown>, { requireContent: false });
    const before = {
      content: message.content,
      embeds: message.embeds,
      components: message.components,
      flags: message.flags,
    };
    try {
      this.applyEdit(message, parts);
    } catch (err) {
      Object.assign(message, before);
      throw err;
    }
    if (message.id === interaction.responseMessageId) interaction.edits += 1;
    this.wake();
    return this.messageJson(message);
  }

  deleteWebhookMessage(applicationId: string, token: string, messageId: string): void {
    const interaction = this.byToken(applicationId, token);
    this.webhookMessage(interaction, messageId).deleted = true;
    this.wake();
  }

  /** POST /webhooks/{app}/{token}: a follow-up message. */
  followUp(applicationId: string, token: string, body: unknown): Record<string, unknown> {
    const interaction = this.byToken(applicationId, token);
    if (interaction.callbacks.length === 0) throw new SimError(404, 10015, 'Unknown Webhook');
    const parts = validateMessage((body ?? {}) as Record<string, unknown>, { requireContent: true });
    const message = this.createMessage(interaction, parts, (parts.flags ?? 0) & MessageFlag.Ephemeral);
    interaction.followups.push(message.id);
    this.wake();
    return this.messageJson(message);
  }

  // ---- views ----------------------------------------------------------------------------------

  messageJson(message: SimInteractionMessage): Record<string, unknown> {
    const interaction = this.interactions.get(message.interactionId);
    const user = this.host.getUser(message.userId);
    return {
      ...messagePayload(this.host.botUser, {
        ...message,
        type: interaction?.type === InteractionType.ApplicationCommand ? 20 : 0,
        embeds: message.embeds,
        components: message.components as APIMessage['components'],
      }),
      application_id: this.host.botId,
      webhook_id: this.host.botId,
      interaction_metadata: interaction
        ? {
            id: interaction.id,
            type: interaction.type,
            user: user ? userObject(user) : null,
            authorizing_integration_owners: {},
          }
        : undefined,
    };
  }

  /** Messages of a guild (or DM channel of a user) that `viewerId` can see, oldest first. */
  visibleMessages(guildId: string | null, viewerId: string | null, limit = 30): SimInteractionMessage[] {
    return [...this.messages.values()]
      .filter(
        (m) =>
          !m.deleted &&
          m.guildId === guildId &&
          (!(m.flags & MessageFlag.Ephemeral) || viewerId === null || m.userId === viewerId),
      )
      .slice(-limit);
  }

  /** Resolves when the interaction has a complete answer (or `ms` passed). */
  async settle(interaction: SimInteraction, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!isSettled(interaction) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.max(1, deadline - Date.now()));
        this.waiters.add(wake);
      });
    }
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Keeps memory bounded in a long demo: interactions older than their token lifetime go. */
  private prune(): void {
    if (this.interactions.size < 2000) return;
    const cutoff = Date.now() - this.settings.tokenLifetimeMs;
    for (const [id, interaction] of this.interactions)
      if (interaction.createdAt < cutoff) this.interactions.delete(id);
    if (this.messages.size > 2000) {
      const keep = [...this.messages.entries()].slice(-1000);
      this.messages.clear();
      for (const [id, message] of keep) this.messages.set(id, message);
    }
  }
}

/** Answered for good: a message or an update, or a deferral followed by an edit, or refused as late. */
export function isSettled(interaction: SimInteraction): boolean {
  if (interaction.refused.some((r) => r.code === 10062)) return true;
  const first = interaction.callbacks[0]?.type;
  if (first === CallbackType.ChannelMessageWithSource || first === CallbackType.UpdateMessage) return true;
  if (first === CallbackType.DeferredChannelMessageWithSource || first === CallbackType.DeferredUpdateMessage)
    return interaction.edits > 0 || interaction.followups.length > 0;
  return false;
}
