import { randomBytes } from 'node:crypto';
import { generateSnowflake } from './snowflake.ts';
import { SimError } from './sim-error.ts';
import { validateMessage } from './interactions.ts';
import { userObject } from './payloads.ts';

// Channel webhooks (Discord's "Incoming Webhooks": Server Settings → Integrations → Webhooks). Execute
// Webhook is `POST /webhooks/{webhook.id}/{webhook.token}` with no Authorization header, as on Discord:
//   - 204 No Content, or 200 with the message object when `?wait=true`;
//   - 404 `{code: 10015, message: 'Unknown Webhook'}` for an id Discord does not know, 401
//     `{code: 50027, message: 'Invalid Webhook Token'}` for a known id with another token;
//   - 400 `{code: 50006, message: 'Cannot send an empty message'}` without content or embeds, and the
//     message limits of validateMessage (2000 characters of content, 10 embeds…).
// Simulator extensions (control API, tests and the demo): create one, read what it posted, and make
// its next executions fail with a status (a receiver that fails, to see retries).

export interface SimChannelWebhook {
  id: string;
  token: string;
  guildId: string | null;
  channelId: string;
  name: string;
  messages: { id: string; content: string; username: string | null; createdAt: string }[];
  /** Simulator extension: the next executions answer this status (then it is used up). */
  failNext: { status: number; count: number } | null;
}

export class SimChannelWebhooks {
  readonly byId = new Map<string, SimChannelWebhook>();

  constructor(private readonly now: () => number) {}

  create(input: { guildId?: string | null; channelId?: string; name?: string }): SimChannelWebhook {
    const webhook: SimChannelWebhook = {
      id: generateSnowflake(this.now()),
      token: randomBytes(51).toString('base64url'),
      guildId: input.guildId ?? null,
      channelId: input.channelId ?? generateSnowflake(this.now()),
      name: input.name ?? 'Captain Hook',
      messages: [],
      failNext: null,
    };
    this.byId.set(webhook.id, webhook);
    return webhook;
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  failNext(id: string, status: number, count: number): void {
    const webhook = this.byId.get(id);
    if (!webhook) throw new SimError(404, 10015, 'Unknown Webhook');
    webhook.failNext = count > 0 ? { status, count } : null;
  }

  /** Execute Webhook. Returns the message (the route answers it only with `?wait=true`). */
  execute(id: string, token: string, body: unknown): Record<string, unknown> {
    const webhook = this.byId.get(id);
    if (!webhook) throw new SimError(404, 10015, 'Unknown Webhook');
    if (webhook.token !== token) throw new SimError(401, 50027, 'Invalid Webhook Token');
    if (webhook.failNext) {
      const { status } = webhook.failNext;
      webhook.failNext.count -= 1;
      if (webhook.failNext.count <= 0) webhook.failNext = null;
      throw new SimError(status, 0, status === 429 ? 'You are being rate limited.' : 'Internal Server Error');
    }
    const fields = (body ?? {}) as Record<string, unknown>;
    const parts = validateMessage(fields, { requireContent: false });
    if (!parts.content && !(parts.embeds && parts.embeds.length > 0))
      throw new SimError(400, 50006, 'Cannot send an empty message');
    const username = typeof fields.username === 'string' ? fields.username.slice(0, 80) : null;
    const message = {
      id: generateSnowflake(this.now()),
      content: parts.content ?? '',
      username,
      createdAt: new Date(this.now()).toISOString(),
    };
    webhook.messages.push(message);
    return {
      id: message.id,
      type: 0,
      content: message.content,
      channel_id: webhook.channelId,
      // A webhook message's author is the webhook itself, as a bot user with discriminator 0000.
      author: {
        ...userObject({
          id: webhook.id,
          username: username ?? webhook.name,
          globalName: null,
          avatar: null,
          email: '',
          acceptsDms: false,
          bot: true,
        }),
        discriminator: '0000',
      },
      embeds: parts.embeds ?? [],
      attachments: [],
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
      timestamp: message.createdAt,
      edited_timestamp: null,
      flags: 0,
      components: [],
      webhook_id: webhook.id,
    };
  }
}
