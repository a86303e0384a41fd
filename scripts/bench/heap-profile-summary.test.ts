import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { formatHeapProfile, summarizeHeapProfile } from './heap-profile-summary.ts';

// `npm run bench -- --heap-profile` diagnoses what fills the old generation under load (issue 18: the
// Discover runs with major GCs). It relies on V8 dropping the samples of objects a scavenge freed. This
// checks that on the Node we run, with the profiler settings InspectorProfiler.startHeapSampling uses,
// in a plain node process (as the product runs), and the summary the bench prints from the file.

const WORKLOAD = `
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
const [file, minor] = process.argv.slice(1);
const kept = [];
function keepForLater() {
  for (let i = 0; i < 1000; i++) kept.push(new Array(1000).fill(i));
}
function throwAway() {
  let total = 0;
  for (let i = 0; i < 20000; i++) total += new Array(1000).fill(i).length;
  return total;
}
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 4096,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: minor === 'true',
});
keepForLater();
throwAway();
const { profile } = await session.post('HeapProfiler.stopSampling');
writeFileSync(file, JSON.stringify(profile));
`;

it('keeps what survived a scavenge and drops most of what died young', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'coinsync-heap-profile-'));
  try {
    const profileOf = (includeMinor: boolean) => {
      const file = path.join(dir, `${includeMinor}.heapprofile`);
      const run = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', WORKLOAD, file, String(includeMinor)],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      const summary = summarizeHeapProfile(file, 50);
      // A row is an allocating frame with the two frames that called it.
      const bytesIn = (name: string) =>
        summary.byStack.filter((r) => r.stack.includes(name)).reduce((sum, r) => sum + r.bytes, 0);
      return { summary, kept: bytesIn('keepForLater'), garbage: bytesIn('throwAway') };
    };
    const everything = profileOf(true);
    const survivors = profileOf(false);

    // Everything sampled: the garbage (20 times the bytes kept, ~160 MB) leads. Survivors only: most of
    // it is gone (what remains was alive at a scavenge), what was kept is all there.
    expect(everything.kept).toBeGreaterThan(4 * 1024 * 1024);
    expect(everything.garbage).toBeGreaterThan(everything.kept * 4);
    expect(everything.summary.byStack[0]!.stack).toContain('throwAway');
    expect(survivors.garbage).toBeLessThan(everything.garbage / 4);
    expect(survivors.kept).toBeGreaterThan(everything.kept / 2);

    // Largest first, and each printed line gives the size, the share and the stack.
    const sizes = survivors.summary.byStack.map((r) => r.bytes);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const lines = formatHeapProfile(survivors.summary);
    for (const line of lines) expect(line).toMatch(/^\s+\d+ kB\s+[\d.]+ % {2}\S/);
    expect(lines.some((line) => line.includes('keepForLater'))).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
