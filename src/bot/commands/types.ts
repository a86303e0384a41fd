import type {
  APIActionRowComponent,
  APIButtonComponent,
  APIEmbed,
  ButtonInteraction,
  ChatInputCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { AppContext } from '../../context.ts';
import type { WriteAction } from '../../http/write-limits.ts';

// The shape every command and button handler shares. Handlers return what to say; dispatch.ts sends
// it (always ephemeral: coins and joins are nobody else's business), fits it to Discord's limits and
// turns thrown errors into replies.

export type ButtonRow = APIActionRowComponent<APIButtonComponent>;

export interface BotReply {
  content?: string;
  embeds?: APIEmbed[];
  components?: ButtonRow[];
}

/** The website account behind a Discord user (the same Discord account signs in on the site). */
export interface Member {
  userId: string;
  discordId: string;
}

export interface SlashCommand {
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** false: answers people who never signed in on the website too (/help). */
  needsAccount: boolean;
  /** Calls Discord or may take long: acknowledge (defer) before running, Discord allows 3 s. */
  slow?: boolean;
  /** A write counted against the website's per-user limit of this kind (write-limit.ts). */
  writes?: WriteAction;
  run(
    ctx: AppContext,
    member: Member | null,
    interaction: ChatInputCommandInteraction,
  ): Promise<BotReply> | BotReply;
}

/** A button handler. custom_id is `<name>:<arg>:<arg>…` (at most 100 characters). */
export interface ButtonAction {
  name: string;
  /** 'reply': a new (ephemeral) message; 'update': edits the message the button sits on. */
  mode: 'reply' | 'update';
  slow?: boolean;
  writes?: WriteAction;
  run(
    ctx: AppContext,
    member: Member,
    args: string[],
    interaction: ButtonInteraction,
  ): Promise<BotReply> | BotReply;
}
