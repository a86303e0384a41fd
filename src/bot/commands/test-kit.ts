import type { APIEmbed } from 'discord.js';
import { pressButtonAndWait, runCommandAndWait, type InteractionOutcome } from '../../sim/discord/index.ts';
import type { TestApp, TestClient } from '../../test/harness.ts';
import { waitFor } from '../bot-test-kit.ts';
import { SLASH_COMMANDS } from './index.ts';

// Test helpers for slash commands: a simulated user types a command (or presses a button) in the
// Discord simulator, discord.js receives INTERACTION_CREATE, and the bot answers over REST.

export interface SimMessageJson {
  id: string;
  content: string;
  flags: number;
  embeds: APIEmbed[];
  components: {
    type: number;
    components: {
      type: number;
      style: number;
      label?: string;
      custom_id?: string;
      url?: string;
      disabled?: boolean;
    }[];
  }[];
}

export const EPHEMERAL = 1 << 6;

/** Resolves once the bot has registered every command globally. */
export async function commandsRegistered(app: TestApp): Promise<void> {
  await waitFor(
    () => app.sim.state.interactions.listCommands(null).length === SLASH_COMMANDS.size,
    5000,
    'slash commands',
  );
}

/** A guild with the bot where `members` can type commands. */
export function createLobby(app: TestApp, owner: TestClient | string, members: (TestClient | string)[] = []) {
  const discordId = (m: TestClient | string) => (typeof m === 'string' ? m : m.user!.discordId);
  const guild = app.sim.state.createGuild({
    name: `Lobby ${Math.random().toString(36).slice(2, 7)}`,
    ownerId: discordId(owner),
  });
  for (const member of members) app.sim.state.addMember(guild.id, discordId(member));
  return guild;
}

export async function run(
  app: TestApp,
  user: TestClient | string,
  command: string,
  opts: {
    guildId?: string | null;
    options?: Record<string, string | number | boolean>;
    waitMs?: number;
    /** Without a guild: a private channel (group DM, context 2) instead of the bot's DM. */
    privateChannel?: boolean;
  } = {},
): Promise<InteractionOutcome & { reply: SimMessageJson }> {
  // /farm and its buttons read Discover's list: a member's command comes after what was just written.
  await app.discoverSettled();
  const outcome = await runCommandAndWait(app.sim.state, {
    userId: typeof user === 'string' ? user : user.user!.discordId,
    guildId: opts.guildId ?? null,
    command,
    options: opts.options,
    waitMs: opts.waitMs ?? 10_000,
    privateChannel: opts.privateChannel,
  });
  return { ...outcome, reply: outcome.message as unknown as SimMessageJson };
}

export async function press(
  app: TestApp,
  user: TestClient | string,
  message: SimMessageJson,
  customId: string,
  waitMs = 10_000,
): Promise<InteractionOutcome & { reply: SimMessageJson; followup: SimMessageJson | undefined }> {
  await app.discoverSettled();
  const outcome = await pressButtonAndWait(app.sim.state, {
    userId: typeof user === 'string' ? user : user.user!.discordId,
    messageId: message.id,
    customId,
    waitMs,
  });
  return {
    ...outcome,
    reply: outcome.message as unknown as SimMessageJson,
    followup: outcome.followups[0] as unknown as SimMessageJson | undefined,
  };
}

/** Every button of a message, flattened. */
export function buttons(message: SimMessageJson) {
  return message.components.flatMap((r) => r.components);
}

/** Title, description and fields of the first embed as one text (for `toContain`). */
export function text(message: SimMessageJson): string {
  const parts = [message.content];
  for (const e of message.embeds) {
    parts.push(
      e.title ?? '',
      e.description ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
      e.footer?.text ?? '',
    );
  }
  return parts.join('\n');
}
