import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The render worker's heap under production's process-wide V8 flags (decision 027, session 13): the flags
// must stop reaching the worker, which then takes its own resourceLimits, while the main isolate keeps
// what the flags gave it. Run in a child process started with production's heap flags.

const CHILD = `
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
const { releaseProcessHeapFlags, RENDERER_HEAP } = await import('./src/auth/page-renderer.ts');
const mb = (n) => Math.round(n / 1048576);
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const mainBefore = { limit: mb(v8.getHeapStatistics().heap_size_limit) };
releaseProcessHeapFlags();
const source = \`
  import v8 from 'node:v8';
  import { parentPort } from 'node:worker_threads';
  let keep = [];
  for (let i = 0; i < 2000000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 1000) keep = []; }
  parentPort.postMessage({
    limit: v8.getHeapStatistics().heap_size_limit,
    newSpace: v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size,
  });\`;
const w = new Worker(source, { eval: true, resourceLimits: RENDERER_HEAP });
const worker = await new Promise((resolve) => w.once('message', resolve));
await w.terminate();
let keep = [];
for (let i = 0; i < 2000000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 1000) keep = []; }
console.log(JSON.stringify({
  mainBefore,
  mainAfter: { limit: mb(v8.getHeapStatistics().heap_size_limit), newSpace: mb(newSpace()) },
  worker: { limit: mb(worker.limit), newSpace: mb(worker.newSpace) },
}));
`;

/** Production's V8 heap flags (ecosystem.config.cjs, the same as `npm start`). */
const heapFlags = (
  createRequire(import.meta.url)(path.resolve(import.meta.dirname, '../../ecosystem.config.cjs')) as {
    apps: { node_args: string }[];
  }
).apps[0]!.node_args.split(/\s+/).filter((flag) => /^--max-(old|semi)-space-size=\d+$/.test(flag));
const flagMb = (name: string) => Number(heapFlags.find((f) => f.startsWith(`--${name}=`))!.split('=')[1]);

describe('the render worker heap', () => {
  it('takes its own limits under production flags, and the main isolate keeps the flags', () => {
    const oldSpace = flagMb('max-old-space-size');
    const semiSpace = flagMb('max-semi-space-size');
    expect(heapFlags).toHaveLength(2);
    const out = execFileSync(
      process.execPath,
      [...heapFlags, '--import', 'tsx', '--input-type=module', '-e', CHILD],
      { encoding: 'utf8', cwd: process.cwd() },
    );
    const { mainBefore, mainAfter, worker } = JSON.parse(out.trim().split('\n').pop()!) as {
      mainBefore: { limit: number };
      mainAfter: { limit: number; newSpace: number };
      worker: { limit: number; newSpace: number };
    };
    // The main isolate: the flags' old space (144 MB) plus a young generation of their semi-spaces (8 MB).
    expect(mainAfter.limit).toBe(mainBefore.limit);
    expect(mainAfter.limit).toBeGreaterThan(oldSpace);
    expect(mainAfter.newSpace).toBeGreaterThanOrEqual(2 * semiSpace);
    // The worker: its 96 MB old space and 12 MB young generation (4 MB semi-spaces), not the flags' limits.
    expect(worker.limit).toBeLessThan(oldSpace);
    expect(worker.newSpace).toBeLessThanOrEqual(8);
    expect(worker.newSpace).toBeLessThan(2 * semiSpace);
    // A hang guard: a child under tsx doing 4 million allocations, 8 s alone, 18-21 s beside other suites
    // at load 50, past 60 s in a clean-clone run.
  }, 180_000);
});
