#!/usr/bin/env node
// `npm run check`: typecheck, lint and the unit tests at the same time (the quick loop before a commit).
// Each step's output is kept and printed when it ends, so the three do not interleave.
import { spawn } from 'node:child_process';

const steps = [
  ['typecheck', ['run', '--silent', 'typecheck']],
  ['lint', ['run', '--silent', 'lint']],
  ['unit', ['run', '--silent', 'test:unit']],
];

const started = Date.now();
const results = await Promise.all(
  steps.map(
    ([label, args]) =>
      new Promise((resolve) => {
        const child = spawn('npm', args, { env: process.env });
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
const failed = results.filter((r) => !r.ok).map((r) => r.label);
console.log(failed.length ? `\ncheck failed: ${failed.join(', ')}` : '\ncheck passed: typecheck, lint, unit');
process.exit(failed.length ? 1 : 0);
