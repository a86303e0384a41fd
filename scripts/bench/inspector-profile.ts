import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

// CPU profiles of one phase at a time. With `--profile` the product starts with
// `--inspect=127.0.0.1:0`; the bench attaches to that inspector and starts/stops the V8 sampling
// profiler around each measured phase, so a profile shows that hot path and not the sign-ins before
// it (node --cpu-prof can only profile the whole process).

export class InspectorProfiler {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      if (msg.id === undefined) return;
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.error) waiter.reject(new Error(msg.error.message));
      else waiter.resolve(msg.result);
    });
  }

  static async connect(url: string): Promise<InspectorProfiler> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const profiler = new InspectorProfiler(ws);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 500 });
    return profiler;
  }

  private send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  async start(): Promise<void> {
    await this.send('Profiler.start');
  }

  /** Stops the running profile and writes it as a .cpuprofile file (open it in Chrome DevTools). */
  async stop(file: string): Promise<void> {
    const result = (await this.send('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(result.profile));
  }

  /**
   * Starts V8's sampling heap profiler, keeping only what a scavenge did not free: samples of objects
   * that died young are dropped, those that were promoted and later freed by a mark-compact are kept.
   * A request's garbage belongs in the first group; whatever the profile shows from a hot path is what
   * keeps the old generation filling (issue 18: the runs with major GCs during Discover).
   */
  async startHeapSampling(): Promise<void> {
    await this.send('HeapProfiler.enable');
    await this.send('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
  }

  /** Stops the heap sampling and writes it as a .heapprofile file (DevTools opens it too). */
  async stopHeapSampling(file: string): Promise<void> {
    const result = (await this.send('HeapProfiler.stopSampling')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(result.profile));
  }

  close(): void {
    this.ws.close();
  }
}
