import net from 'node:net';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { Agent } from 'undici';
import { distIsStale, rssBytes, startProduct, stopAll, track } from './bench/processes.ts';
import { readMemorySplit } from './bench/soak.ts';
import { percentile } from './bench/load.ts';

// `npm run flood` (issue 27 item 2, decision 040): a bounded loopback flood against the production build
// (dist/server/main.js with production's node flags: --max-old-space-size=144 as `npm start`), one phase
// after the other — 10,000 stalled anonymous bodies, 10,000 idle sockets, 10,000 live-event streams of
// 1,250 signed-in users — while one signed-in member keeps using the site. It reports crashes (the
// product process exiting), what the flood got back (status codes), the member's p99 during each phase,
// and memory at rest, at each phase's peak and after. Needs `npm run build` first. Loopback only: the
// clients bind 127.x.y.z addresses (Linux routes all of 127/8 to loopback), as many addresses as a
// botnet, so the per-address caps are tested too. Each phase holds its connections HOLD_MS.

const COUNT = Number(process.env.FLOOD_COUNT ?? 10_000);
const HOLD_MS = Number(process.env.FLOOD_HOLD_MS ?? 30_000);
const USERS = Math.ceil(COUNT / 8);
const ADDRESSES = 500;
const SESSION_SECRET = 'bench-session-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const COOKIE = '__Host-coinsync.sid';

const sessionRequire = createRequire(createRequire(import.meta.url).resolve('express-session'));
const signature = sessionRequire('cookie-signature') as { sign(value: string, secret: string): string };

/** The loopback address client `i` connects from: ADDRESSES of them, 127.20.0.1 upwards. */
const address = (i: number) => {
  const k = i % ADDRESSES;
  return `127.20.${Math.floor(k / 250)}.${1 + (k % 250)}`;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number | null) => (bytes === null ? null : Math.round(bytes / 1024 / 1024));

interface Probe {
  latencies: number[];
  failures: Map<string, number>;
}

/** One signed-in member using the site (its own keep-alive connection, like a browser tab). */
function startMember(url: string, cookie: string): { stop(): Promise<Probe>; phase(): Probe } {
  const agent = new Agent({ connections: 2, localAddress: '127.0.0.2' });
  let current: Probe = { latencies: [], failures: new Map() };
  let running = true;
  const loop = (async () => {
    let i = 0;
    while (running) {
      const path = i++ % 2 === 0 ? '/api/auth/user' : '/api/servers';
      const started = performance.now();
      try {
        const res = await fetch(`${url}${path}`, {
          headers: { cookie },
          dispatcher: agent,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        if (res.status === 200) current.latencies.push(performance.now() - started);
        else current.failures.set(String(res.status), (current.failures.get(String(res.status)) ?? 0) + 1);
      } catch (err) {
        const key = err instanceof Error ? err.name : 'error';
        current.failures.set(key, (current.failures.get(key) ?? 0) + 1);
      }
      await sleep(50);
    }
  })();
  return {
    phase() {
      const done = current;
      current = { latencies: [], failures: new Map() };
      return done;
    },
    async stop() {
      running = false;
      await loop;
      await agent.close();
      return current;
    },
  };
}

function summary(probe: Probe) {
  const sorted = [...probe.latencies].sort((a, b) => a - b);
  return {
    served: sorted.length,
    p50Ms: Math.round(percentile(sorted, 50)),
    p99Ms: Math.round(percentile(sorted, 99)),
    failures: Object.fromEntries(probe.failures),
  };
}

/** Opens `count` raw connections from many loopback addresses, `write` sending what each sends. */
async function openSockets(
  port: number,
  count: number,
  write: (i: number) => string,
): Promise<{ sockets: net.Socket[]; statuses: Map<string, number> }> {
  const sockets: net.Socket[] = [];
  const statuses = new Map<string, number>();
  const count1 = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: address(i) });
    let seen = false;
    socket.on('data', (chunk: Buffer) => {
      if (seen) return;
      seen = true;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'other';
      count1(status);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!seen) count1(err.code ?? 'error');
      seen = true;
    });
    socket.on('close', () => {
      if (!seen) count1('closed without answer');
      seen = true;
    });
    const text = write(i);
    if (text) socket.write(text);
    sockets.push(socket);
    if (i % 200 === 199) await sleep(20);
  }
  return { sockets, statuses };
}

async function main() {
  if (distIsStale()) {
    console.error('flood: dist/server is missing or older than src/: run `npm run build` first');
    process.exit(2);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-flood-'));
  const databasePath = path.join(dir, 'flood.db');
  const port = 5600 + Math.floor(Math.random() * 300);
  const product = await startProduct({
    port,
    databasePath,
    runtime: 'dist',
    env: { BOT_ENABLED: 'false', WRITE_LIMITS: 'on' },
  });
  let exits = 0;
  product.child.on('exit', () => (exits += 1));
  const pid = product.child.pid;
  const url = product.url;

  // Signed-in users: rows and sessions written as sign-in writes them (the flood measures the server,
  // not Discord's sign-in).
  const db = new Database(databasePath);
  db.pragma('busy_timeout = 5000');
  const now = Date.now();
  const insertUser = db.prepare(
    'INSERT INTO users (id, discord_id, discord_username, coins, created_at) VALUES (?, ?, ?, 0, ?)',
  );
  const insertSession = db.prepare('INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?)');
  const cookies: string[] = [];
  db.transaction(() => {
    for (let u = 0; u <= USERS; u++) {
      const id = randomUUID();
      insertUser.run(id, String(1_300_000_000_000_000_000n + BigInt(u)), `flood_${u}`, now);
      const sid = randomUUID();
      const expires = now + 7 * 24 * 3600 * 1000;
      const sess = {
        cookie: {
          originalMaxAge: 7 * 24 * 3600 * 1000,
          expires: new Date(expires).toISOString(),
          secure: true,
          httpOnly: true,
          path: '/',
          sameSite: 'lax',
        },
        passport: { user: { id } },
        signedInAt: now,
        lastSeenAt: now,
      };
      insertSession.run(sid, JSON.stringify(sess), expires);
      cookies.push(`${COOKIE}=${encodeURIComponent(`s:${signature.sign(sid, SESSION_SECRET)}`)}`);
    }
  })();
  db.close();
  const memberCookie = cookies.pop()!;

  const memory = async () => ({
    rssMb: mb(rssBytes(pid)),
    heapUsedMb: (await readMemorySplit(url).catch(() => null))?.heapUsedMb ?? null,
  });
  const member = startMember(url, memberCookie);
  await sleep(5_000);
  const rest = { ...(await memory()), member: summary(member.phase()) };
  console.log('rest', JSON.stringify(rest));

  const phases: Record<string, unknown> = {};
  const runPhase = async (name: string, write: (i: number) => string) => {
    const started = performance.now();
    const { sockets, statuses } = await openSockets(port, COUNT, write);
    const openedMs = Math.round(performance.now() - started);
    let peak = { rssMb: 0 as number | null, heapUsedMb: 0 as number | null };
    for (let t = 0; t < HOLD_MS; t += 2_000) {
      await sleep(2_000);
      const m = await memory();
      if ((m.rssMb ?? 0) > (peak.rssMb ?? 0)) peak = m;
    }
    const during = summary(member.phase());
    for (const s of sockets) s.destroy();
    await sleep(3_000);
    phases[name] = {
      openedMs,
      answers: Object.fromEntries(statuses),
      peak,
      member: during,
      alive: exits === 0,
    };
    console.log(name, JSON.stringify(phases[name]));
  };

  const body = '{"type":"regular","pad":"' + 'x'.repeat(30_000);
  await runPhase(
    'stalled bodies',
    () =>
      `POST /api/hourly/claim HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 32768\r\n\r\n${body}`,
  );
  await runPhase('idle sockets', () => '');
  await runPhase(
    'event streams',
    (i) =>
      `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nCookie: ${cookies[Math.floor(i / 8) % cookies.length]}\r\n\r\n`,
  );

  await sleep(15_000);
  const after = { ...(await memory()), member: summary(member.phase()) };
  await member.stop();
  const result = { count: COUNT, holdMs: HOLD_MS, crashes: exits, rest, phases, after };
  console.log('after', JSON.stringify(after));
  console.log(JSON.stringify(result, null, 2));
  track(product.child);
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
  process.exit(exits === 0 ? 0 : 1);
}

void main().catch(async (err: unknown) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
