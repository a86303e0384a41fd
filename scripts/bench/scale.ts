import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openPgDatabase } from '../../src/db/pg-client.ts';
import { databaseUrl } from '../../src/test/pg.ts';
import { startCluster, startSingleProcess, type Cluster } from '../../tests/scale/cluster.ts';
import { FULL_SIZE, QUICK_SIZE, seedDatabase, type SeedResult } from './seed.ts';
import { BENCH_METRICS_TOKEN, cpuSeconds } from './processes.ts';
import { describeStoreGroups, readStoreGroups, type StoreGroups } from './store-groups.ts';
import { signInAll, type SignedIn } from './sign-in.ts';
import { load, percentile, round, type LoadResult } from './load.ts';
import { backendPids, copySqliteToPg } from './pg-copy.ts';
import { describeMachine } from './results.ts';

// `npm run bench -- --pg [--web N] [--quick] [--out FILE]` (decision 028 step 5, issue 16 item 4): the
// scaled-out layout on one machine — N ROLE=web processes and one ROLE=bot process of the built product
// (tests/scale/cluster.ts), one PostgreSQL database seeded with the bench's data (seed.ts, copied by
// pg-copy.ts), one Redis — under the bench's Discover, claim and join→credit loads, spread round-robin
// over the web processes (a proxy's round-robin: each web process gets its share of the connections).
// CPU per request is counted for every process: each web process, the bot, the simulator, and the
// PostgreSQL backends serving the database (/proc of their pids). The ledger is checked on PostgreSQL.
//
// Beside it, in the same run and on the same seed (copied before either side starts), the default
// layout: ONE process on SQLite (ROLE=all, sessions in SQLite) under the same loads with the same CPU
// accounting (the product's process and the simulator's), and the ratio PostgreSQL / SQLite of the
// total CPU per request for each phase (issue 33 item 2). `--pg-only` leaves the SQLite side out.

export interface ScaleArgs {
  quick: boolean;
  webCount: number;
  out?: string;
  /** Skip phases: discover, claims, join. */
  only?: Set<string>;
  /** Leave out the SQLite layout beside it (default: run it). */
  pgOnly?: boolean;
  /**
   * Directory for V8 CPU profiles of every product process, whole lifetime (`--cpu-prof`; read them
   * with scripts/bench/profile-summary.ts). Sign-ins are in them too: use with `--only`.
   */
  cpuProfileDir?: string;
  /** Another checkout's compiled server (`--dist DIR`: DIR/dist/server/main.js) for both layouts: an A/B run. */
  main?: string;
}

const log = (msg: string) => console.log(`[bench:pg] ${msg}`);
const root = path.resolve(import.meta.dirname, '../..');
const ADMIN_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface CpuSplit {
  /** ms of CPU per answered request, by process group. */
  web: number;
  bot: number;
  postgres: number;
  sim: number;
  total: number;
}

interface PhaseResult extends LoadResult {
  cpu: CpuSplit | null;
}

/** CPU seconds of every process of the layout and of the database's backends (PostgreSQL), by group. */
async function cpuSnapshot(
  cluster: Cluster,
  dbName: string | null,
): Promise<Map<string, Map<number, number>>> {
  const groups = new Map<string, Map<number, number>>();
  const add = (group: string, pid: number | undefined) => {
    const s = cpuSeconds(pid);
    if (pid === undefined || s === null) return;
    const g = groups.get(group) ?? new Map<number, number>();
    g.set(pid, s);
    groups.set(group, g);
  };
  for (const p of cluster.web) add('web', p.child.pid);
  for (const p of cluster.bot) add('bot', p.child.pid);
  add('sim', cluster.sim.child.pid);
  if (dbName !== null) for (const pid of await backendPids(ADMIN_URL, dbName)) add('postgres', pid);
  return groups;
}

function cpuPerRequest(
  before: Map<string, Map<number, number>>,
  after: Map<string, Map<number, number>>,
  requests: number,
): CpuSplit | null {
  if (requests === 0) return null;
  const ms = (group: string) => {
    let total = 0;
    for (const [pid, s] of after.get(group) ?? []) total += s - (before.get(group)?.get(pid) ?? 0);
    return round((total * 1000) / requests, 3);
  };
  const split = { web: ms('web'), bot: ms('bot'), postgres: ms('postgres'), sim: ms('sim') };
  return { ...split, total: round(split.web + split.bot + split.postgres + split.sim, 3) };
}

/** Runs one load per web process at once (its share of the connections and sessions); one result. */
async function spread(
  cluster: Cluster,
  dbName: string | null,
  build: (webUrl: string, share: number) => Parameters<typeof load>[0],
): Promise<PhaseResult> {
  const before = await cpuSnapshot(cluster, dbName);
  const results = await Promise.all(cluster.webUrls.map((url, i) => load(build(url, i))));
  const after = await cpuSnapshot(cluster, dbName);
  const requests = results.reduce((n, r) => n + r.requests, 0);
  // Percentiles: the worst process's (each load keeps its own latencies).
  return {
    requests,
    seconds: round(Math.max(...results.map((r) => r.seconds)), 3),
    rps: requests / Math.max(...results.map((r) => r.seconds), 1e-9),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    max: Math.max(...results.map((r) => r.max)),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    cpu: cpuPerRequest(before, after, requests),
  };
}

/** How the phases reach one layout's database (plan the joins, see a credit). */
interface LayoutDb {
  /** A campaign `userId` can join (bot in its guild), the `offset`-th of the candidates. */
  pick(userId: string, offset: number): Promise<{ id: string; guild: string }>;
  /** Whether the join's credit is visible (the bench's own poller). */
  credited(userId: string, campaignId: string): Promise<boolean>;
  close(): Promise<void>;
}

interface JoinPathResult {
  joins: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  perSecond: number;
  cpu: CpuSplit | null;
}

interface LayoutResult {
  discover: PhaseResult | null;
  claims: PhaseResult | null;
  joinPath: JoinPathResult | null;
  idleCpuPercentOfCore: { web: number; bot: number; postgres: number; sim: number } | null;
}

interface Plan {
  seconds: number;
  warmup: number;
  connections: number;
  claimUsers: number;
  joinUsers: number;
  joinConcurrency: number;
}

const JOINABLE = `FROM servers s
  WHERE s.members_remaining > 0 AND s.canceled_at IS NULL AND s.invite_valid AND s.server_id IS NOT NULL
    AND s.owner_id <> $1 AND NOT EXISTS (SELECT 1 FROM server_joins j WHERE j.user_id = $1 AND j.server_id = s.id)`;
const CREDITED = `SELECT 1 FROM transactions t JOIN server_joins j ON t.idempotency_key = 'join:' || j.id
  WHERE j.user_id = $1 AND j.server_id = $2`;

function pgLayoutDb(dbUrl: string): LayoutDb {
  const reader = new pg.Pool({ connectionString: dbUrl, max: 2 });
  return {
    async pick(userId, offset) {
      const row = await reader.query<{ id: string; guild: string }>(
        `SELECT s.id, s.server_id AS guild ${JOINABLE} ORDER BY s.id LIMIT 1 OFFSET $2`,
        [userId, offset],
      );
      return row.rows[0]!;
    },
    async credited(userId, campaignId) {
      return ((await reader.query(CREDITED, [userId, campaignId])).rowCount ?? 0) > 0;
    },
    close: () => reader.end(),
  };
}

function sqliteLayoutDb(file: string): LayoutDb {
  // Read-only, beside the product's own connections (WAL); the same queries, SQLite's named parameters.
  const reader = new Database(file, { readonly: true, fileMustExist: true });
  const sqliteText = (text: string) => text.replace(/\$(\d)/g, '@p$1');
  const pick = reader.prepare<[{ p1: string; p2: number }], { id: string; guild: string }>(
    sqliteText(`SELECT s.id, s.server_id AS guild ${JOINABLE} ORDER BY s.id LIMIT 1 OFFSET $2`),
  );
  const credited = reader.prepare<[{ p1: string; p2: string }], unknown>(sqliteText(CREDITED));
  return {
    pick: (userId, offset) => Promise.resolve(pick.get({ p1: userId, p2: offset })!),
    credited: (userId, campaignId) =>
      Promise.resolve(credited.get({ p1: userId, p2: campaignId }) !== undefined),
    close: () => Promise.resolve(void reader.close()),
  };
}

/**
 * Sign-ins, then Discover, claims and join → credit on one layout, CPU counted per process group
 * (`dbName`: the PostgreSQL database whose backends are counted too; null on SQLite).
 */
async function runPhases(
  label: string,
  c: Cluster,
  dbName: string | null,
  db: LayoutDb,
  seeded: SeedResult,
  plan: Plan,
  runs: (phase: string) => boolean,
): Promise<LayoutResult> {
  const say = (msg: string) => console.log(`[bench:pg] ${label}: ${msg}`);
  const actors = seeded.actors.slice(0, plan.claimUsers);
  const signInStart = Date.now();
  // Each web process signs in its share (round-robin); a session is good on every web process.
  const shares = await Promise.all(
    c.webUrls.map((url, w) =>
      signInAll(
        url,
        actors.filter((_, i) => i % c.webUrls.length === w).map((a) => a.username),
        Math.max(2, Math.floor(8 / c.webUrls.length)),
      ),
    ),
  );
  const sessions: SignedIn[] = [];
  for (let i = 0; i < actors.length; i++)
    sessions.push(shares[i % c.webUrls.length]![Math.floor(i / c.webUrls.length)]!);
  say(`${sessions.length} users signed in in ${((Date.now() - signInStart) / 1000).toFixed(1)} s`);
  const cookies = sessions.map((s) => s.cookie);
  const proxied = { 'x-forwarded-proto': 'https' };
  const perWeb = <T>(items: T[], w: number) => items.filter((_, i) => i % c.webUrls.length === w);
  const connectionsEach = Math.max(1, Math.floor(plan.connections / c.webUrls.length));

  let discover: PhaseResult | null = null;
  if (runs('discover')) {
    const discoverCookies = cookies.slice(0, 50);
    const build = (url: string, w: number, duration: number) => ({
      url: `${url}/api/servers`,
      connections: connectionsEach,
      duration,
      headers: proxied,
      cookies: perWeb(discoverCookies, w),
    });
    if (plan.warmup > 0) await spread(c, dbName, (url, w) => build(url, w, plan.warmup));
    discover = await spread(c, dbName, (url, w) => build(url, w, plan.seconds));
    say(
      `Discover: ${discover.rps.toFixed(0)} req/s, p99 ${discover.p99} ms, CPU/request ${JSON.stringify(discover.cpu)}`,
    );
    if (discover.non2xx > 0 || discover.errors > 0)
      throw new Error(`Discover: ${discover.non2xx} non-2xx, ${discover.errors} errors`);
  }

  let claims: PhaseResult | null = null;
  if (runs('claims')) {
    const warm = Math.min(200, Math.floor(cookies.length / 10));
    const blocks: PhaseResult[] = [];
    let groupsBefore: StoreGroups | null = null;
    for (const [users, measured] of [
      [cookies.slice(0, warm), false],
      [cookies.slice(warm), true],
    ] as const) {
      if (measured) groupsBefore = await storeGroupsOf(c);
      for (const type of ['regular', 'bonus', 'daily']) {
        const block = await spread(c, dbName, (url, w) => {
          const mine = perWeb(users, w);
          return {
            url: `${url}/api/hourly/claim`,
            method: 'POST' as const,
            connections: connectionsEach,
            amount: mine.length,
            headers: proxied,
            body: JSON.stringify({ type }),
            requestFor: (n: number) => ({ cookie: mine[n % mine.length] }),
          };
        });
        if (block.non2xx > 0 || block.errors > 0)
          throw new Error(`claims ${type}: ${block.non2xx} non-2xx, ${block.errors} errors`);
        if (measured) blocks.push(block);
      }
    }
    // The claims' writes per commit: SQLite's group commits, PostgreSQL's groups of one statement (decision 062).
    say(`claims: ${describeStoreGroups(groupsBefore, await storeGroupsOf(c))}`);
    const requests = blocks.reduce((n, b) => n + b.requests, 0);
    const seconds = blocks.reduce((n, b) => n + b.seconds, 0);
    const cpuOf = (k: keyof CpuSplit) =>
      round(blocks.reduce((n, b) => n + (b.cpu?.[k] ?? 0) * b.requests, 0) / requests, 3);
    claims = {
      requests,
      seconds: round(seconds, 3),
      rps: requests / seconds,
      p50: Math.max(...blocks.map((b) => b.p50)),
      p99: Math.max(...blocks.map((b) => b.p99)),
      max: Math.max(...blocks.map((b) => b.max)),
      non2xx: 0,
      errors: 0,
      cpu: {
        web: cpuOf('web'),
        bot: cpuOf('bot'),
        postgres: cpuOf('postgres'),
        sim: cpuOf('sim'),
        total: cpuOf('total'),
      },
    };
    say(
      `claims: ${claims.rps.toFixed(0)}/s over ${claims.seconds} s, p99 ${claims.p99} ms, CPU/claim ${JSON.stringify(claims.cpu)}`,
    );
  }

  let joinPath: JoinPathResult | null = null;
  if (runs('join')) {
    const joiners = sessions.slice(-plan.joinUsers);
    const byUsername = new Map(seeded.actors.map((a) => [a.username, a]));
    const plans: {
      session: SignedIn;
      web: string;
      campaign: { id: string; guild: string };
      discordId: string;
    }[] = [];
    for (const [i, s] of joiners.entries()) {
      plans.push({
        session: s,
        web: c.webUrls[i % c.webUrls.length]!,
        campaign: await db.pick(s.userId, (i * 7) % 50),
        discordId: byUsername.get(s.username)!.discordId,
      });
    }
    const before = await cpuSnapshot(c, dbName);
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < plans.length) {
        const p = plans[next++]!;
        const join = await fetch(`${p.web}/api/servers/${p.campaign.id}/join`, {
          method: 'POST',
          headers: { cookie: p.session.cookie, ...proxied },
        });
        if (join.status !== 200) throw new Error(`join: ${join.status} ${await join.text()}`);
        const t0 = performance.now();
        const add = await fetch(`${c.simUrl}/control/guilds/${p.campaign.guild}/members`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId: p.discordId }),
        });
        if (add.status !== 201) throw new Error(`add member: ${add.status}`);
        // The credit, polled every 2 ms on the bench's own connection (on PostgreSQL its backend's CPU
        // is counted with the database's; on SQLite the poller runs in the bench, not counted).
        for (;;) {
          if (await db.credited(p.session.userId, p.campaign.id)) break;
          if (performance.now() - t0 > 30_000) throw new Error(`no credit for ${p.session.username} in 30 s`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        latencies.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: plan.joinConcurrency }, worker));
    const seconds = (performance.now() - started) / 1000;
    const after = await cpuSnapshot(c, dbName);
    latencies.sort((a, b) => a - b);
    joinPath = {
      joins: latencies.length,
      p50Ms: round(percentile(latencies, 50), 1),
      p99Ms: round(percentile(latencies, 99), 1),
      maxMs: round(latencies.at(-1) ?? Number.NaN, 1),
      perSecond: round(latencies.length / seconds, 1),
      cpu: cpuPerRequest(before, after, latencies.length),
    };
    say(
      `join → credit: ${joinPath.joins} joins, p50 ${joinPath.p50Ms} ms, p99 ${joinPath.p99Ms} ms, CPU/join ${JSON.stringify(joinPath.cpu)}`,
    );
  }

  // Idle CPU of each group over 3 s (the bot's and the jobs' background work).
  const idleBefore = await cpuSnapshot(c, dbName);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  // CPU-ms per wall-ms: the share of one core each group used with no requests.
  const idle = cpuPerRequest(idleBefore, await cpuSnapshot(c, dbName), 3000);
  return {
    discover,
    claims,
    joinPath,
    idleCpuPercentOfCore: idle
      ? {
          web: round(idle.web * 100, 1),
          bot: round(idle.bot * 100, 1),
          postgres: round(idle.postgres * 100, 1),
          sim: round(idle.sim * 100, 1),
        }
      : null,
  };
}

/** Users whose balance is not the sum of their transactions (the ledger invariant), on either engine. */
const MISMATCHES = `SELECT u.id FROM users u LEFT JOIN transactions t ON t.user_id = u.id
  GROUP BY u.id HAVING u.coins <> COALESCE(sum(t.amount), 0)`;

/** PostgreSQL's total CPU per request over SQLite's, per phase. */
function ratios(pgSide: LayoutResult, sqliteSide: LayoutResult) {
  const ratio = (a: CpuSplit | null | undefined, b: CpuSplit | null | undefined) =>
    a && b && b.total > 0 ? round(a.total / b.total, 2) : null;
  return {
    discover: ratio(pgSide.discover?.cpu, sqliteSide.discover?.cpu),
    claims: ratio(pgSide.claims?.cpu, sqliteSide.claims?.cpu),
    joinPath: ratio(pgSide.joinPath?.cpu, sqliteSide.joinPath?.cpu),
  };
}

function printTable(pgLabel: string, pgSide: LayoutResult, sqliteSide: LayoutResult | null): void {
  const cpu = (s: CpuSplit | null | undefined) =>
    s ? `${s.web} + ${s.bot} + ${s.postgres} + ${s.sim} = ${s.total} ms` : '—';
  const row = (label: string, r: LayoutResult) =>
    `  ${label.padEnd(26)} | Discover ${r.discover ? `${r.discover.rps.toFixed(0)} req/s, p99 ${r.discover.p99} ms` : '—'}, CPU ${cpu(r.discover?.cpu)}` +
    ` | claims ${r.claims ? `${r.claims.rps.toFixed(0)}/s, p99 ${r.claims.p99} ms` : '—'}, CPU ${cpu(r.claims?.cpu)}` +
    ` | join → credit ${r.joinPath ? `p50 ${r.joinPath.p50Ms} / p99 ${r.joinPath.p99Ms} ms` : '—'}, CPU ${cpu(r.joinPath?.cpu)}`;
  console.log('[bench:pg] CPU per request: web + bot + PostgreSQL + sim = total (all processes)');
  console.log(row(pgLabel, pgSide));
  if (!sqliteSide) return;
  console.log(row('SQLite, one process', sqliteSide));
  const r = ratios(pgSide, sqliteSide);
  console.log(
    `  PostgreSQL / SQLite (CPU) | Discover ${r.discover ?? '—'}× | claims ${r.claims ?? '—'}× | join → credit ${r.joinPath ?? '—'}×`,
  );
}

function profileEnv(args: ScaleArgs, side: string): { nodeFlags?: string[] } {
  if (!args.cpuProfileDir) return {};
  const dir = path.resolve(root, args.cpuProfileDir, side);
  mkdirSync(dir, { recursive: true });
  return { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] };
}

/** The group-commit totals of every web process (null when one has none on /metrics). */
async function storeGroupsOf(c: Cluster): Promise<StoreGroups | null> {
  const each = await Promise.all(c.webUrls.map((url) => readStoreGroups(url)));
  if (each.some((g) => g === null)) return null;
  return (each as StoreGroups[]).reduce((a, b) => ({
    groups: a.groups + b.groups,
    bodies: a.bodies + b.bodies,
  }));
}

export async function runScaleBench(args: ScaleArgs): Promise<number> {
  const size = args.quick ? QUICK_SIZE : FULL_SIZE;
  // --quick: the small seed, with enough load after a warm-up that CPU per request is the steady
  // state's (a cold run's JIT and first cache builds doubled it); the full plan is the SQLite bench's.
  const plan: Plan = args.quick
    ? { seconds: 10, warmup: 3, connections: 32, claimUsers: 200, joinUsers: 40, joinConcurrency: 4 }
    : { seconds: 10, warmup: 2, connections: 32, claimUsers: 2_000, joinUsers: 300, joinConcurrency: 4 };
  const runs = (phase: string) => !args.only || args.only.has(phase);
  const loadBefore = os.loadavg()[0] ?? 0;
  const startedAt = new Date();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'coinsync-bench-pg-'));
  const dbName = `coinsync_bench_${process.pid}_${Date.now().toString(36)}`;
  const dbUrl = databaseUrl(ADMIN_URL, dbName);
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  let cluster: Cluster | undefined;
  try {
    const sqlitePath = path.join(dir, 'bench.db');
    const simState = path.join(dir, 'bench.discord-sim.json');
    if (args.main) log(`server: ${args.main} (--dist), both layouts`);
    log(`seeding ${size.users} users, ${size.campaigns} campaigns, ${size.transactions} transactions`);
    const seeded = seedDatabase(sqlitePath, simState, size);
    // The SQLite side runs on copies taken now: the simulator saves its state (members added by the
    // PostgreSQL side's joins) to its file.
    const sqliteSide = {
      db: path.join(dir, 'sqlite-side.db'),
      sim: path.join(dir, 'sqlite-side.discord-sim.json'),
    };
    copyFileSync(sqlitePath, sqliteSide.db);
    copyFileSync(simState, sqliteSide.sim);
    await admin(`CREATE DATABASE "${dbName}"`);
    // The product's own migrations (drizzle-pg/), then the seeded rows.
    await (await openPgDatabase(dbUrl, { max: 1 })).close();
    const copied = await copySqliteToPg(sqlitePath, dbUrl);
    log(
      `copied into PostgreSQL ${dbName} in ${(copied.ms / 1000).toFixed(1)} s: ${JSON.stringify(copied.tables)}`,
    );

    const redisBase = (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '');
    cluster = await startCluster({
      databaseUrl: dbUrl,
      redisUrl: `${redisBase}/${1 + (process.pid % 15)}`,
      webCount: args.webCount,
      botCount: 1,
      simState,
      startTimeoutMs: 180_000,
      ...profileEnv(args, 'pg'),
      ...(args.main ? { main: args.main } : {}),
      env: { METRICS_TOKEN: BENCH_METRICS_TOKEN },
    });
    log(
      `${args.webCount} web process(es) ${cluster.web.map((p) => p.child.pid).join(', ')}, bot ${cluster.bot[0]!.child.pid}: up, bot connected`,
    );
    const pgLabel = `PostgreSQL, ${args.webCount} web + 1 bot`;
    const pgDb = pgLayoutDb(dbUrl);
    let pgResult: LayoutResult;
    try {
      pgResult = await runPhases(pgLabel, cluster, dbName, pgDb, seeded, plan, runs);
    } finally {
      await pgDb.close();
    }
    await cluster.stop();
    cluster = undefined;
    const check = new pg.Client({ connectionString: dbUrl });
    await check.connect();
    const pgMismatches = (await check.query(MISMATCHES)).rowCount ?? 0;
    await check.end();

    let sqliteResult: LayoutResult | null = null;
    let sqliteMismatches = 0;
    if (!args.pgOnly) {
      cluster = await startSingleProcess({
        sqlitePath: sqliteSide.db,
        simState: sqliteSide.sim,
        startTimeoutMs: 180_000,
        ...profileEnv(args, 'sqlite'),
        ...(args.main ? { main: args.main } : {}),
        env: { METRICS_TOKEN: BENCH_METRICS_TOKEN },
      });
      log(`SQLite, one process ${cluster.web[0]!.child.pid}: up, bot connected`);
      const sqliteDb = sqliteLayoutDb(sqliteSide.db);
      try {
        sqliteResult = await runPhases('SQLite, one process', cluster, null, sqliteDb, seeded, plan, runs);
      } finally {
        await sqliteDb.close();
      }
      await cluster.stop();
      cluster = undefined;
      const file = new Database(sqliteSide.db, { readonly: true });
      sqliteMismatches = file.prepare(MISMATCHES).all().length;
      file.close();
    }

    printTable(pgLabel, pgResult, sqliteResult);
    const ledgerOk = pgMismatches === 0 && sqliteMismatches === 0;
    const report = {
      mode: 'pg',
      startedAt: startedAt.toISOString(),
      machine: describeMachine(loadBefore),
      loadAverageAfter: round(os.loadavg()[0] ?? 0, 2),
      layout: { web: args.webCount, bot: 1, postgres: 'local', redis: 'local' },
      seed: size,
      ...pgResult,
      ledger: { ok: pgMismatches === 0, mismatches: pgMismatches },
      // The default layout beside it, same seed, same loads, same CPU accounting (null with --pg-only).
      sqlite: sqliteResult
        ? {
            layout: 'one process (ROLE=all), sessions in SQLite',
            ...sqliteResult,
            ledger: { ok: sqliteMismatches === 0, mismatches: sqliteMismatches },
          }
        : null,
      // PostgreSQL's total CPU per request (all processes) over SQLite's, per phase.
      cpuRatioPgOverSqlite: sqliteResult ? ratios(pgResult, sqliteResult) : null,
    };
    const outFile = path.resolve(root, args.out ?? `bench/results.pg-web${args.webCount}.json`);
    mkdirSync(path.dirname(outFile), { recursive: true });
    writeFileSync(outFile, JSON.stringify(report, null, 2) + '\n');
    log(`results written to ${path.relative(root, outFile)}`);
    if (pgMismatches > 0)
      console.error(`[bench:pg] LEDGER INVARIANT BROKEN on PostgreSQL for ${pgMismatches} users`);
    if (sqliteMismatches > 0)
      console.error(`[bench:pg] LEDGER INVARIANT BROKEN on SQLite for ${sqliteMismatches} users`);
    return ledgerOk ? 0 : 1;
  } finally {
    if (cluster) {
      console.error(cluster.describe());
      await cluster.stop();
    }
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
