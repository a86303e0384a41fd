import { BENCH_METRICS_TOKEN } from './processes.ts';
import { round, type LoadResult } from './load.ts';

// Garbage collection during a measured run, from the product's own /metrics (prom-client's
// nodejs_gc_duration_seconds histogram, by kind). Session 7 found Discover's CPU per request bimodal on
// a quiet machine, and the perf profiles of the slow runs full of V8's major GC: the report prints the
// GC each run did, so that a slow run shows its cause instead of needing a profile.

/** Collections and their total pause time during a run: minor = scavenges; major = mark-compact and incremental marking. */
export interface GcDuring {
  minor: { count: number; ms: number };
  major: { count: number; ms: number };
}

type GcTotals = Record<'minor' | 'major', { count: number; seconds: number }>;

const LINE = /^coinsync_nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([\d.eE+-]+)$/;

/** The product's GC totals so far, or null when /metrics does not answer. */
export async function readGcTotals(baseUrl: string): Promise<GcTotals | null> {
  try {
    const text = await (
      await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })
    ).text();
    const totals: GcTotals = { minor: { count: 0, seconds: 0 }, major: { count: 0, seconds: 0 } };
    let seen = false;
    for (const line of text.split('\n')) {
      const m = LINE.exec(line);
      if (!m) continue;
      const [, field, kind, value] = m;
      // weakcb (weak callbacks) is neither; incremental marking steps belong to a major collection.
      const bucket =
        kind === 'minor' ? totals.minor : kind === 'major' || kind === 'incremental' ? totals.major : null;
      if (!bucket) continue;
      seen = true;
      if (field === 'count') bucket.count += Number(value);
      else bucket.seconds += Number(value);
    }
    return seen ? totals : null;
  } catch {
    return null;
  }
}

/** Runs `work` and sets `result.gc` to the GC the product at `baseUrl` did meanwhile. */
export async function withGc(baseUrl: string, work: () => Promise<LoadResult>): Promise<LoadResult> {
  const before = await readGcTotals(baseUrl);
  const result = await work();
  const after = await readGcTotals(baseUrl);
  result.gc =
    before && after
      ? {
          minor: {
            count: after.minor.count - before.minor.count,
            ms: round((after.minor.seconds - before.minor.seconds) * 1000, 1),
          },
          major: {
            count: after.major.count - before.major.count,
            ms: round((after.major.seconds - before.major.seconds) * 1000, 1),
          },
        }
      : null;
  return result;
}

/** "GC: 40 minor (85 ms), 2 major (31 ms)" for a report's notes, or '' when unknown. */
export function describeGc(gc: GcDuring | null | undefined): string {
  if (!gc) return '';
  return `GC: ${gc.minor.count} minor (${gc.minor.ms} ms), ${gc.major.count} major (${gc.major.ms} ms)`;
}
