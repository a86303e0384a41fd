#!/usr/bin/env node
// `npm run check`: typecheck, lint and the unit tests at the same time (the quick loop before a commit).
// Typecheck is incremental and lint cached (both under node_modules/.cache); the API and bot suites (files
// that start the product through the test harness) and the long runs are left to `npm test`.
// Each step's output is kept and printed when it ends, so the three do not interleave.
// Its budget (decision 049): 60 s on a quiet 2-core machine. Wall time on a shared machine measures the
// neighbours, so the last lines report the CPU the check used (its processes' user + system time, from
// /proc) against the CPU that fits in 60 s of two cores, with the load average, and the slowest unit
// files: a unit file that grows past a few seconds belongs in LONG_RUNS (vitest.config.ts), not here.
// The report warns; it does not fail the check (a loaded machine inflates CPU time too).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';

/** 60 s of two cores, less what two processes side by side never use (lint alone is one thread). */
export const CHECK_CPU_BUDGET_S = 110;
export const CHECK_WALL_BUDGET_S = 60;
/** A unit file this long (its own wall time, four files at once) is worth a look: the report names it. */
const SLOW_FILE_S = 8;
const REPORT = 'test-results/check-unit.json';

mkdirSync('test-results', { recursive: true });
rmSync(REPORT, { force: true });
const steps = [
  // Typecheck and lint as two processes, one per TypeScript project (the server's, the web app's), so the
  // two cores share them. Each process builds its project's program once and both typechecks and lints
  // with it (scripts/check-project.mjs): run apart, tsc and typescript-eslint's project service built it
  // twice, and from a cold checkout that double work held the check past its 60 s (decision 060).
  // Typecheck is incremental (build info under node_modules/.cache/tsc, as `npm run typecheck`) and lint
  // uses ESLint's cache by content (node_modules/.cache/eslint/): a file whose text and config are
  // unchanged is not linted again. The type-aware rules read other files' types, which the cache does not
  // track, so a changed type can leave another file's cached lint result stale until that file changes
  // (the typecheck itself re-checks every dependant): `npm test` and CI lint without the cache.
  ['server (typecheck, lint)', 'node', ['scripts/check-project.mjs', 'server']],
  ['web (typecheck, lint)', 'node', ['scripts/check-project.mjs', 'web']],
  // The unit tests only: the files that start the product through the test harness (the API and bot
  // suites) are `npm test`'s (vitest.check.config.ts).
  [
    'unit',
    'npx',
    [
      'vitest',
      'run',
      '--config',
      'vitest.check.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${REPORT}`,
    ],
  ],
];

/** CPU seconds (user + system) of this process's children that have ended (Linux /proc; else null). */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after "pid (comm) ": the 14th and 15th of those that follow are cutime and cstime, in ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

const load = () => loadavg()[0].toFixed(1);
const loadAtStart = load();
const started = Date.now();
const results = await Promise.all(
  steps.map(
    ([label, command, args]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { env: process.env });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('close', (code) => {
          console.log(
            `\n── ${label}: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s ──\n${output.trimEnd()}`,
          );
          resolve({ label, ok: code === 0 });
        });
      }),
  ),
);
const wallS = (Date.now() - started) / 1000;
const cpuS = childrenCpuSeconds();

/** The slowest unit files of this run, from vitest's JSON report. */
function slowFiles() {
  if (!existsSync(REPORT)) return [];
  const report = JSON.parse(readFileSync(REPORT, 'utf8'));
  return report.testResults
    .map((f) => ({ file: f.name.replace(`${process.cwd()}/`, ''), s: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.s - a.s)
    .slice(0, 5);
}

const cpuText = cpuS === null ? 'CPU not measured' : `${cpuS.toFixed(1)} s CPU`;
console.log(
  `\ncheck took ${wallS.toFixed(1)} s wall, ${cpuText} (budget: ${CHECK_WALL_BUDGET_S} s wall on a quiet` +
    ` 2-core machine ≈ ${CHECK_CPU_BUDGET_S} s CPU; load average ${loadAtStart} → ${load()})`,
);
const slow = slowFiles();
if (slow.length)
  console.log(`slowest unit files: ${slow.map((f) => `${f.file} ${f.s.toFixed(1)} s`).join(', ')}`);
if (cpuS !== null && cpuS > CHECK_CPU_BUDGET_S) {
  const named = slow.filter((f) => f.s >= SLOW_FILE_S).map((f) => f.file);
  console.log(
    `⚠ check is over its CPU budget by ${(cpuS - CHECK_CPU_BUDGET_S).toFixed(1)} s: make the slow files` +
      ` shorter or move whole-product runs to LONG_RUNS in vitest.config.ts (decision 049)` +
      (named.length ? `; look first at ${named.join(', ')}` : ''),
  );
}
const failed = results.filter((r) => !r.ok).map((r) => r.label);
console.log(failed.length ? `\ncheck failed: ${failed.join(', ')}` : '\ncheck passed: typecheck, lint, unit');
process.exit(failed.length ? 1 : 0);
