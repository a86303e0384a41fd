import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../paths.ts';

/**
 * Runs a TypeScript worker script in its own Node process (through tsx) with `plan` as JSON in the
 * environment variable `planVariable`, and resolves with the JSON object the worker printed as its last
 * stdout line. Rejects with the end of its stderr when it exits non-zero or printed no JSON. Used by the
 * multi-process PostgreSQL tests (ledger race, run-once jobs).
 */
export function runJsonWorker<T>(script: string, planVariable: string, plan: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, [planVariable]: JSON.stringify(plan) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) {
        reject(new Error(`worker ${script} exited ${code}: ${err.slice(-2000)}`));
        return;
      }
      resolve(JSON.parse(line) as T);
    });
  });
}
