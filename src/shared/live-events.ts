// Events the server pushes to signed-in browsers over Server-Sent Events (GET /api/events, issue 12
// item 7). Shared with the web app; amounts and balances are "12.50" strings like everywhere else.

export type LiveEvent =
  /** The bot verified a website join and credited its reward. */
  | { type: 'join_verified'; serverName: string; amount: string; balance: string }
  /** A no-bot join's reward was claimed (from any tab or the bot's Join button: every tab learns the balance). */
  | { type: 'nobot_reward'; campaignId: string; serverName: string; amount: string; balance: string }
  /** The member left a server before the end of the minimum stay. */
  | { type: 'penalty_charged'; serverName: string; amount: string; balance: string }
  /** A charged leave turned out to be a kick or ban (a late audit-log entry): the penalty came back. */
  | { type: 'penalty_refunded'; serverName: string; amount: string; balance: string }
  /** The owner's campaign took its last member. */
  | { type: 'campaign_completed'; serverName: string; members: number }
  /** A coin pack's payment was credited. */
  | { type: 'payment_credited'; coins: string; balance: string };

/** How often the stream sends a comment line so proxies and browsers keep it open. */
export const LIVE_HEARTBEAT_MS = 25_000;
/** What the browser waits before reconnecting (the SSE `retry:` field). */
export const LIVE_RETRY_MS = 3_000;
