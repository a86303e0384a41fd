import { describe, expect, it } from 'vitest';
import { ACTOR_TYPES, QUICK_OPTIONS, runPopulation } from './population.ts';
import { formatReport } from './report.ts';

// Issue 12 item 9, decision 024: `npm run simulate -- --quick` inside the unit loop. The population runs
// through the real product and the Discord simulator; the test fails when any abuser type got anything
// beyond the honest faucet, when an abuse attempt was accepted, or when an invariant broke. Its numbers
// are coins, never durations (the wall-clock cap only bounds the run).

describe('population simulation (quick)', () => {
  it('gives no abuser type anything beyond the honest faucet, and keeps every invariant', async () => {
    // No wall-clock cap here (the test's own timeout bounds it): a loaded machine must not make it prove less.
    const report = await runPopulation({
      ...QUICK_OPTIONS,
      seed: 1,
      wallClockCapMs: Number.POSITIVE_INFINITY,
    });
    const table = formatReport(report);
    expect(
      report.checks.filter((c) => !c.ok),
      table,
    ).toEqual([]);
    // Every actor type took part, and every abuser type really tried its abuse.
    for (const type of ACTOR_TYPES) {
      const row = report.rows.find((r) => r.type === type)!;
      expect(row.accounts, `${type} accounts`).toBeGreaterThan(0);
      if (type !== 'honest_member' && type !== 'honest_owner')
        expect(row.abuseAttempts, `${type} attempts`).toBeGreaterThan(0);
    }
  }, 300_000);
});
