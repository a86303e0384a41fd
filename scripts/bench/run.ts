import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FULL_SIZE, QUICK_SIZE, seedDatabase } from './seed.ts';
import { freePort, rssBytes, startProduct, stopAll, stop, track } from './processes.ts';
import { signInAll } from './sign-in.ts';
import { load, round, type LoadResult } from './load.ts';
import { runClaimBaseline } from './claim-baseline.ts';
import { runJoinPath } from './join-path.ts';
import { measureWebSizes } from './web-size.ts';
import { checkLedger, evaluateTargets, formatReport } from './report.ts';
import type { BenchResults } from './results.ts';

// `npm run bench [-- --quick] [--redis] [--profile] [--build] [--out FILE]`
// Starts the real product (production mode, demo Discord in-process) on a freshly seeded database
// and measures its hot paths side by side with reference servers, on loopback only. Exits 1 when
// the run does not complete or the ledger invariant is broken; missed targets are printed, not fatal.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    redis: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    build: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const quick = args.quick;
const size = quick ? QUICK_SIZE : FULL_SIZE;
const plan = quick
  ? { seconds: 2.5, warmup: 0, connections: 32, claimUsers: 60, joinUsers: 20, signInConcurrency: 8, joinConcurrency: 4 }
  : { seconds: 10, warmup: 2, connections: 32, claimUsers: 2_000, joinUsers: 300, signInConcurrency: 8, joinConcurrency: 4 };
const root = path.resolve(import.meta.dirname, '../..');
const outFile = path.resolve(root, args.out ?? (quick ? 'bench/results.quick.tmp' : 'bench/results.json'));
const webDist = path.join(root, 'dist/web');
const mb = (bytes: number | null) => (bytes === null ? null : round(bytes / 1024 / 1024, 1));
const log = (msg: string) => console.log(`[bench] ${msg}`);

async function startReference(kind: 'raw' | 'express', bodyFile: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = track(spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'reference-server.ts'), kind, bodyFile], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  }));
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /listening (\d+)/.exec(buffered);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`reference server ${kind} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => stop(child) };
}

/** A short warm-up (JIT, caches), then the measured run. */
async function measure(url: string, cookies: string[] | undefined): Promise<LoadResult> {
  if (plan.warmup > 0) await load({ url, connections: plan.connections, duration: plan.warmup, cookies });
  return load({ url, connections: plan.connections, duration: plan.seconds, cookies });
}

async function main(): Promise<number> {
  const startedAt = new Date();
  // Other work on the machine skews every number; the report shows how busy it was.
  const loadBefore = os.loadavg()[0] ?? 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'coinsync-bench-'));
  const databasePath = path.join(dir, 'bench.db');
  try {
    if (args.build || !existsSync(path.join(webDist, 'index.html'))) {
      log('building the web app (npm run build)');
      const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
      if (built.status !== 0) throw new Error('npm run build failed');
    }
    const web = measureWebSizes(webDist);

    log(`seeding ${size.users} users, ${size.campaigns} campaigns, ${size.transactions} transactions`);
    const seeded = seedDatabase(databasePath, databasePath.replace(/\.db$/, '') + '.discord-sim.json', size);
    const scratchPath = path.join(dir, 'scratch.db');
    copyFileSync(databasePath, scratchPath);

    const redisUrl = args.redis ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') : undefined;
    const profileDir = path.join(root, 'bench', 'profiles.tmp');
    if (args.profile) mkdirSync(profileDir, { recursive: true });
    const product = await startProduct({
      port: await freePort(),
      databasePath,
      redisUrl,
      nodeFlags: args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    await product.waitForLine(/bot: connected as/, 60_000);
    log(`product up at ${product.url} (pid ${product.child.pid}), bot connected`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const atRest = rssBytes(product.child.pid);

    const actors = seeded.actors.slice(0, plan.claimUsers);
    const signInStart = Date.now();
    const sessions = await signInAll(product.url, actors.map((a) => a.username), plan.signInConcurrency);
    const signInSeconds = (Date.now() - signInStart) / 1000;
    log(`${sessions.length} users signed in through the simulator in ${signInSeconds.toFixed(1)} s`);
    const cookies = sessions.map((s) => s.cookie);

    // Discover, and the same bytes from the reference servers.
    const discoverUrl = `${product.url}/api/servers`;
    const sample = await fetch(discoverUrl, { headers: { cookie: cookies[0]! } });
    if (sample.status !== 200) throw new Error(`Discover answered ${sample.status}`);
    const body = Buffer.from(await sample.arrayBuffer());
    const bodyFile = path.join(dir, 'discover.json');
    writeFileSync(bodyFile, body);
    const discoverCookies = cookies.slice(0, 50);
    log(`Discover: ${(JSON.parse(body.toString()) as unknown[]).length} campaigns, ${body.length} bytes`);
    const productDiscover = await measure(discoverUrl, discoverCookies);
    const express = await startReference('express', bodyFile);
    const expressDiscover = await measure(`${express.url}/api/servers`, undefined);
    await express.stop();
    const raw = await startReference('raw', bodyFile);
    const rawDiscover = await measure(`${raw.url}/api/servers`, undefined);
    await raw.stop();
    log(`Discover: product ${productDiscover.rps.toFixed(0)} req/s, express ${expressDiscover.rps.toFixed(0)}, raw ${rawDiscover.rps.toFixed(0)}`);

    // Reward claims: every signed-in user claims once.
    const claims = await load({
      url: `${product.url}/api/hourly/claim`,
      method: 'POST',
      body: JSON.stringify({ type: 'regular' }),
      connections: plan.connections,
      amount: cookies.length,
      cookies,
    });
    if (claims.non2xx > 0 || claims.errors > 0) {
      throw new Error(`claims: ${claims.non2xx} non-2xx answers and ${claims.errors} errors of ${claims.requests}`);
    }
    const baseline = runClaimBaseline(scratchPath, quick ? 1_000 : 10_000);
    log(`claims: product ${claims.rps.toFixed(0)}/s, raw SQLite ${baseline.opsPerSecond.toFixed(0)}/s`);

    // Join → GUILD_MEMBER_ADD → bot → credit.
    const joinActors = sessions.slice(0, plan.joinUsers).map((s, i) => ({
      userId: s.userId,
      discordId: actors[i]!.discordId,
      cookie: s.cookie,
    }));
    const joinPath = await runJoinPath({
      baseUrl: product.url,
      simUrl: product.simUrl,
      databasePath,
      actors: joinActors,
      concurrency: plan.joinConcurrency,
      timeoutMs: 10_000,
    });
    log(`join path: ${joinPath.credited} credited, p50 ${joinPath.p50Ms.toFixed(1)} ms, p99 ${joinPath.p99Ms.toFixed(1)} ms`);

    const afterRun = rssBytes(product.child.pid);
    await stop(product.child, 15_000);
    const ledger = checkLedger(databasePath);

    const results: BenchResults = {
      mode: quick ? 'quick' : 'full',
      startedAt: startedAt.toISOString(),
      durationSeconds: 0,
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        memoryMb: Math.round(os.totalmem() / 1024 / 1024),
        node: process.versions.node,
        platform: `${os.platform()} ${os.release()}`,
        loadAverage1m: { before: round(loadBefore, 2), after: round(os.loadavg()[0] ?? 0, 2) },
      },
      sessions: redisUrl ? 'redis' : 'sqlite',
      data: {
        users: size.users,
        activeCampaigns: size.campaigns,
        inactiveCampaigns: size.inactiveCampaigns,
        transactions: seeded.transactions,
        joins: seeded.joins,
        seedMs: seeded.ms,
      },
      signIn: { users: sessions.length, seconds: round(signInSeconds, 2), perSecond: round(sessions.length / signInSeconds) },
      discover: {
        connections: plan.connections,
        seconds: plan.seconds,
        bodyBytes: body.length,
        product: productDiscover,
        express: expressDiscover,
        raw: rawDiscover,
        ratioToExpress: round(productDiscover.rps / expressDiscover.rps, 3),
        ratioToRaw: round(productDiscover.rps / rawDiscover.rps, 3),
      },
      claims: {
        product: claims,
        rawSqlite: { ...baseline, opsPerSecond: round(baseline.opsPerSecond), p99Ms: round(baseline.p99Ms, 3) },
        ratioToRawSqlite: round(claims.rps / baseline.opsPerSecond, 3),
      },
      joinPath: { ...joinPath, p50Ms: round(joinPath.p50Ms, 2), p99Ms: round(joinPath.p99Ms, 2), maxMs: round(joinPath.maxMs, 2), seconds: round(joinPath.seconds, 2) },
      memory: { atRestMb: mb(atRest), afterRunMb: mb(afterRun) },
      web,
      ledger,
      targets: [],
    };
    results.targets = evaluateTargets(results);
    results.durationSeconds = round((Date.now() - startedAt.getTime()) / 1000);
    console.log(formatReport(results, results.targets));
    mkdirSync(path.dirname(outFile), { recursive: true });
    writeFileSync(outFile, JSON.stringify(results, null, 2) + '\n');
    log(`results written to ${path.relative(root, outFile)}`);
    if (args.profile) log(`CPU profile(s) of the product in ${path.relative(root, profileDir)}`);
    if (!ledger.ok) {
      console.error(`[bench] LEDGER INVARIANT BROKEN for ${ledger.mismatches} users`);
      return 1;
    }
    return 0;
  } finally {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

let interrupted = false;
const onSignal = (signal: NodeJS.Signals) => {
  if (interrupted) return;
  interrupted = true;
  console.error(`[bench] ${signal}: stopping everything`);
  void stopAll(2000).finally(() => process.exit(130));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

main().then(
  (code) => process.exit(code),
  async (err: unknown) => {
    console.error(`[bench] FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await stopAll();
    process.exit(1);
  },
);
