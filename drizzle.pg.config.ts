import { defineConfig } from 'drizzle-kit';

// The PostgreSQL schema's migrations (decision 028): `npm run db:generate:pg` after changing
// src/db/schema.pg.ts. Generating needs no database; the url is for drizzle-kit's other commands.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.pg.ts',
  out: './drizzle-pg',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
});
