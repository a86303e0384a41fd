import net from 'node:net';
import { Worker } from 'node:worker_threads';
import type session from 'express-session';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { AppError } from '../shared/errors.ts';
import { guardSessionStore, redisWithin } from './redis.ts';

// The time limit on Redis calls gives up only on an answer that has not arrived: when the event loop is
// held up past the limit (a loaded machine) while the answer comes in, the answer wins, not a 503. The
// answers come from an echo server in a worker thread, which answers while this thread is busy.

let echo: Worker;
let socket: net.Socket;
/** How many echoes the worker has written to the socket (it counts; this thread waits on it). */
const echoes = new Int32Array(new SharedArrayBuffer(4));

beforeAll(async () => {
  echo = new Worker(
    `const net = require('node:net');
     const { parentPort, workerData: echoes } = require('node:worker_threads');
     const server = net.createServer((s) =>
       s.on('data', (d) => s.write(d, () => { Atomics.add(echoes, 0, 1); Atomics.notify(echoes, 0); })),
     );
     server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`,
    { eval: true, workerData: echoes },
  );
  const port = await new Promise<number>((resolve) => echo.once('message', resolve));
  socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
});
afterAll(async () => {
  socket.destroy();
  await echo.terminate();
});

/** Sends `text` to the echo server; resolves with the echo. */
function ask(text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (d) => resolve(d.toString()));
    socket.write(text);
  });
}

/**
 * Holds this thread's event loop until the echo of the last `ask` has been written to the socket (unread
 * here) and `ms` have passed: the time limit and the answer are then both due when the loop goes on.
 */
function holdUntilAnsweredAnd(ms: number, echoesBefore: number): void {
  const until = Date.now() + ms;
  while (Atomics.load(echoes, 0) === echoesBefore) Atomics.wait(echoes, 0, echoesBefore, 10_000);
  while (Date.now() < until) {
    /* a loaded machine */
  }
}

describe('Redis time limits on a held-up event loop', () => {
  it('redisWithin takes an answer that arrived while the loop was busy past the limit', async () => {
    const before = Atomics.load(echoes, 0);
    const result = redisWithin(ask('pong'), 50);
    holdUntilAnsweredAnd(100, before);
    await expect(result).resolves.toBe('pong');
  });

  it('the session store guard does too, and still answers 503 when nothing came', async () => {
    const store = {
      get: (sid: string, cb: (err: unknown, value?: unknown) => void) => {
        void ask(sid).then((echoed) => cb(null, { cookie: {}, echoed }));
      },
    } as unknown as session.Store;
    const guarded = guardSessionStore(store, 50, createLogger('silent'));
    const before = Atomics.load(echoes, 0);
    const got = new Promise((resolve) => guarded.get('sid-1', (err, value) => resolve({ err, value })));
    holdUntilAnsweredAnd(100, before);
    expect(await got).toEqual({ err: null, value: { cookie: {}, echoed: 'sid-1' } });

    const silent = {
      get: () => undefined, // never answers
    } as unknown as session.Store;
    const guardedSilent = guardSessionStore(silent, 50, createLogger('silent'));
    const failed = await new Promise<unknown>((resolve) => guardedSilent.get('sid-2', (err) => resolve(err)));
    expect(failed).toBeInstanceOf(AppError);
    expect((failed as AppError).status).toBe(503);
  });
});
