import type { TestClient } from './harness.ts';

// A small Server-Sent Events reader over a real HTTP connection (what a browser's EventSource does),
// for the live event tests: parses `id:`/`data:` fields and comment lines as they arrive.

export interface SseMessage {
  id: string | undefined;
  data: unknown;
}

export class EventStreamReader {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  private waiters: (() => void)[] = [];
  private ended = false;

  constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    void this.pump();
  }

  private async pump(): Promise<void> {
    const body = this.response.body;
    if (!body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          this.parse(block);
        }
      }
    } catch {
      /* aborted */
    }
    this.ended = true;
    this.wake();
  }

  private parse(block: string): void {
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    if (data.length > 0) this.messages.push({ id, data: JSON.parse(data.join('\n')) as unknown });
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves once `check` holds on what arrived so far; rejects after `ms` or when the stream ends. */
  async until<T>(check: (reader: this) => T | undefined | false, ms = 5000, what = 'an event'): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = check(this);
      if (value !== undefined && value !== false) return value;
      if (this.ended) throw new Error(`stream ended before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The first message whose data has this `type` (after `from` messages). */
  nextOfType(type: string, from = 0, ms = 5000): Promise<SseMessage> {
    return this.until(
      (r) => r.messages.slice(from).find((m) => (m.data as { type?: string }).type === type),
      ms,
      `a ${type} event`,
    );
  }

  close(): void {
    this.abort.abort();
  }

  /** Resolves when the server ends the stream; rejects after `ms`. */
  async closedByServer(ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for the server to end the stream');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** Opens GET /api/events with the client's session cookie (and Last-Event-ID when reconnecting). */
export async function openEventStream(client: TestClient, lastEventId?: string): Promise<EventStreamReader> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const res = await client.raw('/api/events', { headers, signal: abort.signal });
  return new EventStreamReader(res, abort);
}
