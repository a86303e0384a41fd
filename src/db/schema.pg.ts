import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import * as sqlite from './schema.ts';
import { pgSchemaFrom } from './schema-to-pg.ts';

// The PostgreSQL schema (decision 028), derived from src/db/schema.ts — the one declaration of the
// database (decision 058) — by src/db/schema-to-pg.ts. A change to schema.ts needs no change here, only
// `npm run db:generate` and `npm run db:generate:pg` (migrations in drizzle/ and drizzle-pg/); a new table
// is added to the export list below. This file says only what PostgreSQL does differently:
//
// - which integer columns are int4 (small counters); every other integer is bigint read as a JS number
//   (money in hundredths up to ±9999999999, epoch milliseconds), SQLite's 0/1 flags are booleans. The
//   connection parses int8 as a number too (src/db/pg-client.ts), so raw SQL agrees;
// - constraints SQLite says another way, and tables only PostgreSQL has.

const pg = pgSchemaFrom(sqlite, {
  int4: {
    campaigns: [
      'membersRemaining',
      'initialMemberSlots',
      'featuredRemaining',
      'completionDmAttempts',
      'minAccountAgeDays',
    ],
    payments: ['adjustments'],
    opsHeartbeat: ['id'],
    memberGuilds: ['premiumType'],
    reminderSettings: ['quietStart', 'quietEnd'],
    remindersDue: ['attempts'],
    reconcileHolds: ['holds'],
    retentionChecks: ['milestoneDays'],
    notificationOutbox: ['attempts'],
    notificationAttempts: ['attempt', 'statusCode', 'latencyMs'],
  },
  extra: {
    campaigns: (t) => [
      // SQLite holds this with two triggers (migration 0005); PostgreSQL says it as one CHECK.
      check(
        'servers_kind_consistent',
        sql`${t.kind} IN ('regular', 'featured', 'nobot') AND (${t.kind} = 'nobot') = (${t.guildId} IS NULL) AND (${t.kind} = 'featured') = ${t.isFeatured}`,
      ),
    ],
  },
});

export const {
  users,
  campaigns,
  campaignJoins,
  socialTasks,
  socialTaskStarts,
  socialCompletions,
  hourlyRewards,
  transactions,
  payments,
  paymentRefunds,
  sessions,
  oauthTokens,
  welcomeGrants,
  userAddresses,
  memberGuilds,
  accessTokens,
  opsHeartbeat,
  reconcileHolds,
  retentionChecks,
  campaignNotifications,
  notificationOutbox,
  notificationAttempts,
  reminderSettings,
  remindersDue,
} = pg;

// ---- PostgreSQL only ----

/**
 * One row per periodic job and period that some process claimed (src/ops/run-once.ts, decision 030):
 * with several processes a job runs at most once per period, and a pg advisory lock keeps runs of the
 * same job from overlapping. One process on SQLite needs neither, so SQLite has no such table.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    /** floor(now / periodMs): the period the run belongs to. */
    period: bigint('period', { mode: 'number' }).notNull(),
    /** Who ran it (host:pid), for the logs and the readiness report. */
    runner: text('runner').notNull(),
    startedAt: bigint('started_at', { mode: 'number' }).notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }),
    /** ok | failed; null while running (or when the runner died mid-run). */
    outcome: text('outcome'),
  },
  (t) => [primaryKey({ columns: [t.job, t.period] })],
);
