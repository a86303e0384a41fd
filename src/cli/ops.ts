// Operator CLI for the payments ledger at 3 a.m. (issue 29): `npm run ops -- <command>` against the
// server's database (DATABASE_URL's PostgreSQL when set, else the SQLite file at DATABASE_PATH).
//   held list                                        removals the reconciliation safety valve holds back
//   held charge  <guildId> <discordUserId> --reason "…"   charge as a voluntary leave (when first absent)
//   held release <guildId> <discordUserId> --reason "…"   record as left, nothing charged
//   stripe-reconcile [--since YYYY-MM-DD]             settle Stripe's intents, refunds and disputes since then
// Every action is logged (JSON, with the reason) and goes through the ledger's own paths.
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { runCli } from './run.ts';
import { openCliStore } from './open-store.ts';
import { createMemoryEventBus } from '../events/event-bus.ts';
import { createLogger } from '../logger.ts';
import { chargeHeld, listHeld, NotHeldError, releaseHeld } from '../bot/held-joins.ts';
import { reconcileStripe } from '../payments/reconcile-stripe.ts';
import { createStripeClient } from '../payments/stripe-client.ts';

const USAGE = `Usage:
  npm run ops -- held list
  npm run ops -- held charge <guildId> <discordUserId> --reason "why"
  npm run ops -- held release <guildId> <discordUserId> --reason "why"
  npm run ops -- stripe-reconcile [--since YYYY-MM-DD]`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { reason: { type: 'string' }, since: { type: 'string' } },
  });
  const [command, sub, guildId, discordUserId] = positionals;
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel === 'silent' ? 'silent' : 'info', undefined, {
    format: 'json',
  });
  const store = await openCliStore(config.database);
  const ctx = {
    store,
    logger,
    clock: systemClock,
    events: createMemoryEventBus(logger),
    stripe: createStripeClient(config),
  };
  try {
    if (command === 'held' && sub === 'list') {
      const held = await listHeld(store.read);
      if (held.length === 0) console.log('No removals held back.');
      for (const h of held)
        console.log(
          `${h.guildId} ${h.discordUserId} first absent ${new Date(h.firstAbsentAt).toISOString()}, held by ${h.holds} run(s), last ${new Date(h.lastAbsentAt).toISOString()}`,
        );
      return 0;
    }
    if (command === 'held' && (sub === 'charge' || sub === 'release')) {
      if (!guildId || !discordUserId || !values.reason?.trim()) {
        console.error(`${USAGE}\n(a guild id, a Discord user id and --reason are required)`);
        return 2;
      }
      const hold = { guildId, discordUserId };
      const result =
        sub === 'charge'
          ? await chargeHeld(ctx, hold, values.reason.trim())
          : await releaseHeld(ctx, hold, values.reason.trim());
      console.log(
        `${sub === 'charge' ? 'Charged' : 'Released'}: ${result.recorded} join(s) recorded as left, ${result.penalized} penalised.`,
      );
      return 0;
    }
    if (command === 'stripe-reconcile') {
      if (!ctx.stripe) {
        console.error('Payments are not configured (STRIPE_SECRET_KEY).');
        return 1;
      }
      const since = values.since ? Date.parse(values.since) : undefined;
      if (since !== undefined && Number.isNaN(since)) {
        console.error(`--since: not a date: ${values.since}`);
        return 2;
      }
      const result = await reconcileStripe(ctx, since === undefined ? {} : { sinceMs: since });
      console.log(JSON.stringify(result));
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await store.close();
  }
}

await runCli(main, [NotHeldError]);
