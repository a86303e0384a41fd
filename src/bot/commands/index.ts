import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { bonusCommand } from './bonus.ts';
import { campaignCommand } from './campaign.ts';
import { coinsCommand } from './coins.ts';
import { dailyCommand } from './daily.ts';
import { farmClaimButton, farmCommand, farmJoinButton, farmPageButton } from './farm.ts';
import { helpCommand } from './help.ts';
import { hourlyCommand } from './hourly.ts';
import { joinsCommand } from './joins.ts';
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
    helpCommand,
  ].map((c) => [c.definition.name, c]),
);

export const BUTTON_ACTIONS: ReadonlyMap<string, ButtonAction> = new Map(
  [farmPageButton, farmJoinButton, farmClaimButton].map((b) => [b.name, b]),
);

/** The JSON bodies of PUT /applications/{id}/commands. */
export function commandDefinitions(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return [...SLASH_COMMANDS.values()].map((c) => c.definition);
}

/** `farm:join:<id>` → the `farm:join` action and its arguments. */
export function findButtonAction(customId: string): { action: ButtonAction; args: string[] } | null {
  const parts = customId.split(':');
  const action = BUTTON_ACTIONS.get(parts.slice(0, 2).join(':'));
  return action ? { action, args: parts.slice(2) } : null;
}
