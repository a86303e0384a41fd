import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../src/test/child-process.ts';
import { FULL_SIZE, QUICK_SIZE, seedDatabase } from './seed.ts';
import {
  cpuSeconds,
  distIsStale,
  PRODUCT_START_TIMEOUT_MS,
  productionEnv,
  productionNodeFlags,
  rssBytes,
  startProduct,
  stopAll,
  stop,
  track,
  type ProductRuntime,
} from './processes.ts';
import { signInAll } from './sign-in.ts';
import { combine, load, round, withCpu, type LoadResult } from './load.ts';
import { withGc } from './gc.ts';
import { openClaimBaseline, type BaselineResult } from './claim-baseline.ts';
import { describeStoreGroups, readStoreGroups } from './store-groups.ts';
import { startJoinWrites } from './discover-writes.ts';
import { runJoinPath } from './join-path.ts';
import { measureWebSizes } from './web-size.ts';
import { checkLedger, countRows, evaluateTargets, formatReport } from './report.ts';
import { describeMachine, type BenchResults } from './results.ts';
import { longTasks, longTasksByEntry, summarizeProfile } from './profile-summary.ts';
import { InspectorProfiler } from './inspector-profile.ts';
import { formatHeapProfile, summarizeHeapProfile } from './heap-profile-summary.ts';
import { readMemorySplit, runSoak, type SoakResult } from './soak.ts';
import { SoakDay } from './soak-day.ts';
import { startWatchedProcess } from '../../src/test/child-process.ts';
import { measurePhoneRender } from './phone-render.ts';
import { runDiscordBench } from './discord.ts';
import { runMemberSweepBench } from './member-sweep.ts';
import { runScaleBench } from './scale.ts';
import { runPageBench } from './pages.ts';
import { errorDetail, errorMessage } from '../../src/ops/error-text.ts';

// `npm run bench [-- --quick] [--redis] [--profile | --heap-profile | --perf] [--only discover,claims,join] [--build] [--out FILE]`
// `npm run bench -- --pages [--quick]`: signed-in HTML of every server-rendered page (pages.ts)
// `npm run bench -- --soak [--soak-seconds 180] [--soak-rate 1000] [--soak-users 100]`: the soak (soak.ts)
// `npm run bench -- --soak --soak-day [--soak-streams 1000] [--soak-joins-per-minute 30] [--soak-purchases-per-minute 6]`:
//   the soak as a day: pages, live-event streams, joins and leaves through the simulator, purchases (soak-day.ts)
// `npm run bench -- --pg [--web N] [--quick] [--pg-only] [--dist DIR]`: PostgreSQL, N web processes and one bot process,
//   and the SQLite single process beside it on the same seed and loads (scale.ts)
// `npm run bench -- --reconcile [--via rest|auto] | --mass-leave`: the Discord benches (discord.ts)
// `npm run bench -- --member-sweep [--guilds 200] [--members 2000] [--joins-per-member 10] [--no-tokens]`: without the Server Members intent (member-sweep.ts)
// Starts the real product (production mode, demo Discord in-process) on a freshly seeded database
// and measures its hot paths side by side with reference servers, on loopback only. Exits 1 when
// the run does not complete or the ledger invariant is broken; missed targets are printed, not fatal.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    redis: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    // `--perf`: CPU-time profiles with Linux perf (perf record -p, JIT symbols from --perf-basic-prof):
    // unlike the V8 profiler's wall-clock samples, time the product spends descheduled on a busy
    // machine (e.g. inside writev waking the client) is not counted.
    perf: { type: 'boolean', default: false },
    // `--heap-profile`: V8's sampling heap profiler around each measured phase, keeping only objects
    // that survived a scavenge (what fills the old generation); top allocating stacks printed. Instead of
    // --profile's CPU profile when both are given (one inspector, one profile per phase).
    'heap-profile': { type: 'boolean', default: false },
    // `--node-flags "--max-semi-space-size=16"`: extra node flags for the product, after production's
    // (experiments with V8 settings; the report shows the flags it ran with).
    'node-flags': { type: 'string' },
    // `--product-env MALLOC_ARENA_MAX=2` (repeatable): extra environment for the product (the bench starts it
    // with a fresh environment, not this one's), e.g. glibc's malloc tunables for a memory A/B.
    'product-env': { type: 'string', multiple: true },
    build: { type: 'boolean', default: false },
    // dist (default; --quick: tsx): see processes.ts
    runtime: { type: 'string' },
    // `--dist DIR`: run DIR/dist/server/main.js instead (A/B against another checkout; not rebuilt).
    dist: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
    // `--skip phone,writes`: leave out Discover's phone render and under-writes runs (quicker A/B runs).
    skip: { type: 'string' },
    // `--pg [--web N]`: the scaled-out layout on PostgreSQL, N web processes and one bot (scale.ts).
    pg: { type: 'boolean', default: false },
    // `--pg-only`: without the SQLite layout the --pg run otherwise measures beside it.
    'pg-only': { type: 'boolean', default: false },
    // `--cpu-prof DIR` (with --pg): V8 CPU profiles of every product process, whole lifetime, in DIR/pg and DIR/sqlite.
    'cpu-prof': { type: 'string' },
    web: { type: 'string', default: '1' },
    soak: { type: 'boolean', default: false },
    // `--pages [--quick]`: signed-in page loads per route beside Express, and an overload run (pages.ts).
    pages: { type: 'boolean', default: false },
    // `--pages --page-routes /,/dashboard`: only those routes (and the overload run), to iterate on one page.
    'page-routes': { type: 'string' },
    'soak-seconds': { type: 'string', default: '180' },
    'soak-rate': { type: 'string', default: '1000' },
    'soak-users': { type: 'string', default: '100' },
    'soak-day': { type: 'boolean', default: false },
    'soak-streams': { type: 'string', default: '1000' },
    'soak-joins-per-minute': { type: 'string', default: '30' },
    'soak-purchases-per-minute': { type: 'string', default: '6' },
    // Discord benches (discord.ts): reconciliation at scale and a mass leave, against the simulator.
    reconcile: { type: 'boolean', default: false },
    'mass-leave': { type: 'boolean', default: false },
    guilds: { type: 'string', default: '200' },
    'joins-per-guild': { type: 'string', default: '100' },
    'guild-size': { type: 'string', default: '500' },
    via: { type: 'string', default: 'rest' },
    leavers: { type: 'string', default: '500' },
    arrivals: { type: 'string', default: '20' },
    'leave-reason': { type: 'string', default: 'leave' },
    // Without the Server Members intent (member-sweep.ts): the sweep, leave detection, checks on return.
    'member-sweep': { type: 'boolean', default: false },
    members: { type: 'string', default: '2000' },
    'joins-per-member': { type: 'string', default: '10' },
    returning: { type: 'string', default: '50' },
    'no-tokens': { type: 'boolean', default: false },
  },
});

// `--only discover,claims` runs just those phases (with --profile: a profile of one hot path).
const PHASES = ['discover', 'claims', 'join'] as const;
type Phase = (typeof PHASES)[number];
const only = args.only ? new Set(args.only.split(',').map((p) => p.trim())) : null;
for (const p of only ?? []) {
  if (!(PHASES as readonly string[]).includes(p))
    throw new Error(`--only: unknown phase ${p} (${PHASES.join(', ')})`);
}
const runs = (phase: Phase) => !only || only.has(phase);
const skipped = new Set(
  (args.skip ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean),
);
for (const p of skipped) {
  if (p !== 'phone' && p !== 'writes') throw new Error(`--skip: unknown part ${p} (phone, writes)`);
}

const quick = args.quick;
// The full bench measures what production runs (dist/server, production's node flags); the CI smoke
// run (--quick) keeps to the sources so it needs no server build.
const runtime: ProductRuntime = (args.runtime ?? (quick ? 'tsx' : 'dist')) as ProductRuntime;
if (runtime !== 'dist' && runtime !== 'tsx')
  throw new Error(`--runtime: dist or tsx, not ${String(runtime)}`);
const size = quick ? QUICK_SIZE : FULL_SIZE;
const plan = quick
  ? {
      seconds: 2.5,
      warmup: 0,
      connections: 32,
      claimUsers: 60,
      claimWarmupUsers: 10,
      joinUsers: 20,
      signInConcurrency: 8,
      joinConcurrency: 4,
    }
  : {
      seconds: 10,
      warmup: 2,
      connections: 32,
      claimUsers: 2_000,
      claimWarmupUsers: 200,
      joinUsers: 300,
      signInConcurrency: 8,
      joinConcurrency: 4,
    };
const root = path.resolve(import.meta.dirname, '../..');
const outFile = path.resolve(
  root,
  args.out ?? (quick ? 'bench/results.quick.tmp' : args.soak ? 'bench/soak.json' : 'bench/results.json'),
);
const webDist = path.join(root, 'dist/web');
const mb = (bytes: number | null) => (bytes === null ? null : round(bytes / 1024 / 1024, 1));
const log = (msg: string) => console.log(`[bench] ${msg}`);

async function startReference(
  kind: 'raw' | 'express',
  bodyFile: string,
): Promise<{ url: string; pid: number | undefined; stop(): Promise<void> }> {
  const child = track(
    spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'reference-server.ts'), kind, bodyFile],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /listening (\d+)/.exec(buffered);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`reference server ${kind} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stop(child) };
}

/** Runs `work` under `perf record` of process `pid` and prints the top symbols by CPU time. */
async function perfRecorded<T>(phase: string, pid: number, dir: string, work: () => Promise<T>): Promise<T> {
  const file = path.join(dir, `${phase}.perf.data`);
  const perf = spawn('perf', ['record', '-F', '997', '-g', '-p', String(pid), '-o', file], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  try {
    return await work();
  } finally {
    const exited = new Promise((resolve) => perf.once('exit', resolve));
    perf.kill('SIGINT');
    await exited;
    const report = spawnSync(
      'perf',
      ['report', '-i', file, '--stdio', '--no-children', '--sort', 'dso,symbol', '--percent-limit', '0.7'],
      { encoding: 'utf8' },
    );
    log(`perf profile of ${phase} (${path.relative(root, file)}; CPU time only):`);
    console.log(
      report.stdout
        .split('\n')
        .filter((line) => line.trim() && !line.startsWith('#'))
        .slice(0, 45)
        .join('\n'),
    );
  }
}

/** A short warm-up (JIT, caches), then the measured run (with the server's CPU per request). */
async function measure(
  url: string,
  cookies: string[] | undefined,
  pid: number | undefined,
  /** The product's base URL: the run's garbage collection is read from its /metrics. */
  metricsBase?: string,
): Promise<LoadResult> {
  if (plan.warmup > 0) await load({ url, connections: plan.connections, duration: plan.warmup, cookies });
  const run = () =>
    withCpu(pid, cpuSeconds, () =>
      load({ url, connections: plan.connections, duration: plan.seconds, cookies }),
    );
  return metricsBase ? withGc(metricsBase, run) : run();
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
    if (runtime === 'dist' && !args.dist && distIsStale()) {
      log('building the server (npm run build:server): dist/server is missing or older than src/');
      const built = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: root, stdio: 'inherit' });
      if (built.status !== 0) throw new Error('npm run build:server failed');
    }
    const web = measureWebSizes(webDist);

    log(`seeding ${size.users} users, ${size.campaigns} campaigns, ${size.transactions} transactions`);
    const seeded = seedDatabase(databasePath, databasePath.replace(/\.db$/, '') + '.discord-sim.json', size);
    const scratchPath = path.join(dir, 'scratch.db');
    copyFileSync(databasePath, scratchPath);

    const redisUrl = args.redis ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') : undefined;
    const profileDir = path.join(root, 'bench', 'profiles.tmp');
    if (args.profile || args.perf || args['heap-profile']) mkdirSync(profileDir, { recursive: true });
    const productPort = await freePort();
    // The soak's day buys coins: the Stripe fake in its own process, signing its webhooks to the product.
    const stripe = args.soak && args['soak-day'] ? await startStripeFake(productPort) : null;
    const productEnv = productEnvOf(args['product-env']);
    const product = await startProduct({
      port: productPort,
      env: { ...stripe?.productEnv, ...productEnv },
      databasePath,
      redisUrl,
      runtime,
      ...(args.dist ? { distEntry: path.resolve(args.dist, 'dist/server/main.js') } : {}),
      nodeFlags: [
        ...(args.profile || args['heap-profile'] ? ['--inspect=127.0.0.1:0'] : []),
        ...(args.perf ? ['--perf-basic-prof-only-functions', '--interpreted-frames-native-stack'] : []),
        ...(args['node-flags']?.split(/\s+/).filter(Boolean) ?? []),
      ],
    });
    await product.waitForLine(/bot: connected as/, PRODUCT_START_TIMEOUT_MS);
    const inspector =
      args.profile || args['heap-profile']
        ? await InspectorProfiler.connect(
            /(ws:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(
              await product.waitForLine(/Debugger listening on ws:/, 5_000),
            )![1]!,
          )
        : null;
    const profiled = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
      if (args.perf) return perfRecorded(phase, product.child.pid!, profileDir, work);
      if (!inspector) return work();
      const heap = args['heap-profile'];
      if (heap) await inspector.startHeapSampling();
      else await inspector.start();
      try {
        return await work();
      } finally {
        const file = path.join(profileDir, `${phase}.${heap ? 'heapprofile' : 'cpuprofile'}`);
        if (heap) await inspector.stopHeapSampling(file);
        else await inspector.stop(file);
        profiles.push({ phase, file });
      }
    };
    const profiles: { phase: string; file: string }[] = [];
    const runtimeInfo = {
      kind: runtime,
      nodeFlags: [
        ...(runtime === 'dist' ? productionNodeFlags() : []),
        ...(args['node-flags']?.split(/\s+/).filter(Boolean) ?? []),
      ],
      ...(args.dist ? { distDir: path.resolve(args.dist) } : {}),
      env: { ...(runtime === 'dist' ? productionEnv() : {}), ...productEnv },
    };
    log(
      `product up at ${product.url} (pid ${product.child.pid}, ${runtime === 'dist' ? `node ${runtimeInfo.nodeFlags.join(' ')} ${args.dist ? path.resolve(args.dist, 'dist/server/main.js') : 'dist/server/main.js'}` : 'tsx src/main.ts'}${
        Object.keys(runtimeInfo.env).length
          ? `, env ${Object.entries(runtimeInfo.env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`
          : ''
      }), bot connected`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const atRest = rssBytes(product.child.pid);
    const atRestSplit = await readMemorySplit(product.url);

    // Discover alone needs only its 50 rotating sessions (and one for the phone).
    // A day's streams are held by STREAM_TABS per user at most: more users sign in when the mix's are too few.
    const extraStreamUsers = Math.max(
      0,
      Math.ceil(Number(args['soak-streams']) / STREAM_TABS) - Number(args['soak-users']),
    );
    const signInCount = args.soak
      ? Number(args['soak-users']) + (args['soak-day'] ? DAY_JOINERS + extraStreamUsers : 0)
      : runs('claims') || runs('join')
        ? plan.claimUsers
        : 60;
    const actors = seeded.actors.slice(0, signInCount);
    const signInStart = Date.now();
    const sessions = await signInAll(
      product.url,
      actors.map((a) => a.username),
      plan.signInConcurrency,
    );
    const signInSeconds = (Date.now() - signInStart) / 1000;
    log(`${sessions.length} users signed in through the simulator in ${signInSeconds.toFixed(1)} s`);
    const cookies = sessions.map((s) => s.cookie);
    // What the product burns with no requests at all (bot, background jobs such as the invite
    // statistics): CPU per request includes it, which matters when a loaded machine makes runs slow.
    const idleCpuBefore = cpuSeconds(product.child.pid);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idleCpuAfter = cpuSeconds(product.child.pid);
    const idleCpuPercent =
      idleCpuBefore === null || idleCpuAfter === null
        ? null
        : round(((idleCpuAfter - idleCpuBefore) / 3) * 100, 1);
    log(`product CPU with no requests: ${idleCpuPercent ?? 'n/a'} % of a core`);

    if (args.soak) {
      const soakUsers = Number(args['soak-users']);
      // The day's joiners have sessions of their own, apart from the request mix's users.
      const day = args['soak-day']
        ? new SoakDay({
            baseUrl: product.url,
            simUrl: product.simUrl,
            stripe: stripe ? { url: stripe.url, secretKey: STRIPE_SECRET_KEY } : null,
            databasePath,
            // The streams' holders: the mix's users, then users who only hold streams, at most
            // STREAM_TABS each (the product keeps 8 per user; a member has a few tabs, not 8).
            cookies: [...cookies.slice(0, soakUsers), ...cookies.slice(soakUsers + DAY_JOINERS)],
            joiners: sessions.slice(soakUsers, soakUsers + DAY_JOINERS).map((s, i) => ({
              userId: s.userId,
              discordId: actors[soakUsers + i]!.discordId,
              cookie: s.cookie,
            })),
            streams: Number(args['soak-streams']),
            joinsPerMinute: Number(args['soak-joins-per-minute']),
            staySeconds: 20,
            purchasesPerMinute: Number(args['soak-purchases-per-minute']),
            log,
          })
        : undefined;
      // With --profile / --heap-profile / --perf: one profile of the whole soak (its long tasks printed below).
      const soak = await profiled('soak', () =>
        runSoak({
          baseUrl: product.url,
          pid: product.child.pid,
          cookies: cookies.slice(0, soakUsers),
          seconds: Number(args['soak-seconds']),
          connections: soakUsers,
          rate: Number(args['soak-rate']) || null,
          log,
          ...(day ? { day } : {}),
        }),
      );
      await stop(product.child, 15_000);
      if (stripe) await stop(stripe.child, 5_000);
      const ledger = checkLedger(databasePath);
      const report = {
        mode: 'soak',
        startedAt: startedAt.toISOString(),
        machine: describeMachine(loadBefore),
        sessions: redisUrl ? 'redis' : 'sqlite',
        runtime: runtimeInfo,
        atRestMb: mb(atRest),
        atRest: atRestSplit,
        soak,
        ledger,
      };
      mkdirSync(path.dirname(outFile), { recursive: true });
      writeFileSync(outFile, JSON.stringify(report, null, 2) + '\n');
      console.log(formatSoak(soak, report.machine.loadAverage1m));
      log(`results written to ${path.relative(root, outFile)}`);
      for (const { file } of profiles.filter((p) => p.file.endsWith('.cpuprofile'))) {
        const tasks = longTasks(file, 20);
        log(
          `profile of the soak (${path.relative(root, file)}): ${tasks.length} busy stretches of the loop ≥ 20 ms of samples; by entry (count, CPU median / max ms):`,
        );
        for (const g of longTasksByEntry(tasks).slice(0, 12))
          console.log(
            `  ${String(g.count).padStart(5)}  ${g.medianMs.toFixed(1)} / ${g.maxMs.toFixed(1)}  ${g.entry}`,
          );
      }
      const rssOk = soak.rss.maxMb !== null && soak.rss.maxMb <= 300;
      log(
        `${rssOk ? '✓' : '✗'} RSS max ${soak.rss.maxMb} MB (goal ≤ 300 MB), trend ${soak.rss.slopeMbPerMinute} MB/min over the second half; unexpected failures ${soak.unexpected}`,
      );
      if (soak.eventLoop) {
        const loopOk = soak.eventLoop.p99MaxMs !== null && soak.eventLoop.p99MaxMs <= 50;
        log(
          `${loopOk ? '✓' : '✗'} event-loop delay p99: worst window ${soak.eventLoop.p99MaxMs} ms, median window ${soak.eventLoop.p99MedianMs} ms (goal ≤ 50 ms); the loop thread (median window) on a core ${soak.eventLoop.runMedianMsPerS} ms/s, waiting for one ${soak.eventLoop.waitMedianMsPerS} ms/s; ledger ${ledger.ok ? 'exact' : 'BROKEN'}`,
        );
      }
      return ledger.ok && soak.unexpected === 0 ? 0 : 1;
    }

    // Discover, and the same bytes from the reference servers.
    let discover: BenchResults['discover'] = null;
    if (runs('discover')) {
      const discoverUrl = `${product.url}/api/servers`;
      const sample = await fetch(discoverUrl, { headers: { cookie: cookies[0]! } });
      if (sample.status !== 200) throw new Error(`Discover answered ${sample.status}`);
      const body = Buffer.from(await sample.arrayBuffer());
      const bodyFile = path.join(dir, 'discover.json');
      writeFileSync(bodyFile, body);
      const discoverCookies = cookies.slice(0, 50);
      log(`Discover: ${(JSON.parse(body.toString()) as unknown[]).length} campaigns, ${body.length} bytes`);
      const productDiscover = await profiled('discover', () =>
        measure(discoverUrl, discoverCookies, product.child.pid, product.url),
      );
      const express = await startReference('express', bodyFile);
      const expressDiscover = await measure(`${express.url}/api/servers`, undefined, express.pid);
      await express.stop();
      const raw = await startReference('raw', bodyFile);
      const rawDiscover = await measure(`${raw.url}/api/servers`, undefined, raw.pid);
      await raw.stop();
      log(
        `Discover: product ${productDiscover.rps.toFixed(0)} req/s, express ${expressDiscover.rps.toFixed(0)}, raw ${rawDiscover.rps.toFixed(0)}`,
      );
      // What paging saves: the whole catalogue for this member, page by page (Link rel="next").
      let catalogueBytes = 0;
      let pages = 0;
      let campaigns = 0;
      for (let next: string | null = '/api/servers'; next;) {
        const res = await fetch(`${product.url}${next}`, { headers: { cookie: cookies[0]! } });
        const bytes = Buffer.from(await res.arrayBuffer());
        catalogueBytes += bytes.length;
        campaigns += (JSON.parse(bytes.toString()) as unknown[]).length;
        pages += 1;
        next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
      }
      // The CI smoke run (--quick) skips the browser: it would double its time.
      const phone =
        quick || skipped.has('phone')
          ? null
          : await measurePhoneRender(product.url, cookies[1]!).catch((err: unknown) => {
              log(`phone render not measured: ${errorMessage(err)}`);
              return null;
            });
      if (phone) {
        log(
          `Discover on a phone (4× CPU throttle): first card ${phone.firstCardMs.toFixed(0)} ms, ${phone.cards} cards, CLS ${phone.cls.toFixed(3)}`,
        );
      }
      // The same Discover load while members keep joining: every credit is a campaign write.
      const writerSessions = sessions.slice(discoverCookies.length + 2, discoverCookies.length + 2 + 4);
      let underWrites: NonNullable<BenchResults['discover']>['underWrites'] = null;
      if (writerSessions.length === 4 && !skipped.has('writes')) {
        const writes = startJoinWrites({
          baseUrl: product.url,
          simUrl: product.simUrl,
          databasePath,
          actors: writerSessions.map((s) => ({
            userId: s.userId,
            discordId: actors.find((a) => a.username === s.username)!.discordId,
            cookie: s.cookie,
          })),
        });
        const productUnderWrites = await measure(
          discoverUrl,
          discoverCookies,
          product.child.pid,
          product.url,
        );
        underWrites = { product: productUnderWrites, writes: await writes.stop() };
        log(
          `Discover under writes: ${productUnderWrites.rps.toFixed(0)} req/s, p99 ${productUnderWrites.p99.toFixed(1)} ms, while ${underWrites.writes.joins} joins were credited (${underWrites.writes.perSecond}/s)`,
        );
      }
      discover = {
        underWrites,
        connections: plan.connections,
        seconds: plan.seconds,
        bodyBytes: body.length,
        product: productDiscover,
        express: expressDiscover,
        raw: rawDiscover,
        ratioToExpress: round(productDiscover.rps / expressDiscover.rps, 3),
        ratioToRaw: round(productDiscover.rps / rawDiscover.rps, 3),
        firstPageCampaigns: (JSON.parse(body.toString()) as unknown[]).length,
        catalogue: { pages, campaigns, bytes: catalogueBytes },
        phone: phone
          ? { firstCardMs: round(phone.firstCardMs), cards: phone.cards, cls: round(phone.cls, 4) }
          : null,
      };
    }

    // Reward claims. The first users warm the claim path up (JIT, prepared statements); then every
    // other signed-in user claims each of the three rewards once (no user ever has two claims in
    // flight). Each reward type is one block, and after each product block the raw better-sqlite3
    // loop runs the same claims on a copy of the database: interleaved, so both see the same
    // machine load (this machine is shared). Product blocks are timed by wall clock from the first
    // request to the last response (load.ts), not by autocannon's one-second tick.
    let claimsResult: BenchResults['claims'] = null;
    if (runs('claims')) {
      const rewardTypes = ['regular', 'bonus', 'daily'] as const;
      const claimBlock = (claimCookies: string[], type: (typeof rewardTypes)[number]) =>
        withCpu(product.child.pid, cpuSeconds, () =>
          load({
            url: `${product.url}/api/hourly/claim`,
            method: 'POST',
            connections: plan.connections,
            amount: claimCookies.length,
            body: JSON.stringify({ type }),
            requestFor: (n) => ({ cookie: claimCookies[n % claimCookies.length] }),
          }),
        );
      const claimStartedAt = Date.now();
      const warmCookies = cookies.slice(0, plan.claimWarmupUsers);
      const warmups: LoadResult[] = [];
      for (const type of rewardTypes) warmups.push(await claimBlock(warmCookies, type));
      const measuredCookies = cookies.slice(plan.claimWarmupUsers);
      // The raw loop warms up too, on users after the ones its measured blocks use.
      const baselineWarmup = openClaimBaseline(scratchPath, warmCookies.length, measuredCookies.length);
      for (const type of rewardTypes) baselineWarmup.run(type);
      baselineWarmup.close();
      const productBlocks: LoadResult[] = [];
      const baselineBlocks: BaselineResult[] = [];
      const measuredBaseline = openClaimBaseline(scratchPath, measuredCookies.length);
      const groupsBefore = await readStoreGroups(product.url);
      try {
        for (const type of rewardTypes) {
          productBlocks.push(await profiled(`claims-${type}`, () => claimBlock(measuredCookies, type)));
          baselineBlocks.push(measuredBaseline.run(type));
        }
      } finally {
        measuredBaseline.close();
      }
      log(`claims: ${describeStoreGroups(groupsBefore, await readStoreGroups(product.url))}`);
      const claims = combine(productBlocks);
      const warmup = combine(warmups);
      if (claims.non2xx > 0 || claims.errors > 0 || warmup.non2xx > 0) {
        throw new Error(
          `claims: ${claims.non2xx} non-2xx answers and ${claims.errors} errors of ${claims.requests}`,
        );
      }
      // Distrust the load generator: the ledger must hold exactly one row per answered claim.
      const claimRows = countRows(
        databasePath,
        `SELECT COUNT(*) AS n FROM transactions WHERE type IN ('hourly', 'bonus', 'daily') AND created_at >= ${claimStartedAt}`,
      );
      if (claimRows !== warmup.requests + claims.requests) {
        throw new Error(
          `claims: ${claims.requests + warmup.requests} answered but ${claimRows} ledger rows written`,
        );
      }
      const rawClaims = baselineBlocks.reduce((n, b) => n + b.claims, 0);
      const rawSeconds = baselineBlocks.reduce((n, b) => n + b.seconds, 0);
      const rawSqlite = {
        claims: rawClaims,
        seconds: round(rawSeconds, 3),
        opsPerSecond: round(rawClaims / rawSeconds),
        p99Ms: round(Math.max(...baselineBlocks.map((b) => b.p99Ms)), 3),
        cpuMsPerClaim: round(
          baselineBlocks.reduce((n, b) => n + b.cpuMsPerClaim * b.claims, 0) / rawClaims,
          4,
        ),
      };
      log(
        `claims: product ${claims.rps.toFixed(0)}/s over ${claims.seconds} s, raw SQLite ${rawSqlite.opsPerSecond.toFixed(0)}/s`,
      );
      claimsResult = {
        warmup,
        product: claims,
        blocks: productBlocks.map((p, i) => ({
          type: rewardTypes[i]!,
          productPerSecond: round(p.rps),
          rawPerSecond: round(baselineBlocks[i]!.opsPerSecond),
        })),
        rawSqlite,
        ratioToRawSqlite: round(claims.rps / rawSqlite.opsPerSecond, 3),
      };
    }

    // Join → GUILD_MEMBER_ADD → bot → credit.
    let joinPath: BenchResults['joinPath'] = null;
    if (runs('join')) {
      const joinActors = sessions.slice(0, plan.joinUsers).map((s, i) => ({
        userId: s.userId,
        discordId: actors[i]!.discordId,
        cookie: s.cookie,
      }));
      const joined = await profiled('join', () =>
        runJoinPath({
          baseUrl: product.url,
          simUrl: product.simUrl,
          databasePath,
          actors: joinActors,
          concurrency: plan.joinConcurrency,
          timeoutMs: 10_000,
        }),
      );
      log(
        `join path: ${joined.credited} credited, p50 ${joined.p50Ms.toFixed(1)} ms, p99 ${joined.p99Ms.toFixed(1)} ms`,
      );
      joinPath = {
        ...joined,
        p50Ms: round(joined.p50Ms, 2),
        p99Ms: round(joined.p99Ms, 2),
        maxMs: round(joined.maxMs, 2),
        seconds: round(joined.seconds, 2),
      };
    }

    inspector?.close();
    const afterRun = rssBytes(product.child.pid);
    const afterRunSplit = await readMemorySplit(product.url);
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
      runtime: runtimeInfo,
      data: {
        users: size.users,
        activeCampaigns: size.campaigns,
        inactiveCampaigns: size.inactiveCampaigns,
        transactions: seeded.transactions,
        joins: seeded.joins,
        seedMs: seeded.ms,
      },
      signIn: {
        users: sessions.length,
        seconds: round(signInSeconds, 2),
        perSecond: round(sessions.length / signInSeconds),
      },
      discover,
      claims: claimsResult,
      joinPath,
      idleCpuPercent,
      memory: {
        atRestMb: mb(atRest),
        afterRunMb: mb(afterRun),
        atRest: atRestSplit,
        afterRun: afterRunSplit,
      },
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
    for (const { phase, file } of profiles) {
      if (file.endsWith('.heapprofile')) {
        const s = summarizeHeapProfile(file, 16);
        log(
          `heap profile of ${phase} (${path.relative(root, file)}): ${(s.totalBytes / 1024 / 1024).toFixed(1)} MB sampled that survived a scavenge`,
        );
        for (const line of formatHeapProfile(s)) console.log(line);
      } else {
        const s = summarizeProfile(file, 16);
        const busy = s.totalMs - s.idleMs;
        log(
          `profile of ${phase} (${path.relative(root, file)}): product busy ${busy.toFixed(0)} ms of ${s.totalMs.toFixed(0)} ms`,
        );
        for (const row of s.byFunction.filter((f) => f.name !== '(idle)')) {
          console.log(
            `  ${row.ms.toFixed(0).padStart(7)} ms ${((row.ms / busy) * 100).toFixed(1).padStart(5)} %  ${row.name}`,
          );
        }
      }
    }
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

function formatSoak(soak: SoakResult, loadAverage: { before: number; after: number }): string {
  const lines = [
    '',
    `Soak: ${soak.users} signed-in users, ${soak.connections} connections, ${soak.rate ?? 'max'} req/s requested, ${soak.seconds} s (load average ${loadAverage.before} → ${loadAverage.after})`,
    `Total: ${soak.requests} requests, ${soak.rps} req/s, p50 ${soak.p50} ms, p99 ${soak.p99} ms, expected 4xx (claims on cooldown) ${soak.expected4xx}, unexpected failures ${soak.unexpected}${
      soak.unexpected
        ? ` (${Object.entries(soak.unexpectedBy)
            .map(([k, n]) => `${k}: ${n}`)
            .join(', ')})`
        : ''
    }`,
    '',
    'window end   req/s   p50 ms   p99 ms   non-2xx   RSS MB | heap used/total MB   new space   external (pages)   renderer used/total + ext   other (RSS − heaps − externals)',
    ...soak.windows.map(
      (w) =>
        `${String(w.at).padStart(9)} s ${String(w.rps).padStart(7)} ${String(w.p50).padStart(8)} ${String(w.p99).padStart(8)} ${String(w.non2xx).padStart(9)} ${String(w.rssMb).padStart(8)} | ` +
        (w.memory
          ? `${`${w.memory.heapUsedMb}/${w.memory.heapTotalMb}`.padStart(18)} ${String(w.memory.newSpaceMb).padStart(11)} ${`${w.memory.externalMb} (${w.memory.pageCacheMb ?? '?'})`.padStart(17)} ${`${w.memory.rendererHeapUsedMb}/${w.memory.rendererHeapTotalMb} + ${w.memory.rendererExternalMb}`.padStart(27)} ${String(w.memory.otherMb).padStart(8)}`
          : '(no /metrics)'),
    ),
    '',
    `RSS first ${soak.rss.firstMb} MB, max ${soak.rss.maxMb} MB, last ${soak.rss.lastMb} MB, trend over the second half ${soak.rss.slopeMbPerMinute} MB/min`,
    ...(soak.gc
      ? [
          `GC of the main isolate: ${soak.gc.minor} scavenges (${soak.gc.minorMs} ms), ${soak.gc.major} major/incremental (${soak.gc.majorMs} ms); pauses ≥ 20 ms ${soak.gc.pausesOver20Ms}, ≥ 50 ms ${soak.gc.pausesOver50Ms}`,
        ]
      : []),
    '',
  ];
  return lines.join('\n');
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

// --member-sweep (member-sweep.ts): the member loop without the Server Members intent, on its own.
const memberSweep = args['member-sweep']
  ? () =>
      runMemberSweepBench({
        guilds: Number(args.guilds),
        members: Number(args.members),
        joinsPerMember: Number(args['joins-per-member']),
        leavers: args.leavers === '500' ? 20 : Number(args.leavers),
        returning: Number(args.returning),
        tokens: !args['no-tokens'],
      }).then((ok) => (ok ? 0 : 1))
  : null;
const discordBench = args.reconcile || args['mass-leave'];
(discordBench
  ? runDiscordBench({
      reconcile: args.reconcile,
      massLeave: args['mass-leave'],
      guilds: Number(args.guilds),
      joinsPerGuild: Number(args['joins-per-guild']),
      guildSize: Number(args['guild-size']),
      via: args.via === 'auto' ? 'auto' : 'rest',
      leavers: Number(args.leavers),
      arrivals: Number(args.arrivals),
      leaveReason: args['leave-reason'] === 'kick' ? 'kick' : 'leave',
    }).then((ok) => (ok ? 0 : 1))
  : args.pages
    ? runPageBench({
        quick: args.quick,
        root,
        profile: args.profile,
        ...(args.dist ? { dist: path.resolve(args.dist) } : {}),
        ...(args['page-routes'] ? { routes: args['page-routes'].split(',') } : {}),
        productEnv: productEnvOf(args['product-env']),
        out: path.resolve(root, args.out ?? (args.quick ? 'bench/pages.quick.tmp' : 'bench/pages.json')),
      })
    : args.pg
      ? runScaleBench({
          quick: args.quick,
          webCount: Number(args.web),
          pgOnly: args['pg-only'],
          ...(args.dist ? { main: path.join(path.resolve(args.dist), 'dist/server/main.js') } : {}),
          ...(args['cpu-prof'] ? { cpuProfileDir: args['cpu-prof'] } : {}),
          ...(args.out ? { out: args.out } : {}),
          ...(only ? { only } : {}),
        })
      : (memberSweep ?? main)()
).then(
  (code) => process.exit(code),
  async (err: unknown) => {
    console.error(`[bench] FAILED: ${errorDetail(err)}`);
    await stopAll();
    process.exit(1);
  },
);

/** `--product-env KEY=VALUE` (repeatable) as an environment. */
function productEnvOf(pairs: string[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (pairs ?? []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

/** Sessions the soak's day adds for its joiners (joins need members who have not joined yet). */
const DAY_JOINERS = 40;
/** Live-event streams one user holds at most in the soak day (tabs); the product allows 8 (src/events/routes.ts). */
const STREAM_TABS = 4;
const STRIPE_SECRET_KEY = 'sk_test_bench_0123456789abcdef';
const STRIPE_WEBHOOK_SECRET = 'whsec_bench_0123456789abcdef';

/** The Stripe fake (scripts/run-fake-stripe.ts) in its own process, delivering signed webhooks to the product. */
async function startStripeFake(productPort: number) {
  const port = await freePort();
  const fake = startWatchedProcess(
    'Stripe fake',
    [
      '--import',
      'tsx',
      'scripts/run-fake-stripe.ts',
      '--port',
      String(port),
      '--webhook-url',
      `http://127.0.0.1:${productPort}/api/stripe/webhook`,
    ],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        FAKE_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
      },
    },
  );
  track(fake.child);
  await fake.waitForLine(/listening on/, 60_000);
  const url = `http://127.0.0.1:${port}`;
  return {
    child: fake.child,
    url,
    productEnv: {
      STRIPE_SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_bench_0123456789abcdef',
      STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: url,
    },
  };
}
