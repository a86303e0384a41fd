import { afterAll, describe, expect, it } from 'vitest';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from './client.ts';
import { DatabaseIntegrityError } from './integrity.ts';
import { createUser } from '../test/db.ts';
import { startServer } from '../server.ts';
import { createLogger } from '../logger.ts';
import { TEST_DISCORD, TEST_SECRETS } from '../test/harness.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-corrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A migrated database with enough rows to span many pages, closed (WAL folded into the file). */
function populatedDatabase(name: string): string {
  const file = path.join(dir, name);
  const database = openDatabase(file);
  database.sqlite.transaction(() => {
    for (let i = 0; i < 3000; i++)
      createUser(database, { discordUsername: `user-with-a-long-name-${i}-${'x'.repeat(40)}` });
  })();
  database.close();
  return file;
}

/** Overwrites whole pages with a fixed pattern, like a bad disk or a stray write would. */
function overwritePages(file: string, first: number, count: number): void {
  const fd = openSync(file, 'r+');
  const garbage = Buffer.alloc(4096, 0xa5);
  for (let page = first; page < first + count; page++) writeSync(fd, garbage, 0, garbage.length, page * 4096);
  closeSync(fd);
}

describe('start-up integrity check', () => {
  it('opens an intact database', () => {
    const file = populatedDatabase('intact.db');
    const database = openDatabase(file);
    expect(database.sqlite.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 3000 });
    database.close();
  });

  it('refuses a database with overwritten pages, naming what quick_check found', () => {
    const file = populatedDatabase('pages.db');
    expect(statSync(file).size).toBeGreaterThan(60 * 4096);
    overwritePages(file, 20, 20);
    let error: unknown;
    try {
      openDatabase(file);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DatabaseIntegrityError);
    const message = (error as Error).message;
    expect(message).toContain(`Database ${file} is damaged; refusing to start. PRAGMA quick_check reported:`);
    expect(message).toMatch(/\n {2}- \S/);
    expect(message).toContain('npm run restore');
  });

  it('refuses a file whose header is gone', () => {
    const file = populatedDatabase('header.db');
    overwritePages(file, 0, 1);
    expect(() => openDatabase(file)).toThrow(DatabaseIntegrityError);
    expect(() => openDatabase(file)).toThrow(/file is not a database/);
  });

  it('startServer refuses to start on it and releases the port', async () => {
    const file = populatedDatabase('server.db');
    overwritePages(file, 20, 20);
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    await expect(
      startServer({
        port,
        logger: createLogger('silent'),
        background: false,
        env: {
          NODE_ENV: 'test',
          DATABASE_PATH: file,
          DISCORD_CLIENT_ID: TEST_DISCORD.clientId,
          ...TEST_SECRETS,
          DISCORD_CLIENT_SECRET: TEST_DISCORD.clientSecret,
          DISCORD_BOT_TOKEN: TEST_DISCORD.botToken,
          DISCORD_BASE_URL: 'http://127.0.0.1:9',
          REDIS_URL: '',
        },
      }),
    ).rejects.toBeInstanceOf(DatabaseIntegrityError);
    // Nothing is left listening: the port can be bound again.
    await new Promise<void>((resolve, reject) => {
      const again = net.createServer().once('error', reject);
      again.listen(port, '127.0.0.1', () => again.close(() => resolve()));
    });
  });
});
