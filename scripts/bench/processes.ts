import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  DEFAULT_SIM_BOT_TOKEN,
  DEFAULT_SIM_CLIENT_ID,
  DEFAULT_SIM_CLIENT_SECRET,
} from '../../src/sim/discord/index.ts';
import { startWatchedProcess } from '../../src/test/child-process.ts';

// Child processes of the bench: the real product and the reference servers. Every child is
// registered so one call (finally, SIGINT, SIGTERM) stops them all.

const children = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Stops every child still running: SIGTERM, then SIGKILL after a grace period. */
export async function stopAll(graceMs = 5000): Promise<void> {
  await Promise.all([...children].map((child) => stop(child, graceMs)));
}

export async function stop(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Resident set size of a process in bytes (Linux /proc), or null when unavailable. */
export function rssBytes(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux build the bench runs on (getconf CLK_TCK)

/**
 * CPU time (user + system) a process has used so far, in seconds (Linux /proc, 10 ms resolution), or
 * null when unavailable. CPU per request is what a busy shared machine distorts least: wall-clock
 * throughput falls with other processes' load, the work each request needs does not.
 */
export function cpuSeconds(pid: number | undefined, tid?: number): number | null {
  if (pid === undefined) return null;
  try {
    // With a thread id: that thread's own CPU time (the main thread's id is the process id).
    const stat = readFileSync(
      tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`,
      'utf8',
    );
    // Fields after the command name (which is in parentheses and may contain spaces).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime + stime) ? (utime + stime) / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * A thread's scheduler figures (/proc/<pid>/task/<tid>/schedstat, nanoseconds): time on a core and time
 * runnable but waiting for one. The wait is what a loaded machine adds to an event-loop delay; the time on
 * a core is the thread's CPU at nanosecond resolution (stat's utime/stime count 10 ms ticks).
 */
export function schedSeconds(
  pid: number | undefined,
  tid: number | undefined = pid,
): { run: number; wait: number } | null {
  if (pid === undefined) return null;
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(run! + wait!) ? { run: run! / 1e9, wait: wait! / 1e9 } : null;
  } catch {
    return null;
  }
}

export interface ProductProcess {
  child: ChildProcess;
  /** The Discord simulator, a separate process as real Discord would be. */
  simUrl: string;
  url: string;
  /** Everything the product printed (last lines kept), for diagnostics. */
  output: string[];
  /** Resolves once the output contains a line matching the pattern. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
}

export interface ProductOptions {
  port: number;
  databasePath: string;
  redisUrl?: string;
  /** Extra node flags, e.g. --inspect. */
  nodeFlags?: string[];
  /**
   * `dist`: the compiled server with the node flags of the production process file, as `npm start`
   * and pm2 run it (the honest figure). `tsx`: the TypeScript sources through tsx (no build needed;
   * costs memory for the compiled sources and tsx's loader).
   */
  runtime: ProductRuntime;
  /** With runtime `dist`: run another checkout's compiled server (an A/B run against an older commit). */
  distEntry?: string;
  /** Extra environment (e.g. the flood script's limits). */
  env?: NodeJS.ProcessEnv;
}

export type ProductRuntime = 'dist' | 'tsx';

const root = path.resolve(import.meta.dirname, '../..');
/** The METRICS_TOKEN of the bench's product: production's /metrics is token-only. */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';
export const DIST_ENTRY = path.join(root, 'dist/server/main.js');
/**
 * How long the product may take to listen and to connect its bot: a few seconds on a quiet machine, over a
 * minute at load average 40 on the shared 2 cores (the seeded 10,000 users' start-up work).
 */
export const PRODUCT_START_TIMEOUT_MS = 180_000;

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** True when dist/server is missing or older than a source file under src/ (then the bench rebuilds it). */
export function distIsStale(): boolean {
  if (!existsSync(DIST_ENTRY)) return true;
  return newestSourceMtime(path.join(root, 'src')) > statSync(DIST_ENTRY).mtimeMs;
}

/** The node flags production runs with: `node_args` of ecosystem.config.cjs (pm2's process file). */
export function productionNodeFlags(): string[] {
  const config = createRequire(import.meta.url)(path.join(root, 'ecosystem.config.cjs')) as {
    apps: { node_args?: string | string[] }[];
  };
  const nodeArgs = config.apps[0]?.node_args ?? [];
  return Array.isArray(nodeArgs) ? nodeArgs : nodeArgs.split(/\s+/).filter(Boolean);
}

/** The environment production sets beside NODE_ENV and PORT: `env` of ecosystem.config.cjs (e.g. MALLOC_ARENA_MAX). */
export function productionEnv(): Record<string, string> {
  const config = createRequire(import.meta.url)(path.join(root, 'ecosystem.config.cjs')) as {
    apps: { env?: Record<string, string | number> }[];
  };
  return Object.fromEntries(Object.entries(config.apps[0]?.env ?? {}).map(([k, v]) => [k, String(v)]));
}

/** Starts the Discord simulator (scripts/run-discord-sim.ts) over the seeded state file; resolves with its URL. */
async function startSimulator(statePath: string): Promise<string> {
  const sim = startWatchedProcess(
    'Discord simulator',
    ['--import', 'tsx', 'scripts/run-discord-sim.ts', '--state', statePath],
    {
      // Discord's per-route limits would make this a bench of the simulator's buckets (see docs/performance-history.md).
      env: { PATH: process.env.PATH, HOME: process.env.HOME, SIM_RATE_LIMITS: 'off' },
      stderr: 'inherit',
    },
  );
  track(sim.child);
  const line = await sim.waitForLine(/listening on (\S+)/);
  return /listening on (\S+)/.exec(line)![1]!;
}

/**
 * Starts the product as it runs in production (`node <production flags> dist/server/main.js`,
 * NODE_ENV=production, real-mode configuration; or `node --import tsx src/main.ts`) on loopback, pointed at a Discord simulator in its own process, behind the reverse
 * proxy it trusts (TRUST_PROXY=loopback: the bench clients send X-Forwarded-For).
 */
export async function startProduct(options: ProductOptions): Promise<ProductProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const simUrl = await startSimulator(options.databasePath.replace(/\.db$/, '') + '.discord-sim.json');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(options.port),
    PUBLIC_URL: url,
    SESSION_SECRET: 'bench-session-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    TOKEN_ENCRYPTION_KEY: '0123456789abcdef'.repeat(4),
    DATABASE_PATH: options.databasePath,
    DISCORD_CLIENT_ID: DEFAULT_SIM_CLIENT_ID,
    DISCORD_CLIENT_SECRET: DEFAULT_SIM_CLIENT_SECRET,
    DISCORD_BOT_TOKEN: DEFAULT_SIM_BOT_TOKEN,
    DISCORD_BASE_URL: simUrl,
    TRUST_PROXY: 'loopback',
    // Production serves /metrics to its token only (the bench reads memory and GC figures there).
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
    // The bench measures the claim and join paths themselves, many times per user per minute.
    WRITE_LIMITS: 'off',
    // Likewise the join pace (decision 038): the bench joins many servers per member per minute.
    JOIN_PACE_PER_HOUR: '0',
    JOIN_PACE_PER_DAY: '0',
    // The production default: the bench waits for "listening" and "bot: connected" info lines.
    LOG_LEVEL: 'info',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    // What production's process file sets (the compiled server only: it is what production runs).
    ...(options.runtime === 'dist' ? productionEnv() : {}),
    ...options.env,
  };
  const product = startWatchedProcess(
    'product',
    options.runtime === 'dist'
      ? [...productionNodeFlags(), ...(options.nodeFlags ?? []), options.distEntry ?? DIST_ENTRY]
      : [...(options.nodeFlags ?? []), '--import', 'tsx', 'src/main.ts'],
    { cwd: root, env, keep: 200 },
  );
  track(product.child);
  await product.waitForLine(/CoinSync listening on/, PRODUCT_START_TIMEOUT_MS);
  const { child, output, waitForLine } = product;
  return { child, simUrl, url, output, waitForLine };
}
