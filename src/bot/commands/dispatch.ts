import type { Interaction } from 'discord.js';
import type { AppContext } from '../../context.ts';
import { recordBotEvent } from '../../metrics.ts';
import { SLASH_COMMANDS, USER_INSTALLABLE, findButtonAction } from './index.ts';
import { findMember } from './member.ts';
import { errorReply, isDiscordRefusal, notSignedInReply } from './replies.ts';
import { Responder } from './responder.ts';
import type { BotReply, Member } from './types.ts';
import { botWriteLimiter } from './write-limit.ts';
import type { WriteAction } from '../../http/write-limits.ts';
import { whilePersonWaits } from '../../discord/discord-api.ts';
import { PRODUCT_NAME } from '../../shared/brand.ts';
import { interactionLocale, tFor } from './format.ts';
import { errorMessage } from '../../ops/error-text.ts';

export interface InteractionOptions {
  /** A handler not done after this long is deferred for it (Discord's deadline is 3 s). */
  autoDeferMs: number;
}

export const DEFAULT_AUTO_DEFER_MS = 1500;

interface Target {
  what: string;
  mode: 'reply' | 'update';
  slow: boolean;
  needsAccount: boolean;
  writes: WriteAction | undefined;
  run(member: Member | null): Promise<BotReply> | BotReply;
}

function targetOf(ctx: AppContext, interaction: Interaction): Target | null {
  if (interaction.isChatInputCommand()) {
    const command = SLASH_COMMANDS.get(interaction.commandName);
    if (!command) return null;
    // Owner commands are registered for servers only (index.ts); a client that still offers one in a
    // DM, a group DM or a server without the bot gets a clear answer instead of a half-working one.
    if (!USER_INSTALLABLE.has(interaction.commandName) && !botInGuild(interaction))
      return answerWith(
        `/${interaction.commandName}`,
        tFor(interaction)('dispatch.guildOnly', { command: interaction.commandName, product: PRODUCT_NAME }),
      );
    return {
      what: `/${interaction.commandName}`,
      mode: 'reply',
      slow: command.slow ?? false,
      needsAccount: command.needsAccount,
      writes: command.writes,
      run: (member) => command.run(ctx, member, interaction),
    };
  }
  if (interaction.isButton()) {
    const found = findButtonAction(interaction.customId);
    if (!found) return null;
    const { action, args } = found;
    return {
      what: `button ${action.name}`,
      mode: action.mode,
      slow: action.slow ?? false,
      needsAccount: true,
      writes: action.writes,
      run: (member) => action.run(ctx, member!, args, interaction),
    };
  }
  return null;
}

/** In a server where the bot is installed (not a DM, a group DM or a server reached by a user install). */
function botInGuild(interaction: Interaction): boolean {
  // authorizing_integration_owners['0'] is the guild id when the guild install reached the command.
  return (
    interaction.guildId !== null && interaction.authorizingIntegrationOwners.guildId === interaction.guildId
  );
}

/** A command Discord still lists but this version no longer has, or a button of an older message. */
function gone(interaction: Pick<Interaction, 'locale'>, what: 'command' | 'button'): Target {
  const t = tFor(interaction);
  return answerWith(
    `unknown ${what}`,
    t(what === 'command' ? 'dispatch.goneCommand' : 'dispatch.goneButton', { help: t('commands.help.name') }),
  );
}

/** A target that only says something, to anyone (no account, no write). */
function answerWith(what: string, content: string): Target {
  return {
    what,
    mode: 'reply',
    slow: false,
    needsAccount: false,
    writes: undefined,
    run: () => ({ content }),
  };
}

/**
 * Answers one slash command or button press: finds the member's website account (or says how to
 * sign in), runs the handler — which calls the same service functions as the API routes — and sends
 * the reply within Discord's deadline. Never throws.
 */
export async function handleInteraction(
  ctx: AppContext,
  interaction: Interaction,
  options: InteractionOptions,
): Promise<void> {
  if (!(interaction.isChatInputCommand() || interaction.isButton())) return;
  const target =
    targetOf(ctx, interaction) ?? gone(interaction, interaction.isButton() ? 'button' : 'command');
  // Replies are in the language of the member's Discord client (the interaction's `locale`).
  const locale = interactionLocale(interaction);
  const responder = new Responder(interaction, target.mode, true);
  const metric = `interaction_${target.what.replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '')}`;
  try {
    if (target.slow) await responder.defer();
    else responder.deferAfter(options.autoDeferMs);
    const member = await findMember(ctx, interaction.user.id);
    let reply: BotReply;
    if (target.needsAccount && !member) {
      reply = notSignedInReply(ctx, locale);
    } else {
      if (member && target.writes) botWriteLimiter(ctx).take(member.userId, target.writes);
      // The member waits: Discord calls inside get a deadline and fail as "Discord is busy" past it.
      reply = await whilePersonWaits(() => target.run(member));
    }
    await responder.send(reply);
    recordBotEvent(metric, 'ok');
  } catch (err) {
    recordBotEvent(metric, 'failed');
    if (isDiscordRefusal(err)) {
      // Too late (10062), answered twice (40060) or refused: the member sees "did not respond".
      ctx.logger.warn('bot: Discord refused an interaction answer', {
        what: target.what,
        code: err.code,
        error: err.message,
      });
      return;
    }
    try {
      await responder.sendError(errorReply(ctx, err, target.what, locale));
    } catch (sendErr) {
      ctx.logger.warn('bot: could not send an error reply', {
        what: target.what,
        error: errorMessage(sendErr),
      });
    }
  } finally {
    responder.dispose();
  }
}
