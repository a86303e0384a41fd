#!/usr/bin/env node
// `npm test`: typecheck, lint, formatting (prettier --check), unit + API integration tests, the bench smoke test, web build, browser end-to-end tests.
// Ends with one plain line "N passed, N failed" that CI reads (typecheck, lint and build count as one check each).
// The single-threaded checks (tsc, eslint, prettier) and the build run side by side on the machine's cores,
// each one's output printed whole when it ends; the test suites then run one after the other (each fills
// the cores itself). Decision 025 has the timings.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const args = new Set(process.argv.slice(2));
const only = (name) => args.size === 0 || args.has(`--${name}`);
let passed = 0;
let failed = 0;
const failures = [];

function run(label, command, commandArgs, env = {}) {
  console.log(`\n▶ ${label}: ${command} ${commandArgs.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`◀ ${label}: exit ${result.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status === 0;
}

function vitest(label, config, reportFile) {
  mkdirSync('test-results', { recursive: true });
  rmSync(reportFile, { force: true });
  const ok = run(label, 'npx', [
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
    return;
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
    for (const a of f.assertionResults) if (a.status === 'failed') failures.push(`${label}: ${a.fullName}`);
  }
  for (const f of brokenFiles)
    failures.push(`${label}: ${f.name} failed to run: ${String(f.message).slice(0, 200)}`);
  if (!ok && report.numFailedTests === 0 && brokenFiles.length === 0) {
    failed += 1;
    failures.push(`${label} (runner exited non-zero)`);
  }
}

/** Runs checks at the same time; each counts as one check, its output kept and printed when it ends. */
async function checksSideBySide(steps) {
  const started = Date.now();
  const results = await Promise.all(
    steps.map(
      ([label, command, commandArgs]) =>
        new Promise((resolve) => {
          console.log(`▶ ${label}: ${command} ${commandArgs.join(' ')}`);
          const child = spawn(command, commandArgs, { env: process.env });
          let output = '';
          child.stdout.on('data', (d) => (output += d));
          child.stderr.on('data', (d) => (output += d));
          child.on('error', (err) => (output += String(err)));
          child.on('close', (code) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            console.log(
              `\n◀ ${label}: exit ${code} after ${seconds} s${output.trim() ? `\n${output.trimEnd()}` : ''}`,
            );
            resolve({ label, ok: code === 0 });
          });
        }),
    ),
  );
  for (const { label, ok } of results) {
    if (ok) passed += 1;
    else {
      failed += 1;
      failures.push(label);
    }
  }
}

const staticSteps = [
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['format', 'npm', ['run', '--silent', 'format:check']],
].filter(([label]) => only(label));
// The browser tests need the build; it is made beside the static checks rather than after the unit tests.
if (only('e2e')) staticSteps.push(['build', 'npm', ['run', '--silent', 'build']]);
if (staticSteps.length > 0) await checksSideBySide(staticSteps);
if (only('unit')) vitest('unit+api', 'vitest.config.ts', 'test-results/unit.json');
// Its own step: the quick benchmark end to end takes minutes on a loaded machine.
if (only('bench')) vitest('bench smoke', 'vitest.bench-smoke.config.ts', 'test-results/bench-smoke.json');
if (only('e2e')) {
  if (failures.includes('build')) {
    failed += 1;
    failures.push('e2e (not run: the build failed)');
  } else vitest('e2e', 'vitest.e2e.config.ts', 'test-results/e2e.json');
}

if (failures.length) {
  console.log('\nFailures:');
  for (const f of failures) console.log(`  ✗ ${f}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
