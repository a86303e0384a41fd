import type { NotificationPayload } from './outbox.ts';

// The message a Discord channel webhook posts for an event (decision 052). Plain content: one line an
// owner reads at a glance. The member is shown as a mention, which Discord renders as their name;
// allowed_mentions parses nothing, so neither the member nor @everyone in a campaign name is pinged.

const MAX_NAME = 100;

function slotsLine(c: NotificationPayload['campaign']): string {
  const filled = Math.max(0, c.slots - c.slotsRemaining);
  return `${filled}/${c.slots} slots filled`;
}

export function discordMessageText(p: NotificationPayload): string {
  const name = `**${p.campaign.name.slice(0, MAX_NAME).replace(/[*_~`|>]/g, '\\$&')}**`;
  const member = p.member ? `<@${p.member.discordId}>` : 'A member';
  switch (p.type) {
    case 'join.verified':
      return `✅ ${member} joined ${name} through CoinSync — ${slotsLine(p.campaign)}.`;
    case 'join.left_early':
      return `⚠️ ${member} left ${name} before the minimum stay: the slot is open again (${slotsLine(p.campaign)}).`;
    case 'campaign.completed':
      return `🎉 ${name} is complete: all ${p.campaign.slots} member slots are filled.`;
    case 'campaign.paused':
      return `⏸️ ${name} is paused: our bot is no longer in your server. Add it back to resume the campaign.`;
    case 'campaign.resumed':
      return `▶️ ${name} is running again (${slotsLine(p.campaign)}).`;
    case 'test':
      return `🔔 Test notification for ${name}: this channel will receive the events you chose on CoinSync.`;
  }
}

/** The body of Discord's Execute Webhook (POST /webhooks/{id}/{token}). */
export function discordWebhookBody(p: NotificationPayload): Record<string, unknown> {
  return { content: discordMessageText(p), username: 'CoinSync', allowed_mentions: { parse: [] } };
}
