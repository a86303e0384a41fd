import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { openEventStream, type EventStreamReader } from '../test/sse.ts';
import { SESSION_COOKIE } from '../auth/session.ts';

// Decision 049, session 15: the live-event heartbeat serves its streams in slices that let the loop go
// in between (HEARTBEAT_SLICE; 2 here, so seven streams take four turns of the loop). Every stream still
// gets its ping each beat, a stream whose session is gone still ends on the beat that sees it, whichever
// slice it is in, and a stream closed while a beat is under way is skipped, not written to.

let app: TestApp;
const streams: EventStreamReader[] = [];
const pings = (s: EventStreamReader) => s.comments.filter((c) => c === 'ping').length;

function sidOf(client: TestClient): string {
  return decodeURIComponent(client.cookies.get(SESSION_COOKIE)!).slice(2).split('.')[0]!;
}

beforeAll(async () => {
  app = await startTestApp({ liveHeartbeatMs: 50, liveHeartbeatSlice: 2 });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await app.close();
});

describe('the live-event heartbeat in slices', () => {
  it('pings every stream, ends the one whose session is gone in the last slice, and skips a closed one', async () => {
    const [a, b, c, d] = [
      await app.signIn('beat_a'),
      await app.signIn('beat_b'),
      await app.signIn('beat_c'),
      await app.signIn('beat_d'),
    ];
    // Seven streams in this order: the registry's order, so d's is alone in the fourth slice.
    for (const client of [a, a, b, b, c, c, d]) {
      const stream = await openEventStream(client);
      expect(stream.response.status).toBe(200);
      await stream.until((s) => s.comments.includes('connected'), 5000, 'the stream to open');
      streams.push(stream);
    }
    const [, , , , closedByClient, , last] = streams;
    closedByClient!.close();
    // Where the sessions are: Redis when REDIS_URL is set (as in CI), else the database.
    const { redis, redisPrefix } = app.server.ctx.sessions;
    if (redis) await redis.del(`${redisPrefix}${sidOf(d)}`);
    else await app.exec(sql`DELETE FROM sessions WHERE sid = ${sidOf(d)}`);

    await last!.closedByServer();
    const live = streams.filter((s) => s !== closedByClient && s !== last);
    const before = live.map(pings);
    for (const [i, stream] of live.entries())
      await stream.until((s) => pings(s) >= before[i]! + 3, 5000, `three more heartbeats on stream ${i}`);
    // The other members are still signed in: the beat ended only the stream whose session is gone.
    for (const client of [a, b, c]) expect((await client.get('/api/auth/user')).status).toBe(200);
    expect((await d.get('/api/auth/user')).status).toBe(401);
  });
});
