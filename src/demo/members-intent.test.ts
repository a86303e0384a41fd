import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { startServer, type RunningServer } from '../server.ts';
import { GUILD_MEMBERS_INTENT } from '../sim/discord/index.ts';
import { JOB } from '../background.ts';

// Demo mode and the Server Members intent (issue 26): the demo's owner enabled it in the portal, so a
// person trying the product sees leaves in real time; DISCORD_MEMBERS_INTENT=off plays a refused
// review — the demo's simulator refuses the intent too, and the member sweep runs every 30 s so a leave
// inside the stay is charged within a minute.

let server: RunningServer | null = null;
let dir: string | null = null;
afterEach(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = null;
  dir = null;
});

async function startDemo(env: Record<string, string> = {}): Promise<RunningServer> {
  dir = mkdtempSync(path.join(tmpdir(), 'coinsync-demo-intent-'));
  server = await startServer({
    port: 0,
    logger: createLogger('silent'),
    env: { NODE_ENV: 'development', DATABASE_PATH: path.join(dir, 'demo.db'), LOG_LEVEL: 'silent', ...env },
  });
  await server.background.bot!.ready;
  return server;
}

const reconcilePeriod = (s: RunningServer) =>
  s.background.periodic!.specs.find((spec) => spec.name === JOB.reconcile)!.periodMs;

it('the demo enables the Server Members intent, as its owner would in the portal', async () => {
  const s = await startDemo();
  expect(s.simulator!.state.gateway.allowedPrivilegedIntents).toBe(GUILD_MEMBERS_INTENT);
  expect(s.background.bot!.membersIntent()).toBe('on');
  expect(reconcilePeriod(s)).toBe(5 * 60_000);
});

it('DISCORD_MEMBERS_INTENT=off: the demo simulator refuses it, the bot runs without it, sweeps every 30 s', async () => {
  const s = await startDemo({ DISCORD_MEMBERS_INTENT: 'off' });
  expect(s.simulator!.state.gateway.allowedPrivilegedIntents).toBe(0);
  expect(s.background.bot!.membersIntent()).toBe('configured-off');
  expect(reconcilePeriod(s)).toBe(30_000);
  const ready = await fetch(`${s.url}/api/ready`);
  expect(JSON.stringify(await ready.json())).toContain('members intent: off (configured)');
});
