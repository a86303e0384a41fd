import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { bonusCommand } from './bonus.ts';
import { campaignCommand } from './campaign.ts';
import { coinsCommand } from './coins.ts';
import { dailyCommand } from './daily.ts';
import { farmClaimButton, farmCommand, farmJoinButton, farmPageButton } from './farm.ts';
import { helpCommand } from './help.ts';
import { hourlyCommand } from './hourly.ts';
import { joinsCommand } from './joins.ts';
import { remindCommand } from './remind.ts';
import type { ButtonAction, SlashCommand } from './types.ts';

// Every slash command and button the bot answers: one file each, listed here once. Registration
// (register.ts) and dispatch (dispatch.ts) both read these maps.

export const SLASH_COMMANDS: ReadonlyMap<string, SlashCommand> = new Map(
  [
    coinsCommand,
    hourlyCommand,
    bonusCommand,
    dailyCommand,
    farmCommand,
    joinsCommand,
    campaignCommand,
    remindCommand,
    helpCommand,
  ].map((c) => [c.definition.name, c]),
);

export const BUTTON_ACTIONS: ReadonlyMap<string, ButtonAction> = new Map(
  [farmPageButton, farmJoinButton, farmClaimButton].map((b) => [b.name, b]),
);

/**
 * Member commands, installable to a user account as well as to servers (issue 32 item 1): they work in
 * any server, in the bot's DM and in private channels, and read nothing but the member's own account
 * (interaction.user). Owner commands (/campaign) stay guild-installed and guild-only.
 */
export const USER_INSTALLABLE: ReadonlySet<string> = new Set([
  'coins',
  'hourly',
  'bonus',
  'daily',
  'joins',
  'farm',
  'remind',
  'help',
]);

// Discord's integration types (0 guild install, 1 user install) and interaction contexts (0 guild,
// 1 bot DM, 2 private channels).
const EVERYWHERE = { integration_types: [0, 1], contexts: [0, 1, 2] };
const GUILD_ONLY = { integration_types: [0], contexts: [0] };

/**
 * The JSON bodies of PUT /applications/{id}/commands. `integration_types` and `contexts` apply to
 * global commands only: the demo's per-guild copies (`global: false`) go without them.
 */
export function commandDefinitions({
  global = true,
} = {}): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return [...SLASH_COMMANDS.values()].map((c) =>
    global
      ? { ...c.definition, ...(USER_INSTALLABLE.has(c.definition.name) ? EVERYWHERE : GUILD_ONLY) }
      : c.definition,
  );
}

/** `farm:join:<id>` → the `farm:join` action and its arguments. */
export function findButtonAction(customId: string): { action: ButtonAction; args: string[] } | null {
  const parts = customId.split(':');
  const action = BUTTON_ACTIONS.get(parts.slice(0, 2).join(':'));
  return action ? { action, args: parts.slice(2) } : null;
}
