import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import {
  DEFAULT_SIM_BOT_TOKEN,
  DEFAULT_SIM_CLIENT_ID,
  DEFAULT_SIM_CLIENT_SECRET,
} from '../../src/sim/discord/index.ts';

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

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
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
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
}

/** Starts the Discord simulator (scripts/run-discord-sim.ts) over the seeded state file; resolves with its URL. */
async function startSimulator(statePath: string): Promise<string> {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', 'scripts/run-discord-sim.ts', '--state', statePath], {
      // Discord's per-route limits would make this a bench of the simulator's buckets (see docs/performance.md).
      env: { PATH: process.env.PATH, HOME: process.env.HOME, SIM_RATE_LIMITS: 'off' },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`Discord simulator exited (${code}) before listening: ${seen}`)),
    );
  });
}

/**
 * Starts `node --import tsx src/main.ts` as it runs in production (NODE_ENV=production, real-mode
 * configuration) on loopback, pointed at a Discord simulator in its own process, behind the reverse
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
    // The bench measures the claim and join paths themselves, many times per user per minute.
    WRITE_LIMITS: 'off',
    // The production default: the bench waits for "listening" and "bot: connected" info lines.
    LOG_LEVEL: 'info',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
  };
  const child = track(
    spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', 'src/main.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const output: string[] = [];
  const waiters = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > 200) output.shift();
      for (const waiter of waiters) {
        if (waiter.pattern.test(line)) {
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);

  const waitForLine = (pattern: RegExp, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const found = output.find((line) => pattern.test(line));
      if (found) return resolve(found);
      const waiter = {
        pattern,
        resolve: (line: string) => {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve(line);
        },
      };
      const onExit = () => {
        waiters.delete(waiter);
        clearTimeout(timer);
        reject(new Error(`product exited before ${String(pattern)}:\n${output.slice(-20).join('\n')}`));
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        child.off('exit', onExit);
        reject(new Error(`timed out waiting for ${String(pattern)}:\n${output.slice(-20).join('\n')}`));
      }, timeoutMs);
      waiters.add(waiter);
      child.once('exit', onExit);
    });

  await waitForLine(/CoinSync listening on/, 60_000);
  return { child, simUrl, url, output, waitForLine };
}
