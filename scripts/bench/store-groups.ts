import { BENCH_METRICS_TOKEN } from './processes.ts';

// The SQLite store's group commits (decision 046, "Session 16") during a run, from the product's own
// /metrics: how many shared transactions, and how many bodies (claims, address records) they held.

export interface StoreGroups {
  groups: number;
  bodies: number;
}

const LINE = /^coinsync_store_group(s_total\{outcome="committed"\}|_bodies_total) ([\d.eE+-]+)$/;

/** The product's group-commit totals so far, or null when /metrics does not answer (or has none). */
export async function readStoreGroups(baseUrl: string): Promise<StoreGroups | null> {
  try {
    const text = await (
      await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })
    ).text();
    const totals: StoreGroups = { groups: 0, bodies: 0 };
    let seen = false;
    for (const line of text.split('\n')) {
      const m = LINE.exec(line);
      if (!m) continue;
      seen = true;
      if (m[1] === '_bodies_total') totals.bodies = Number(m[2]);
      else totals.groups = Number(m[2]);
    }
    return seen ? totals : null;
  } catch {
    return null;
  }
}

/** "5400 claims in 412 group commits (13.1 per commit)" for the log, or a note that the build has none. */
export function describeStoreGroups(before: StoreGroups | null, after: StoreGroups | null): string {
  if (!before || !after) return 'no group commits on /metrics (a build without them)';
  const groups = after.groups - before.groups;
  const bodies = after.bodies - before.bodies;
  return `${bodies} writes in ${groups} group commits (${groups > 0 ? (bodies / groups).toFixed(1) : '-'} per commit)`;
}
