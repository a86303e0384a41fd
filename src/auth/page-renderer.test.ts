import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.ts';
import type { AppBoot } from '../shared/api-types.ts';
import { startPageRenderer } from './page-renderer.ts';

// The render worker's thread runs below the loop's priority (decision 049, session 17): Linux keeps a nice
// value per thread, read here from /proc/<pid>/task/<tid>/stat (field 19).

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;
const boot = { user: null, config: {} } as unknown as AppBoot;

/** The nice value of every thread of this process, by thread id. */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
      // The fields after the command's closing parenthesis start at field 3 (state).
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'coinsync-renderer-'));
  mkdirSync(path.join(dir, 'ssr'));
  writeFileSync(
    path.join(dir, 'ssr', 'entry-server.js'),
    'export async function renderApp(url) { return { html: `<p>${url}</p>` }; }\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Starts a renderer at `nice`, renders `url` with it, and hands `check` the threads that appeared meanwhile
 * (id, nice value) and every thread's nice value from before; the renderer is closed after.
 */
async function withRenderer(
  nice: number,
  url: string,
  check: (added: [number, number][], before: Map<number, number>) => void,
): Promise<void> {
  const before = threadNices();
  const renderer = startPageRenderer(silent, path.join(dir, 'ssr'), nice)!;
  try {
    expect(await renderer.render(url, boot)).toEqual({ html: `<p>${url}</p>` });
    check(
      [...threadNices()].filter(([tid]) => !before.has(tid)),
      before,
    );
  } finally {
    await renderer.close();
  }
}

describe.runIf(process.platform === 'linux')('the render worker thread', () => {
  it('runs at the nice value it is given, and the loop thread keeps its own', async () => {
    await withRenderer(10, '/daily', (added, before) => {
      expect(added.filter(([, nice]) => nice === 10)).toHaveLength(1);
      const self = Number(readlinkSync('/proc/thread-self').split('/').pop());
      expect(threadNices().get(self)).toBe(before.get(self));
      expect(before.get(self)).not.toBe(10);
    });
  });

  it("is left at the loop's priority with 0", async () => {
    await withRenderer(0, '/', (added) => {
      expect(added.length).toBeGreaterThan(0);
      expect(added.filter(([, nice]) => nice !== 0)).toEqual([]);
    });
  });
});
