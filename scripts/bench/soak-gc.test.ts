import { expect, it } from 'vitest';
import { GC_DURATION_BUCKETS } from '../../src/metrics.ts';
import { gcBetween, gcCountsOf } from './soak.ts';

// The soak day's GC figures per window come from the product's GC histogram: the pauses of at least 20
// and 50 ms are the counts above those buckets, which the product must therefore have.

function metricsText(kinds: Record<string, number[]>): string {
  const lines: string[] = [];
  for (const [kind, pauses] of Object.entries(kinds)) {
    for (const le of GC_DURATION_BUCKETS)
      lines.push(
        `coinsync_nodejs_gc_duration_seconds_bucket{le="${le}",kind="${kind}"} ${pauses.filter((p) => p <= le).length}`,
      );
    lines.push(`coinsync_nodejs_gc_duration_seconds_bucket{le="+Inf",kind="${kind}"} ${pauses.length}`);
    lines.push(
      `coinsync_nodejs_gc_duration_seconds_sum{kind="${kind}"} ${pauses.reduce((s, p) => s + p, 0)}`,
    );
    lines.push(`coinsync_nodejs_gc_duration_seconds_count{kind="${kind}"} ${pauses.length}`);
  }
  return lines.join('\n');
}

it('counts a window’s scavenges, major GCs and the pauses of at least 20 and 50 ms', () => {
  expect(GC_DURATION_BUCKETS).toEqual(expect.arrayContaining([0.02, 0.05]));
  const before = gcCountsOf(metricsText({ minor: [0.004, 0.03], major: [0.06] }));
  const after = gcCountsOf(
    metricsText({
      minor: [0.004, 0.03, 0.002, 0.021, 0.019],
      major: [0.06, 0.055],
      incremental: [0.001],
    }),
  );
  expect(gcBetween(before, after)).toEqual({
    minor: 3,
    minorMs: 42,
    major: 2,
    majorMs: 56,
    pausesOver20Ms: 2,
    pausesOver50Ms: 1,
  });
});
