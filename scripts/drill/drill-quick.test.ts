import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runDrill } from './run.ts';

// The fault drill's quickest fault, end to end (issue 29 item 6): the product as a child process in
// production mode, a Redis server of the drill's own killed and started again. The whole drill is
// `npm run drill` (minutes); this keeps its machinery from rotting.
const haveRedis = spawnSync('redis-server', ['--version']).status === 0;

describe.skipIf(!haveRedis)('fault drill: Redis stopped', () => {
  it('readiness and the gauge go red, users get 503 with Retry-After, logs stay JSON, all comes back', async () => {
    const [obs] = await runDrill({ only: ['redis-stop'], runtime: 'tsx', log: () => {} });
    expect(obs?.readiness).toMatch(/503: redis:/);
    expect(obs?.metrics).toContain('coinsync_ready{check="redis"} 0');
    expect(obs?.users).toMatch(
      /write POST \/api\/hourly\/claim \(regular\): 503 "Sessions are unavailable[^"]*" Retry-After 60/,
    );
    expect(obs?.plainLines).toBe(0);
    expect(obs?.recovered).toMatch(/200 ready.*GET \/api\/auth\/user: 200/);
  }, 120_000);
});
