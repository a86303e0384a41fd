import { createServer } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';

// A child process whose output is read line by line, so a caller can wait for the line that says it
// is ready ("listening on …", "bot: connected as …"). Used by the end-to-end test of the build
// (tests/e2e/production.test.ts), the multi-process cluster (tests/scale/cluster.ts) and the bench's
// product and simulator (scripts/bench/processes.ts).

export interface WatchedProcess {
  name: string;
  child: ChildProcess;
  /** Last lines of its output (stdout and, unless inherited, stderr), for diagnostics. */
  output: string[];
  /**
   * Resolves with the first line of output that matches (one already printed counts); rejects when the
   * process exits first or, with a timeout, when none came in time.
   */
  waitForLine: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
}

export interface WatchOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** How many lines of output to keep. */
  keep?: number;
  /** `inherit`: stderr goes to this process's stderr and is not read. */
  stderr?: 'pipe' | 'inherit';
}

/** Starts `node args…` and reads its output; see WatchedProcess. */
export function startWatchedProcess(name: string, args: string[], options: WatchOptions): WatchedProcess {
  const keep = options.keep ?? 300;
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', options.stderr ?? 'pipe'],
  });
  const output: string[] = [];
  const waiters = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  // A chunk may end inside a line: the rest of it comes with the next chunk. One buffer per stream, so
  // the two streams' lines never run into each other.
  const reader = () => {
    let partial = '';
    return (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        output.push(line);
        if (output.length > keep) output.shift();
        for (const waiter of waiters) {
          if (waiter.pattern.test(line)) {
            waiters.delete(waiter);
            waiter.resolve(line);
          }
        }
      }
    };
  };
  child.stdout?.on('data', reader());
  child.stderr?.on('data', reader());

  const waitForLine = (pattern: RegExp, timeoutMs?: number) =>
    new Promise<string>((resolve, reject) => {
      const found = output.find((line) => pattern.test(line));
      if (found) return resolve(found);
      const onExit = (code: number | null) => {
        waiters.delete(waiter);
        clearTimeout(timer);
        reject(
          new Error(`${name} exited (${code}) before ${String(pattern)}:\n${output.slice(-30).join('\n')}`),
        );
      };
      const waiter = {
        pattern,
        resolve: (line: string) => {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve(line);
        },
      };
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              waiters.delete(waiter);
              child.off('exit', onExit);
              reject(
                new Error(
                  `${name}: timed out waiting for ${String(pattern)}:\n${output.slice(-30).join('\n')}`,
                ),
              );
            }, timeoutMs);
      waiters.add(waiter);
      child.once('exit', onExit);
    });
  return { name, child, output, waitForLine };
}

/** A TCP port on 127.0.0.1 that nothing listened on a moment ago (for a child process to take). */
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
