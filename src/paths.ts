import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root folder (where package.json is), found from this file's location so the same
 * code works from src/ (tsx, tests) and compiled into dist/server/ (production).
 */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot();
/** The built SPA (vite build). */
export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist', 'web');
/** The server renderer of the SPA's pages (vite build --ssr web/src/entry-server.tsx, decision 031). */
export const SSR_DIST_DIR = path.join(PROJECT_ROOT, 'dist', 'ssr');
/** drizzle-kit migrations. */
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'drizzle');
/** drizzle-kit migrations of the PostgreSQL schema (src/db/schema.pg.ts, decision 028). */
export const PG_MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'drizzle-pg');
