#!/usr/bin/env node
// `npm test`: typecheck and lint (one process per TypeScript project), formatting (prettier --check), unit + API integration tests, the long runs (population simulation, fault drill), the same API and bot suites on PostgreSQL, the bench smoke test, web build, browser end-to-end tests, the multi-process scale test.
// Ends with one plain line "N passed, N failed" that CI reads (each project's typecheck and lint, format and build count as one check each).
// Steps start as soon as the steps they wait for have ended, each one's output printed whole when it ends:
// the single-threaded checks (each project's typecheck and lint, prettier) and the build side by side on the
// machine's cores; the browser tests as soon as the build, the web project's check and the format check have
// ended, beside the server project's check (the browser tests mostly wait for pages); the unit tests (which
// fill the cores themselves) once the server project's check has ended; then the bench smoke test, the
// long runs and the PostgreSQL suites beside the browser tests; then the scale test, alone. Each step's
// CPU and the load are reported at the end.
// Decisions 025, 049 and 060 have the timings.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';

const args = new Set(process.argv.slice(2));
const only = (name) => args.size === 0 || args.has(`--${name}`);
let passed = 0;
let failed = 0;
const failures = [];
const started = Date.now();
const elapsed = () => ((Date.now() - started) / 1000).toFixed(1);
const CPU_OF = new URL('./cpu-of.mjs', import.meta.url).pathname;

/** Per step: when it started and ended (s into the run), its CPU (user + system s) and the load average. */
const timeline = [];
const load = () => Number(loadavg()[0].toFixed(1));

/**
 * Runs a command with its output kept; resolves with its exit code once it has been printed. It runs under
 * scripts/cpu-of.mjs, which reports the CPU the step used (its processes, not its neighbours'): on a shared
 * machine wall time measures the neighbours, CPU time far less (decision 060).
 */
function run(label, command, commandArgs) {
  return new Promise((resolve) => {
    const entry = { step: label, start: Number(elapsed()), loadAtStart: load() };
    timeline.push(entry);
    console.log(`▶ ${label} (at ${elapsed()} s): ${command} ${commandArgs.join(' ')}`);
    const child = spawn(process.execPath, [CPU_OF, command, ...commandArgs], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let cpuLine = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.stdio[3].on('data', (d) => (cpuLine += d));
    child.on('error', (err) => (output += String(err)));
    child.on('close', (code) => {
      let cpu = null;
      try {
        cpu = JSON.parse(cpuLine);
      } catch {
        /* not measured */
      }
      Object.assign(entry, {
        end: Number(elapsed()),
        cpu: cpu ? Number((cpu.user + cpu.system).toFixed(1)) : null,
        loadAtEnd: load(),
        exit: code,
      });
      const cpuText = entry.cpu === null ? '' : `, ${entry.cpu} s CPU`;
      console.log(
        `\n◀ ${label}: exit ${code} at ${elapsed()} s${cpuText}${output.trim() ? `\n${output.trimEnd()}` : ''}`,
      );
      resolve(code);
    });
  });
}

/** A check: one pass or one failure. */
async function check(label, command, commandArgs) {
  const code = await run(label, command, commandArgs);
  if (code === 0) passed += 1;
  else {
    failed += 1;
    failures.push(label);
  }
  return code === 0;
}

/** A vitest suite: each test counts, read from its JSON report. */
async function vitest(label, config, reportFile) {
  mkdirSync('test-results', { recursive: true });
  rmSync(reportFile, { force: true });
  const code = await run(label, 'npx', [
    'vitest',
    'run',
    '--config',
    config,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
  ]);
  if (!existsSync(reportFile)) {
    failed += 1;
    failures.push(`${label} (no report)`);
    return false;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A file that failed to load has no failed tests but must still fail the run.
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed'),
  );
  failed += brokenFiles.length;
  for (const f of report.testResults) {
    for (const a of f.assertionResults)
      if (a.status === 'failed') {
        // The first lines of the message (the diff of an expect): a clean-clone run's only record of why.
        const why = String(a.failureMessages?.[0] ?? '')
          .split('\n')
          .slice(0, 24)
          .map((line) => `      ${line}`)
          .join('\n');
        failures.push(`${label}: ${a.fullName}${why.trim() ? `\n${why}` : ''}`);
      }
  }
  for (const f of brokenFiles)
    failures.push(`${label}: ${f.name} failed to run: ${String(f.message).slice(0, 200)}`);
  if (code !== 0 && report.numFailedTests === 0 && brokenFiles.length === 0) {
    failed += 1;
    failures.push(`${label} (runner exited non-zero)`);
  }
  return code === 0;
}

// name → [steps it waits for, what it runs]. A step waits for others only to share two cores well, except
// e2e and scale, which need the build.
const steps = {
  // Typecheck and lint on one TypeScript program per project (scripts/check-project.mjs): run apart, tsc
  // and typescript-eslint each built and type-checked the program, and the lint step was the run's largest
  // check (decision 060). Without ESLint's cache, as `eslint .` ran here: a cached result can be stale when
  // another file's types change. The server's project (everything but web/) is the longer of the two.
  'check-server': [
    [],
    () => check('typecheck + lint (server)', 'node', ['scripts/check-project.mjs', 'server', '--no-cache']),
  ],
  'check-web': [
    [],
    () => check('typecheck + lint (web)', 'node', ['scripts/check-project.mjs', 'web', '--no-cache']),
  ],
  format: [[], () => check('format', 'npm', ['run', '--silent', 'format:check'])],
  build: [[], () => check('build', 'npm', ['run', '--silent', 'build'])],
  // The unit tests fill the cores themselves: they start when the last check (the server's) has ended,
  // beside the browser tests, which by then have a core's worth of idle waiting for pages.
  unit: [
    ['check-server', 'check-web', 'format', 'build'],
    () => vitest('unit+api', 'vitest.config.ts', 'test-results/unit.json'),
  ],
  // The long runs (the population simulation, the drill's Redis stop: decision 049) after the unit
  // tests, beside the browser tests, the bench smoke test and the PostgreSQL suites; the scale test, which
  // fills the cores itself, comes after them. In the unit step they held its tail (89 s of 145 s).
  long: [['unit'], () => vitest('long runs', 'vitest.long.config.ts', 'test-results/long.json')],
  // The API and bot suites again on PostgreSQL (TEST_DB=pg; decision 028 step 5), beside the browser
  // tests, the long runs and the bench smoke test as soon as the unit tests have ended. Those three mostly
  // wait (pages, the simulation's clock, a measured window: 19 and 15 s of CPU in 82 and 63 s on a quiet
  // clean clone, the browser tests 216 s in 354 s), and the PostgreSQL suites wait less for PostgreSQL
  // than they did (template databases, no flush per commit: src/test/pg.ts), so together they use about
  // the two cores, never three core fillers at once (session 6: three at once timed out). Until session 16
  // it waited for the long runs and the bench too: that chain (checks → unit → long runs → PostgreSQL →
  // scale) was as long as the browser tests' once those ran four files at a time (decision 060).
  pg: [['unit'], () => vitest('unit+api on PostgreSQL', 'vitest.pg.config.ts', 'test-results/pg.json')],
  // The scaled-out layout (two web processes, one bot, PostgreSQL, Redis) under 200 users: it needs the
  // build, and runs last and alone (its five processes fill the cores; browser tests beside it timed out
  // in session 6).
  scale: [
    ['build', 'bench', 'e2e', 'long', 'pg'],
    async () => {
      if (failures.includes('build')) {
        failed += 1;
        failures.push('scale (not run: the build failed)');
        return false;
      }
      return vitest('scale', 'vitest.scale.config.ts', 'test-results/scale.json');
    },
  ],
  // Its own step: the quick benchmark end to end takes minutes on a loaded machine.
  bench: [
    ['unit'],
    () => vitest('bench smoke', 'vitest.bench-smoke.config.ts', 'test-results/bench-smoke.json'),
  ],
  // The browser tests, the longest step, as soon as the build and the web check have ended (the format
  // check is short and ends before them), beside the end of the server's check: from then on that check
  // fills one core and the browser tests, which mostly wait for pages, use part of the other, instead of
  // waiting for every check while a core idles (decision 060, Session 15).
  e2e: [
    ['build', 'check-web', 'format'],
    async () => {
      if (failures.includes('build')) {
        failed += 1;
        failures.push('e2e (not run: the build failed)');
        return false;
      }
      return vitest('e2e', 'vitest.e2e.config.ts', 'test-results/e2e.json');
    },
  ],
};
// The browser tests need the build; it is made beside the static checks.
const wanted = new Set(
  Object.keys(steps).filter((name) => only(name) || (name === 'build' && (only('e2e') || only('scale')))),
);

const running = new Map();
function start(name) {
  if (!running.has(name)) {
    const [after, body] = steps[name];
    running.set(
      name,
      Promise.all(after.filter((n) => wanted.has(n)).map(start)).then(() => body()),
    );
  }
  return running.get(name);
}
await Promise.all([...wanted].map(start));

if (failures.length) {
  console.log('\nFailures:');
  for (const f of failures) console.log(`  ✗ ${f}`);
}
// The timeline: each step's start, end, CPU and the load it ran at (test-results/timeline.json too).
console.log('\nstep                      start     end   wall    CPU  load');
for (const t of timeline)
  console.log(
    `${t.step.padEnd(24)} ${String(t.start).padStart(6)} ${String(t.end).padStart(7)} ${(t.end - t.start)
      .toFixed(1)
      .padStart(6)} ${String(t.cpu ?? '–').padStart(6)}  ${t.loadAtStart} → ${t.loadAtEnd}`,
  );
const totalCpu = timeline.reduce((sum, t) => sum + (t.cpu ?? 0), 0);
mkdirSync('test-results', { recursive: true });
writeFileSync(
  'test-results/timeline.json',
  `${JSON.stringify({ wall: Number(elapsed()), cpu: totalCpu, timeline }, null, 2)}\n`,
);
console.log(`\nnpm test took ${elapsed()} s, ${totalCpu.toFixed(1)} s CPU in its steps`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
