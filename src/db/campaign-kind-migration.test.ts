import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../paths.ts';

// Migration 0005 adds servers.kind, backfills it from the implicit fields it replaces (server_id null =
// no-bot, is_featured = featured) and keeps those fields agreeing with it by triggers.

const dir = mkdtempSync(path.join(tmpdir(), 'kind-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before 0005. */
function migrationsBeforeKind(): string {
  const folder = path.join(dir, 'drizzle-before');
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === '0005_campaign_kind');
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

describe('migration 0005 (campaign kind)', () => {
  const sqlite = new Database(path.join(dir, 'app.db'));
  sqlite.pragma('foreign_keys = ON');
  const db = drizzle(sqlite);

  it('backfills kind from server_id and is_featured', () => {
    migrate(db, { migrationsFolder: migrationsBeforeKind() });
    sqlite
      .prepare(
        "INSERT INTO users (id, discord_id, discord_username, created_at) VALUES ('u1', 'd1', 'owner', 1)",
      )
      .run();
    const insert = sqlite.prepare(
      `INSERT INTO servers (id, owner_id, name, invite_link, server_id, is_featured, created_at)
       VALUES (?, 'u1', ?, 'https://discord.gg/x', ?, ?, 1)`,
    );
    insert.run('s-regular', 'Regular', '400', 0);
    insert.run('s-featured', 'Featured', '401', 1);
    insert.run('s-nobot', 'No bot', null, 0);

    migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    const kinds = sqlite.prepare('SELECT id, kind FROM servers ORDER BY id').all();
    expect(kinds).toEqual([
      { id: 's-featured', kind: 'featured' },
      { id: 's-nobot', kind: 'nobot' },
      { id: 's-regular', kind: 'regular' },
    ]);
  });

  it('refuses rows whose kind disagrees with is_featured or server_id', () => {
    expect(() => sqlite.prepare("UPDATE servers SET is_featured = 1 WHERE id = 's-regular'").run()).toThrow(
      /kind disagrees/,
    );
    expect(() => sqlite.prepare("UPDATE servers SET kind = 'nobot' WHERE id = 's-regular'").run()).toThrow(
      /kind disagrees/,
    );
    expect(() =>
      sqlite
        .prepare(
          `INSERT INTO servers (id, owner_id, name, invite_link, kind, server_id, created_at)
           VALUES ('s-bad', 'u1', 'Bad', 'https://discord.gg/y', 'gold', '402', 1)`,
        )
        .run(),
    ).toThrow(/kind disagrees/);
    // Changing them together is fine (what promote and the end of a featured pool do).
    sqlite.prepare("UPDATE servers SET kind = 'featured', is_featured = 1 WHERE id = 's-regular'").run();
    expect(sqlite.prepare("SELECT kind FROM servers WHERE id = 's-regular'").get()).toEqual({
      kind: 'featured',
    });
    sqlite.close();
  });
});
