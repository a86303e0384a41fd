import Database from 'better-sqlite3';
import http from 'node:http';
import { round } from './load.ts';

// The rest of a real day beside the soak's request mix (issue 33 item 3): live-event streams held open
// the whole time, members joining campaigns and leaving them again through the Discord simulator (the
// product's bot sees GUILD_MEMBER_ADD / REMOVE over its gateway and verifies, credits and charges), and
// card purchases through the Stripe fake (signed webhooks). Each part counts what it did and what went
// wrong; at the end the database is asked whether every accepted join was credited and every paid
// purchase credited once.

export interface DayActor {
  userId: string;
  discordId: string;
  cookie: string;
}

export interface DayOptions {
  baseUrl: string;
  simUrl: string;
  /** The Stripe fake and the product's secret key for it; null: no purchases. */
  stripe: { url: string; secretKey: string } | null;
  databasePath: string;
  /** Who holds the streams and makes purchases (signed-in sessions). */
  cookies: string[];
  /** Who joins and leaves (their own sessions; kept apart from the request mix's claimers). */
  joiners: DayActor[];
  streams: number;
  joinsPerMinute: number;
  /** Seconds a member stays before leaving again (inside the stay: an early leave, charged). */
  staySeconds: number;
  purchasesPerMinute: number;
  log: (msg: string) => void;
}

export interface DayWindowCounts {
  streamsOpen: number;
  streamEvents: number;
  joins: number;
  leaves: number;
  purchases: number;
}

export interface DayResult {
  streams: { wanted: number; opened: number; maxOpen: number; droppedEarly: number; events: number };
  joins: { accepted: number; refused: Record<string, number>; credited: number; leaves: number };
  purchases: { confirmed: number; failed: Record<string, number>; credited: number };
  /** Failures that should not happen in a healthy day (counted into the soak's unexpected). */
  unexpected: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A distinct client address per 16 streams: the product limits live streams per address (32). */
function streamAddress(i: number): string {
  return `10.77.${Math.floor(i / 16) % 250}.${(i % 16) + 1}`;
}

export class SoakDay {
  private running = false;
  private readonly requests = new Set<http.ClientRequest>();
  private streamsOpen = 0;
  private maxOpen = 0;
  private opened = 0;
  private droppedEarly = 0;
  private events = 0;
  private joinsAccepted = 0;
  private readonly joinRefused: Record<string, number> = {};
  private leaves = 0;
  private confirmed = 0;
  private readonly purchaseFailed: Record<string, number> = {};
  private readonly paidIntents: string[] = [];
  private readonly joinedPairs: { userId: string; campaignId: string }[] = [];
  private unexpected = 0;
  private loops: Promise<void>[] = [];
  private window: DayWindowCounts = { streamsOpen: 0, streamEvents: 0, joins: 0, leaves: 0, purchases: 0 };
  private startedAt = '';

  constructor(private readonly options: DayOptions) {}

  /** Opens the streams (all of them before returning) and starts the join and purchase loops. */
  async start(): Promise<void> {
    this.running = true;
    this.startedAt = new Date().toISOString();
    const batch = 50;
    for (let i = 0; i < this.options.streams; i += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, this.options.streams - i) }, (_, k) => this.openStream(i + k)),
      );
    }
    this.options.log(`day: ${this.streamsOpen} live-event streams open`);
    this.loops = [this.joinLoop(), this.purchaseLoop()];
  }

  /** What happened since the last call (for the soak's 10 s windows). */
  takeWindow(): DayWindowCounts {
    const w = { ...this.window, streamsOpen: this.streamsOpen };
    this.window = { streamsOpen: 0, streamEvents: 0, joins: 0, leaves: 0, purchases: 0 };
    return w;
  }

  async stop(): Promise<DayResult> {
    this.running = false;
    await Promise.all(this.loops);
    for (const req of this.requests) req.destroy();
    // Webhooks and the bot's last verifications land within a few seconds.
    const credited = await this.waitForCredits(15_000);
    return {
      streams: {
        wanted: this.options.streams,
        opened: this.opened,
        maxOpen: this.maxOpen,
        droppedEarly: this.droppedEarly,
        events: this.events,
      },
      joins: {
        accepted: this.joinsAccepted,
        refused: this.joinRefused,
        credited: credited.joins,
        leaves: this.leaves,
      },
      purchases: { confirmed: this.confirmed, failed: this.purchaseFailed, credited: credited.purchases },
      unexpected:
        this.unexpected + (this.joinsAccepted - credited.joins) + (this.confirmed - credited.purchases),
    };
  }

  private openStream(i: number): Promise<void> {
    const url = new URL('/api/events', this.options.baseUrl);
    const cookie = this.options.cookies[i % this.options.cookies.length]!;
    return new Promise((resolve) => {
      let settled = false;
      const settle = () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      const req = http.request(
        url,
        {
          headers: { cookie, accept: 'text/event-stream', 'x-forwarded-for': streamAddress(i) },
          agent: false,
        },
        (res) => {
          if (res.statusCode !== 200) {
            this.unexpected += 1;
            this.options.log(`day: stream ${i} answered ${res.statusCode}`);
            res.resume();
            settle();
            return;
          }
          this.opened += 1;
          this.streamsOpen += 1;
          this.maxOpen = Math.max(this.maxOpen, this.streamsOpen);
          settle();
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            const n = chunk.split('\n\n').length - 1;
            this.events += n;
            this.window.streamEvents += n;
          });
          res.on('close', () => {
            this.streamsOpen -= 1;
            this.requests.delete(req);
            if (this.running) {
              // The product closed a stream nobody asked to close: count it and open another.
              this.droppedEarly += 1;
              this.unexpected += 1;
              void this.openStream(i);
            }
          });
        },
      );
      req.on('error', () => {
        if (this.running) this.unexpected += 1;
        settle();
      });
      this.requests.add(req);
      req.end();
    });
  }

  /** Joins at a steady rate; each member leaves again after `staySeconds` (an early leave). */
  private async joinLoop(): Promise<void> {
    const { joiners, joinsPerMinute } = this.options;
    if (joinsPerMinute <= 0 || joiners.length === 0) return;
    const reader = new Database(this.options.databasePath, { readonly: true, fileMustExist: true });
    const pick = reader.prepare<{ userId: string; offset: number }, { id: string; guildId: string }>(
      `SELECT s.id, s.server_id AS guildId FROM servers s
       WHERE s.members_remaining > 0 AND s.canceled_at IS NULL AND s.invite_valid = 1 AND s.server_id IS NOT NULL
         AND s.owner_id <> @userId
         AND NOT EXISTS (SELECT 1 FROM server_joins j WHERE j.user_id = @userId AND j.server_id = s.id)
       ORDER BY s.rowid LIMIT 1 OFFSET @offset`,
    );
    const gapMs = 60_000 / joinsPerMinute;
    const pending: Promise<void>[] = [];
    let n = 0;
    try {
      while (this.running) {
        const actor = joiners[n % joiners.length]!;
        const campaign = pick.get({ userId: actor.userId, offset: (n * 7) % 40 });
        n += 1;
        if (campaign) pending.push(this.joinAndLeave(actor, campaign));
        await sleep(gapMs);
      }
      await Promise.all(pending);
    } finally {
      reader.close();
    }
  }

  private async joinAndLeave(actor: DayActor, campaign: { id: string; guildId: string }): Promise<void> {
    const join = await fetch(`${this.options.baseUrl}/api/servers/${campaign.id}/join`, {
      method: 'POST',
      headers: { cookie: actor.cookie, 'x-forwarded-proto': 'https' },
    }).catch(() => null);
    if (!join || join.status !== 200) {
      const key = join ? String(join.status) : 'network';
      this.joinRefused[key] = (this.joinRefused[key] ?? 0) + 1;
      // 409: the campaign filled up or the member already joined meanwhile; anything else is a failure.
      if (key !== '409') this.unexpected += 1;
      await join?.arrayBuffer();
      return;
    }
    await join.arrayBuffer();
    const control = `${this.options.simUrl}/control/guilds/${campaign.guildId}/members`;
    const add = await fetch(control, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: actor.discordId }),
    });
    await add.arrayBuffer();
    if (add.status !== 201) {
      this.unexpected += 1;
      return;
    }
    this.joinsAccepted += 1;
    this.window.joins += 1;
    this.joinedPairs.push({ userId: actor.userId, campaignId: campaign.id });
    await sleep(this.options.staySeconds * 1000);
    const leave = await fetch(`${control}/${actor.discordId}?reason=leave`, { method: 'DELETE' });
    await leave.arrayBuffer();
    if (leave.status === 204) {
      this.leaves += 1;
      this.window.leaves += 1;
    } else this.unexpected += 1;
  }

  /** Buys the small pack at a steady rate: create the intent, confirm it at the fake (Stripe.js's part). */
  private async purchaseLoop(): Promise<void> {
    const { stripe, purchasesPerMinute, cookies } = this.options;
    if (!stripe || purchasesPerMinute <= 0) return;
    const gapMs = 60_000 / purchasesPerMinute;
    let n = 0;
    while (this.running) {
      const cookie = cookies[(n * 13) % cookies.length]!;
      n += 1;
      const fail = (why: string) => {
        this.purchaseFailed[why] = (this.purchaseFailed[why] ?? 0) + 1;
        this.unexpected += 1;
      };
      try {
        const created = await fetch(`${this.options.baseUrl}/api/create-payment-intent`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
          body: JSON.stringify({ packageType: 'small' }),
        });
        const body = (await created.json().catch(() => ({}))) as { clientSecret?: string };
        if (created.status !== 200 || !body.clientSecret) fail(`create ${created.status}`);
        else {
          const intentId = body.clientSecret.split('_secret_')[0]!;
          const confirm = await fetch(`${stripe.url}/v1/payment_intents/${intentId}/confirm`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${stripe.secretKey}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: 'payment_method=pm_card_visa',
          });
          await confirm.arrayBuffer();
          if (confirm.status !== 200) fail(`confirm ${confirm.status}`);
          else {
            this.confirmed += 1;
            this.window.purchases += 1;
            this.paidIntents.push(intentId);
          }
        }
      } catch {
        fail('network');
      }
      await sleep(gapMs);
    }
  }

  /** Credits seen in the database for the day's joins and purchases, waiting up to `timeoutMs`. */
  private async waitForCredits(timeoutMs: number): Promise<{ joins: number; purchases: number }> {
    const db = new Database(this.options.databasePath, { readonly: true, fileMustExist: true });
    try {
      const joinCredited = db.prepare<[string, string], { n: number }>(
        `SELECT COUNT(*) AS n FROM server_joins WHERE user_id = ? AND server_id = ? AND coins_awarded = 1`,
      );
      const paid = db.prepare<[string], { n: number }>(
        `SELECT COUNT(*) AS n FROM payments WHERE id = ? AND fulfilled_at IS NOT NULL`,
      );
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const joins = this.joinedPairs.filter(
          (p) => (joinCredited.get(p.userId, p.campaignId)?.n ?? 0) > 0,
        ).length;
        const purchases = this.paidIntents.filter((id) => (paid.get(id)?.n ?? 0) > 0).length;
        if (
          (joins === this.joinedPairs.length && purchases === this.paidIntents.length) ||
          Date.now() > deadline
        )
          return { joins, purchases };
        await sleep(500);
      }
    } finally {
      db.close();
    }
  }

  /** One line for the log and the report. */
  static describe(r: DayResult): string {
    return (
      `streams ${r.streams.opened}/${r.streams.wanted} opened (max open ${r.streams.maxOpen}, dropped early ${r.streams.droppedEarly}, ${r.streams.events} events); ` +
      `joins ${r.joins.accepted} accepted, ${r.joins.credited} credited, ${r.joins.leaves} early leaves, refused ${JSON.stringify(r.joins.refused)}; ` +
      `purchases ${r.purchases.confirmed} paid, ${r.purchases.credited} credited, failed ${JSON.stringify(r.purchases.failed)}; unexpected ${r.unexpected}`
    );
  }

  get since(): string {
    return this.startedAt;
  }
}

export const roundMb = (bytes: number) => round(bytes / 1024 / 1024, 1);
