import { MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { fitReply } from './limits.ts';
import type { BotReply } from './types.ts';

type Answerable = ChatInputCommandInteraction | ButtonInteraction;

/**
 * Answers one interaction exactly once, within Discord's 3 seconds: a handler that has not answered
 * after `autoDeferMs` is acknowledged (deferred) for it, and the answer then edits the deferred reply.
 * 'reply' answers with a new message (callback 4, or 5 then an edit); 'update' edits the message the
 * pressed button sits on (callback 7, or 6 then an edit).
 */
export class Responder {
  private deferring: Promise<unknown> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly interaction: Answerable,
    private readonly mode: 'reply' | 'update',
    private readonly ephemeral: boolean,
  ) {}

  /** Defers now (slow handlers call this before touching Discord or anything long). */
  defer(): Promise<unknown> {
    this.clearTimer();
    if (this.deferring) return this.deferring;
    if (this.interaction.deferred || this.interaction.replied) return Promise.resolve();
    this.deferring =
      this.mode === 'update' && this.interaction.isButton()
        ? this.interaction.deferUpdate()
        : this.interaction.deferReply(this.ephemeral ? { flags: MessageFlags.Ephemeral } : {});
    return this.deferring;
  }

  /** Defers automatically if the answer is not ready after `ms`; errors surface on send(). */
  deferAfter(ms: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.defer().catch(() => undefined);
    }, ms);
    this.timer.unref();
  }

  async send(reply: BotReply): Promise<void> {
    this.clearTimer();
    if (this.deferring) await this.deferring;
    const payload = toPayload(reply);
    if (this.interaction.deferred || this.interaction.replied) {
      await this.interaction.editReply(payload);
    } else if (this.mode === 'update' && this.interaction.isButton()) {
      await this.interaction.update(payload);
    } else {
      await this.interaction.reply({
        ...payload,
        flags: this.ephemeral ? MessageFlags.Ephemeral : undefined,
      });
    }
  }

  /**
   * An error as a new ephemeral message. For 'update' handlers the message with the buttons stays as
   * it was (the member can press again); for 'reply' handlers the error is the reply.
   */
  async sendError(reply: BotReply): Promise<void> {
    if (this.mode === 'reply') return this.send(reply);
    this.clearTimer();
    if (this.deferring) await this.deferring.catch(() => undefined);
    const payload = toPayload(reply);
    if (this.interaction.deferred || this.interaction.replied) {
      await this.interaction.followUp({ ...payload, flags: MessageFlags.Ephemeral });
    } else {
      await this.interaction.reply({ ...payload, flags: MessageFlags.Ephemeral });
    }
  }

  dispose(): void {
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** A reply fitted to Discord's limits, every part present (empty where the reply has none). */
function toPayload(reply: BotReply) {
  const body = fitReply(reply);
  return { content: body.content ?? '', embeds: body.embeds ?? [], components: body.components ?? [] };
}
