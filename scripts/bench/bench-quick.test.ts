import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULT_KEYS, type BenchResults } from './results.ts';

// Keeps the bench scripts from rotting: the quick bench must run end to end against the real
// product and leave the ledger intact. Numbers are not asserted (they depend on the machine).

const root = path.resolve(import.meta.dirname, '../..');

describe('npm run bench -- --quick', () => {
  it('completes, keeps the ledger invariant and writes every result section', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'coinsync-bench-test-'));
    const out = path.join(dir, 'results.json');
    try {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/bench/run.ts', '--quick', '--out', out],
        {
          cwd: root,
          encoding: 'utf8',
          timeout: 280_000,
          env: { ...process.env, REDIS_URL: '' },
        },
      );
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('balance == sum(transactions) for all');

      const results = JSON.parse(readFileSync(out, 'utf8')) as BenchResults;
      for (const key of RESULT_KEYS) expect(results, `results.${key}`).toHaveProperty(key);
      expect(results.mode).toBe('quick');
      expect(results.ledger).toMatchObject({ ok: true, mismatches: 0 });
      // Every measured section saw real traffic.
      expect(results.discover?.product.requests).toBeGreaterThan(0);
      expect(results.discover?.express.requests).toBeGreaterThan(0);
      expect(results.discover?.raw.requests).toBeGreaterThan(0);
      // Every measured user claimed each of the three rewards once, all answered 2xx.
      expect(results.claims?.product.requests).toBe(
        (results.signIn.users - (results.claims?.warmup.requests ?? 0) / 3) * 3,
      );
      expect(results.claims?.product.non2xx).toBe(0);
      expect(results.joinPath?.credited).toBe(results.joinPath?.joins);
      expect(results.web.login.jsGzip).toBeGreaterThan(0);
      expect(results.targets.map((t) => t.name)).toHaveLength(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
