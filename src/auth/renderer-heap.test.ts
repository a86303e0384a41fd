import { execFileSync } from 'node:child_process';
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

describe('the render worker heap', () => {
  it('takes its own limits under production flags, and the main isolate keeps the flags', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--max-old-space-size=144',
        '--max-semi-space-size=16',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        CHILD,
      ],
      { encoding: 'utf8', cwd: process.cwd() },
    );
    const { mainBefore, mainAfter, worker } = JSON.parse(out.trim().split('\n').pop()!) as {
      mainBefore: { limit: number };
      mainAfter: { limit: number; newSpace: number };
      worker: { limit: number; newSpace: number };
    };
    // The main isolate: 144 MB old space plus a young generation of 16 MB semi-spaces.
    expect(mainAfter.limit).toBe(mainBefore.limit);
    expect(mainAfter.limit).toBeGreaterThan(144);
    expect(mainAfter.newSpace).toBeGreaterThanOrEqual(32);
    // The worker: its 96 MB old space and 12 MB young generation, not the flags' 144 MB and 16 MB semi-spaces.
    expect(worker.limit).toBeLessThan(144);
    expect(worker.newSpace).toBeLessThanOrEqual(8);
  });
});
