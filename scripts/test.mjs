#!/usr/bin/env node
// `npm test`: typecheck, lint, formatting (prettier --check), unit + API integration tests, the bench smoke test, web build, browser end-to-end tests.
// Ends with one plain line "N passed, N failed" that CI reads (typecheck, lint and build count as one check each).
import { spawnSync } from 'node:child_process';
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

function check(label, command, commandArgs) {
  if (run(label, command, commandArgs)) passed += 1;
  else {
    failed += 1;
    failures.push(label);
  }
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

if (only('typecheck')) check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
if (only('lint')) check('lint', 'npm', ['run', '--silent', 'lint']);
if (only('format')) check('format', 'npm', ['run', '--silent', 'format:check']);
if (only('unit')) vitest('unit+api', 'vitest.config.ts', 'test-results/unit.json');
// Its own step: the quick benchmark end to end takes minutes on a loaded machine.
if (only('bench')) vitest('bench smoke', 'vitest.bench-smoke.config.ts', 'test-results/bench-smoke.json');
if (only('e2e')) {
  check('build', 'npm', ['run', '--silent', 'build']);
  vitest('e2e', 'vitest.e2e.config.ts', 'test-results/e2e.json');
}

if (failures.length) {
  console.log('\nFailures:');
  for (const f of failures) console.log(`  ✗ ${f}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
