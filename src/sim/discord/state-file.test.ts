import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { startServer } from '../../server.ts';
import { startDiscordSimulator } from './index.ts';
import { SimStateFileError } from './state.ts';

// Issue 13: a truncated state file was silently replaced by an empty world, and the app then saw
// every member "gone". The simulator must refuse to start over a file it cannot read, and say why.

const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-sim-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an unreadable state file', () => {
  it.each([
    ['truncated JSON', '{"users":[{"id":"1","username":"al'],
    ['JSON that is not a state file', '{"hello":"world"}'],
    ['an empty file', ''],
  ])('%s: refuses to start, names the file and leaves it untouched', async (_what, content) => {
    const file = path.join(dir, `state-${content.length}.json`);
    writeFileSync(file, content);
    const started = startDiscordSimulator({ port: 0, statePath: file });
    await expect(started).rejects.toBeInstanceOf(SimStateFileError);
    await expect(started).rejects.toThrow(file);
    await expect(started).rejects.toThrow(/Refusing to start/);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('loads a good file and starts fresh when there is none', async () => {
    const file = path.join(dir, 'good.json');
    const first = await startDiscordSimulator({ port: 0, statePath: file });
    const user = first.state.createUser({ username: 'kept_user' });
    await first.close();
    const second = await startDiscordSimulator({ port: 0, statePath: file });
    expect(second.state.getUser(user.id)?.username).toBe('kept_user');
    await second.close();
  });

  it('stops the product in demo mode with the reason, instead of serving over a replaced world', async () => {
    const db = path.join(dir, 'demo.db');
    const stateFile = path.join(dir, 'demo.discord-sim.json');
    writeFileSync(stateFile, '{"users":[');
    const start = startServer({
      port: 0,
      logger: createLogger('silent'),
      background: false,
      env: { NODE_ENV: 'development', DATABASE_PATH: db, LOG_LEVEL: 'silent', PORT: '0' },
    });
    await expect(start).rejects.toThrow(/cannot read its state file .*demo\.discord-sim\.json/);
    expect(readFileSync(stateFile, 'utf8')).toBe('{"users":[');
  });
});
