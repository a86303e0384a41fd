import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { functionRuns, longTasks, readProfile } from './profile-summary.ts';

// The soak's CPU profile is read for "what holds the loop, and for how long each time" (decision 049,
// session 15): a run is a stretch of consecutive samples with a function on the stack; samples in the
// garbage collector do not break it, idle does. A synthetic profile with known stretches checks both the
// per-function runs and the loop's busy stretches (0.5 ms per sample, the bench's sampling interval).

const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 9, scriptId: '0', columnNumber: 0 },
  children,
});

function writeProfile(samples: number[]): string {
  const nodes = [
    frame(1, '(root)', '', [2, 3, 4, 5]),
    frame(2, '(idle)', ''),
    frame(3, '(garbage collector)', ''),
    frame(4, 'processTicksAndRejections', 'node:internal/process/task_queues', []),
    // beat → write (a product function calling node's), and a request handler on its own.
    frame(5, 'beat', 'file:///app/dist/server/events/routes.js', [6]),
    frame(6, 'write', 'node:_http_outgoing'),
    frame(7, 'handler', 'file:///app/dist/server/http/fast-path.js'),
  ];
  nodes[0]!.children.push(7);
  const file = path.join(dir, `p${samples.length}.cpuprofile`);
  writeFileSync(
    file,
    JSON.stringify({
      nodes,
      startTime: 0,
      endTime: samples.length * 500,
      samples,
      timeDeltas: samples.map(() => 500),
    }),
  );
  return file;
}

it('counts a run per stretch of a function on the stack, GC inside it included, idle ending it', () => {
  const file = writeProfile([
    ...Array<number>(40).fill(6), // beat → write: 20 ms
    3, // GC inside the beat's run: counted in it
    ...Array<number>(9).fill(5), // beat's own code: the same run
    2, // idle: the run ends
    7, // handler: 0.5 ms
    2,
    7,
    7, // handler again, twice in a row: one run of 1 ms
    2,
    ...Array<number>(20).fill(5), // a second beat: 10 ms
  ]);
  const byName = new Map(functionRuns(file).map((f) => [f.name.split(' ')[0], f]));
  expect(byName.get('beat')).toMatchObject({ runs: 2, maxMs: 25, totalMs: 35, ownMaxMs: 24.5 });
  expect(byName.get('handler')).toMatchObject({ runs: 2, maxMs: 1, totalMs: 1.5 });
  // node's own frames are not the product's: not listed.
  expect(byName.has('write')).toBe(false);

  const tasks = longTasks(file, 5);
  expect(tasks.map((t) => t.sampledMs)).toEqual([25, 10]);
  expect(tasks[0]!.gcMs).toBe(0.5);
  expect(tasks[0]!.entries[0]!.name).toMatch(/^beat /);
});

it("reads only the samples of a time window when asked (a soak's warm-up against its second half)", () => {
  const file = writeProfile([
    ...Array<number>(40).fill(5), // beat: 0–20 ms
    2,
    ...Array<number>(10).fill(7), // handler: samples at 21–25.5 ms
    2,
    ...Array<number>(20).fill(5), // beat again: 26.5–36 ms
  ]);
  const window = readProfile(file, 0.0212, 0.03);
  expect(window.samples).toEqual([...Array<number>(9).fill(7), 2, ...Array<number>(8).fill(5)]);
  // The window's profile starts at its own start: positions are seconds since it.
  expect(window.startTime).toBe(21_200);
  expect(window.timeDeltas[0]).toBe(300);
  expect(functionRuns(file).find((f) => f.name.startsWith('handler'))?.totalMs).toBe(5);
  const all = readProfile(file);
  expect(all.samples).toHaveLength(72);
});
