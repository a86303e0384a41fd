import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_SIM_BOT_TOKEN,
  DEFAULT_SIM_CLIENT_ID,
  DEFAULT_SIM_CLIENT_SECRET,
} from '../../src/sim/discord/index.ts';
import { productionEnv, productionNodeFlags } from '../../scripts/bench/processes.ts';
import { freePort } from '../../src/test/child-process.ts';
import { startWatchedProcess, type WatchedProcess } from '../../src/test/child-process.ts';

// The scaled-out layout of decision 028 on one machine, as child processes of the built product
// (dist/server/main.js with production's node flags, NODE_ENV=production, real-mode configuration):
// the Discord simulator in its own process (as Discord is), N `ROLE=web` processes and M `ROLE=bot`
// processes on one PostgreSQL database and one Redis. Used by the multi-process test
// (tests/scale/multi-process.test.ts) and the bench's `--pg --web N` (scripts/bench/run.ts).

const root = path.resolve(import.meta.dirname, '../..');
export const MAIN = path.join(root, 'dist/server/main.js');

/** A process of the cluster, its output read line by line. */
export type Proc = WatchedProcess;

export interface Cluster {
  simUrl: string;
  sim: Proc;
  /** Base URLs of the web processes, in order. */
  webUrls: string[];
  web: Proc[];
  bot: Proc[];
  /** Health URLs (BOT_HEALTH_PORT) of the bot processes. */
  botUrls: string[];
  /** Every process started, for CPU accounting. */
  all(): Proc[];
  /** Output of every process, last lines each (diagnostics on failure). */
  describe(): string;
  stop(): Promise<void>;
}

/** Starts `node args…` from the repository root and keeps its last `keep` lines of output. */
export function startProc(name: string, args: string[], env: NodeJS.ProcessEnv, keep = 300): Proc {
  return startWatchedProcess(name, args, { cwd: root, env, keep });
}

async function stopProc(proc: Proc, graceMs = 8000): Promise<void> {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface ClusterOptions {
  databaseUrl: string;
  /** A Redis URL; give each run its own database number or server so sessions never mix. */
  redisUrl: string;
  webCount: number;
  botCount?: number;
  /** Extra environment for every product process (e.g. MIN_DISCORD_ACCOUNT_AGE_DAYS). */
  env?: Record<string, string>;
  /** Discord's per-route limits in the simulator; off by default (the load is ours, not Discord's). */
  simRateLimits?: boolean;
  /** Simulator state file (the bench's seeded guilds and users). */
  simState?: string;
  startTimeoutMs?: number;
  /** Extra node flags for every product process (e.g. the bench's `--cpu-prof`). */
  nodeFlags?: string[];
  /** The compiled server to run (default: this checkout's; the bench's `--dist` for an A/B against another build). */
  main?: string;
}

export const CLUSTER_SECRETS = {
  SESSION_SECRET: 'scale-test-session-secret-0123456789-abcdefghijklmnop',
  TOKEN_ENCRYPTION_KEY: 'cd'.repeat(32),
} as const;

/** The simulator of a layout, in its own process (as Discord is); resolves with its URL once it listens. */
async function startSim(
  options: Pick<ClusterOptions, 'simState' | 'simRateLimits'>,
  timeout: number,
): Promise<{ sim: Proc; simUrl: string }> {
  const base = { PATH: process.env.PATH, HOME: process.env.HOME };
  const sim = startProc(
    'sim',
    [
      '--import',
      'tsx',
      'scripts/run-discord-sim.ts',
      ...(options.simState ? ['--state', options.simState] : []),
    ],
    { ...base, ...(options.simRateLimits ? {} : { SIM_RATE_LIMITS: 'off' }) },
  );
  const simLine = await sim.waitForLine(/listening on (\S+)/, timeout).catch(async (err: unknown) => {
    await stopProc(sim);
    throw err;
  });
  return { sim, simUrl: /listening on (\S+)/.exec(simLine)![1]! };
}

/**
 * The default layout beside it, for same-run comparisons (the bench's `--pg`): ONE process of the
 * built product (ROLE=all: API, bot and jobs) on a SQLite file, sessions in SQLite, with the same
 * simulator, secrets and settings as `startCluster`. Shaped as a cluster of one web process and no bot
 * process (the bot runs inside it).
 */
export async function startSingleProcess(
  options: Omit<ClusterOptions, 'databaseUrl' | 'redisUrl' | 'webCount' | 'botCount'> & {
    sqlitePath: string;
  },
): Promise<Cluster> {
  const main = options.main ?? MAIN;
  if (!existsSync(main)) throw new Error(`${main} missing: run \`npm run build\` first`);
  const timeout = options.startTimeoutMs ?? 150_000;
  const { sim, simUrl } = await startSim(options, timeout);
  const procs: Proc[] = [sim];
  const stop = async () => {
    await Promise.all(procs.filter((p) => p.name !== 'sim').map((p) => stopProc(p)));
    await stopProc(sim);
  };
  try {
    const url = `http://127.0.0.1:${await freePort()}`;
    const proc = startProc('all', [...productionNodeFlags(), ...(options.nodeFlags ?? []), main], {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      TRUST_PROXY: 'loopback',
      ...CLUSTER_SECRETS,
      DATABASE_PATH: options.sqlitePath,
      DISCORD_CLIENT_ID: DEFAULT_SIM_CLIENT_ID,
      DISCORD_CLIENT_SECRET: DEFAULT_SIM_CLIENT_SECRET,
      DISCORD_BOT_TOKEN: DEFAULT_SIM_BOT_TOKEN,
      DISCORD_BASE_URL: simUrl,
      WRITE_LIMITS: 'off',
      LOG_LEVEL: 'info',
      PORT: new URL(url).port,
      PUBLIC_URL: url,
      ...productionEnv(),
      ...options.env,
    });
    procs.push(proc);
    await Promise.all([
      proc.waitForLine(/listening on/, timeout),
      proc.waitForLine(/bot: connected as/, timeout),
    ]);
    return {
      simUrl,
      sim,
      webUrls: [url],
      web: [proc],
      bot: [],
      botUrls: [],
      all: () => [...procs],
      describe: () =>
        procs.map((p) => `--- ${p.name} (pid ${p.child.pid})\n${p.output.slice(-40).join('\n')}`).join('\n'),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Starts the simulator, then the bot process(es) and the web processes side by side, and resolves once
 * every web process listens and every bot is connected to the (simulated) gateway.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const main = options.main ?? MAIN;
  if (!existsSync(main)) throw new Error(`${main} missing: run \`npm run build\` first`);
  const timeout = options.startTimeoutMs ?? 150_000;
  const base = { PATH: process.env.PATH, HOME: process.env.HOME };
  const procs: Proc[] = [];
  const stop = async () => {
    // Product processes first (they close their Discord connections), then the simulator.
    await Promise.all(procs.filter((p) => p.name !== 'sim').map((p) => stopProc(p)));
    await Promise.all(procs.filter((p) => p.name === 'sim').map((p) => stopProc(p)));
  };
  try {
    const sim = startProc(
      'sim',
      [
        '--import',
        'tsx',
        'scripts/run-discord-sim.ts',
        ...(options.simState ? ['--state', options.simState] : []),
      ],
      { ...base, ...(options.simRateLimits ? {} : { SIM_RATE_LIMITS: 'off' }) },
    );
    procs.push(sim);
    const simLine = await sim.waitForLine(/listening on (\S+)/, timeout);
    const simUrl = /listening on (\S+)/.exec(simLine)![1]!;
    const common: NodeJS.ProcessEnv = {
      ...base,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      TRUST_PROXY: 'loopback',
      ...CLUSTER_SECRETS,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      DISCORD_CLIENT_ID: DEFAULT_SIM_CLIENT_ID,
      DISCORD_CLIENT_SECRET: DEFAULT_SIM_CLIENT_SECRET,
      DISCORD_BOT_TOKEN: DEFAULT_SIM_BOT_TOKEN,
      DISCORD_BASE_URL: simUrl,
      // The tests and the bench race many writes per user and address on purpose.
      WRITE_LIMITS: 'off',
      LOG_LEVEL: 'info',
      ...productionEnv(),
      ...options.env,
    };
    const flags = [...productionNodeFlags(), ...(options.nodeFlags ?? [])];
    // The site's address (each web process's own; a proxy would give them one): links the bot sends.
    const webUrls: string[] = [];
    for (let i = 0; i < options.webCount; i++) webUrls.push(`http://127.0.0.1:${await freePort()}`);
    const botUrls: string[] = [];
    const bot: Proc[] = [];
    for (let i = 0; i < (options.botCount ?? 1); i++) {
      const port = await freePort();
      botUrls.push(`http://127.0.0.1:${port}`);
      const proc = startProc(`bot${i + 1}`, [...flags, main], {
        ...common,
        ROLE: 'bot',
        BOT_HEALTH_PORT: String(port),
        PUBLIC_URL: webUrls[0],
      });
      procs.push(proc);
      bot.push(proc);
    }
    const web: Proc[] = [];
    for (let i = 0; i < options.webCount; i++) {
      const url = webUrls[i]!;
      const port = new URL(url).port;
      const proc = startProc(`web${i + 1}`, [...flags, main], {
        ...common,
        ROLE: 'web',
        PORT: port,
        PUBLIC_URL: url,
      });
      procs.push(proc);
      web.push(proc);
    }
    await Promise.all([
      ...web.map((p) => p.waitForLine(/listening on/, timeout)),
      ...bot.map((p) => p.waitForLine(/bot: connected as/, timeout)),
    ]);
    return {
      simUrl,
      sim,
      webUrls,
      web,
      bot,
      botUrls,
      all: () => [...procs],
      describe: () =>
        procs.map((p) => `--- ${p.name} (pid ${p.child.pid})\n${p.output.slice(-40).join('\n')}`).join('\n'),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
