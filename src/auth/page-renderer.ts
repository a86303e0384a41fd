import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { AppBoot } from '../shared/api-types.ts';
import type { Logger } from '../logger.ts';
import { recordRendererCpu, recordRendererHeap } from '../metrics.ts';

// The server renderer (web/src/entry-server.tsx, built into dist/ssr, decision 031) runs on a worker
// thread, never on the event loop that also runs the bot and the API (decision 047): a page's render
// (20–25 ms of CPU for Discover) would stall every other request and gateway event for that long. The
// worker renders one page at a time; a page that would have to queue behind MAX_QUEUED_RENDERS others,
// or whose render does not come back within RENDER_WAIT_MS, is not waited for: the caller sends the static shell (the browser renders the page itself from the same inlined
// data) instead of queueing renders under load.

/** What web/src/entry-server.tsx's renderApp returns. */
export interface RenderedPage {
  html: string;
  head?: string;
  document?: { title?: string; description?: string };
}

export type RenderApp = (url: string, boot: AppBoot) => Promise<RenderedPage>;

/** Renders in flight or waiting on the worker beyond which a page gets the static shell at once. */
export const MAX_QUEUED_RENDERS = 2;
/**
 * Longest wait for one render, then the shell: a safety net for a worker that hangs or gets no CPU (the
 * queue's length is what bounds the wait under load: at most MAX_QUEUED_RENDERS renders ahead).
 */
export const RENDER_WAIT_MS = 5000;

export interface PageRenderer {
  /**
   * The page rendered for this boot data, or null when it is not worth waiting for (the worker is busy,
   * the render failed or took too long): the caller sends the static shell. `onLate` receives a render
   * that completes after its wait gave up, so the next load of the same page can use it.
   */
  render(url: string, boot: AppBoot, onLate?: (page: RenderedPage) => void): Promise<RenderedPage | null>;
  /** True when a render asked now would be refused at once (the static shell): the queue is full. */
  readonly busy: boolean;
  close(): Promise<void>;
}

// The worker's whole program: load the renderer module, render each request in turn. Plain JavaScript
// (an eval worker), so it runs the same under the compiled server, tsx and vitest.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const v8 = require('node:v8');
const { readFileSync, readlinkSync } = require('node:fs');
const os = require('node:os');
// This thread below the loop's priority (its nice value; decision 049, session 17): when a render and the
// loop both want a core, the loop gets it and the render waits. Linux gives each thread its own nice value,
// set by its id (/proc/thread-self is <pid>/task/<tid>); elsewhere the worker keeps the process's.
if (workerData.nice > 0) {
  try {
    os.setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
  } catch {
    // not Linux
  }
}
// Each reply carries this isolate's heap and this thread's CPU time so far, for /metrics: neither is in
// the process's own heap figures, and the process's CPU time does not say which thread spent it.
const threadCpuSeconds = () => {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null; // not Linux
  }
};
const usage = () => {
  const s = v8.getHeapStatistics();
  return {
    heap: { usedBytes: s.used_heap_size, totalBytes: s.total_heap_size, externalBytes: s.external_memory },
    cpuSeconds: threadCpuSeconds(),
  };
};
import(workerData.rendererUrl).then(
  (mod) => {
    parentPort.on('message', async ({ id, url, boot }) => {
      try {
        const page = await mod.renderApp(url, boot);
        parentPort.postMessage({ id, page, ...usage() });
      } catch (err) {
        parentPort.postMessage({ id, error: String((err && err.stack) || err), ...usage() });
      }
    });
    parentPort.postMessage({ ready: true });
  },
  (err) => parentPort.postMessage({ loadError: String((err && err.stack) || err) }),
);
`;

type Reply =
  | { id: number; page?: RenderedPage; error?: string; heap: RendererHeap; cpuSeconds: number | null }
  | { ready: true }
  | { loadError: string };

type RendererHeap = Parameters<typeof recordRendererHeap>[0];

interface Pending {
  resolve(page: RenderedPage | null): void;
  onLate: ((page: RenderedPage) => void) | undefined;
  timer: NodeJS.Timeout;
  settled: boolean;
}

/** The renderer of the build in `ssrDist` on its own thread, or null when the build has none. */
/** The render worker's V8 heap (decision 027, session 13): a 4 MB semi-space instead of the loop's 8 (16 until session 14). */
export const RENDERER_HEAP = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 12 } as const;

/**
 * V8's heap flags (--max-old-space-size, --max-semi-space-size: production's, ecosystem.config.cjs) are
 * process-wide and win over a worker's `resourceLimits`: under them the render worker got the loop's
 * limits, a 33.6 MB new space and a 192 MB old-space limit (measured in a worker), ~25-30 MB of RSS more
 * than its renders need. The main isolate read them when it was created and keeps them (its limit and
 * new space measured unchanged after this call); cleared here, they no longer reach isolates created
 * after, which then take their `resourceLimits`.
 */
export function releaseProcessHeapFlags(): void {
  v8.setFlagsFromString('--max-semi-space-size=0');
  v8.setFlagsFromString('--max-old-space-size=0');
}

/**
 * The renders' garbage stays off the API's heap, in an isolate sized to the renders' live set (~25-40 MB
 * in use in the soak day; coinsync_page_renderer_heap_*) with a small young generation.
 */
function rendererWorkerOptions(rendererUrl: string, nice: number): WorkerOptions {
  releaseProcessHeapFlags();
  return { eval: true, workerData: { rendererUrl, nice }, resourceLimits: RENDERER_HEAP };
}

/**
 * `nice`: the worker thread's nice value (config RENDER_WORKER_NICE; 0 leaves it at the loop's): renders
 * run on the cores the loop leaves idle.
 */
export function startPageRenderer(logger: Logger, ssrDist?: string, nice = 0): PageRenderer | null {
  const file = ssrDist ? path.join(ssrDist, 'entry-server.js') : null;
  if (!file || !existsSync(file)) return null;
  const rendererUrl = pathToFileURL(file).href;
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let worker: Worker | null = null;
  let closed = false;
  let broken = false;
  /** The worker thread's CPU seconds already counted into /metrics. */
  let cpuReported = 0;

  const finish = (id: number, page: RenderedPage | null) => {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    clearTimeout(entry.timer);
    if (!entry.settled) entry.resolve(page);
    else if (page) entry.onLate?.(page);
  };

  const spawn = (): Worker => {
    // The new thread's CPU time starts at 0.
    cpuReported = 0;
    const w = new Worker(WORKER_SOURCE, rendererWorkerOptions(rendererUrl, nice));
    w.unref();
    w.on('message', (reply: Reply) => {
      if ('ready' in reply) return;
      if ('loadError' in reply) {
        // A renderer that cannot load will not load on a retry either: pages render in the browser.
        broken = true;
        logger.error('server renderer not loaded: pages render in the browser', {
          file,
          err: reply.loadError,
        });
        for (const id of [...pending.keys()]) finish(id, null);
        return;
      }
      recordRendererHeap(reply.heap);
      if (reply.cpuSeconds !== null) {
        recordRendererCpu(reply.cpuSeconds - cpuReported);
        cpuReported = reply.cpuSeconds;
      }
      if (reply.error) logger.error('page not rendered on the server', { err: reply.error });
      finish(reply.id, reply.page ?? null);
    });
    w.on('error', (err) => logger.error('page renderer failed', { err: String(err) }));
    w.on('exit', () => {
      if (worker === w) worker = null;
      // Its isolate is gone with it.
      recordRendererHeap({ usedBytes: 0, totalBytes: 0, externalBytes: 0 });
      // Whatever it was rendering gets the shell; the next page starts a new worker.
      for (const id of [...pending.keys()]) finish(id, null);
    });
    return w;
  };

  return {
    render(url, boot, onLate) {
      if (closed || broken || pending.size >= MAX_QUEUED_RENDERS) return Promise.resolve(null);
      worker ??= spawn();
      const id = nextId++;
      return new Promise<RenderedPage | null>((resolve) => {
        const entry: Pending = {
          resolve,
          onLate,
          settled: false,
          timer: setTimeout(() => {
            entry.settled = true;
            resolve(null);
          }, RENDER_WAIT_MS),
        };
        pending.set(id, entry);
        worker!.postMessage({ id, url, boot });
      });
    },
    get busy() {
      return closed || broken || pending.size >= MAX_QUEUED_RENDERS;
    },
    async close() {
      closed = true;
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
