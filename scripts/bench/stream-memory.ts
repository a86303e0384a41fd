import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import v8 from 'node:v8';
import { formatHeapProfile, summarizeHeapProfile } from './heap-profile-summary.ts';

// What one open live-event stream (GET /api/events) holds in the product's memory (issue 33 item 3: the
// soak day holds 1,000). A child process runs the test app (src/test/harness.ts) and signs members in; this
// process opens the streams from distinct loopback addresses (the product's per-user and per-address
// limits: 8 and 32) and asks the child for its heap after full GCs, with no streams, with them all open,
// and after closing them. The child's sampling heap profile over the opening says where the bytes that
// stay were allocated.
//   node --import tsx scripts/bench/stream-memory.ts [streams=1000] [profile file]

interface Usage {
  used: number;
  external: number;
  rss: number;
}
type FromChild = { url: string; cookies: string[] } | Usage | { ok: true };

const isChild = process.argv[2] === '--child';
const streams = Number(process.argv[isChild ? 3 : 2] ?? 1000);
const users = Math.ceil(streams / 8);

async function child(): Promise<void> {
  const { startTestApp } = await import('../../src/test/harness.ts');
  const { Session } = await import('node:inspector/promises');
  const app = await startTestApp();
  const cookies: string[] = [];
  for (let i = 0; i < users; i++) cookies.push((await app.signIn(`streamer${i}`)).cookieHeader);
  const session = new Session();
  session.connect();
  const gc = () => {
    for (let i = 0; i < 3; i++) (globalThis as unknown as { gc: () => void }).gc();
  };
  process.send!({ url: app.url, cookies });
  process.on('message', (m: { cmd: string; file?: string }) => {
    void (async () => {
      if (m.cmd === 'sample') await session.post('HeapProfiler.startSampling', { samplingInterval: 256 });
      if (m.cmd === 'stop') {
        gc();
        const { profile } = await session.post('HeapProfiler.stopSampling');
        writeFileSync(m.file!, JSON.stringify(profile));
      }
      if (m.cmd === 'measure') {
        gc();
        const mu = process.memoryUsage();
        process.send!({ used: v8.getHeapStatistics().used_heap_size, external: mu.external, rss: mu.rss });
        return;
      }
      process.send!({ ok: true });
    })();
  });
}

async function main(): Promise<void> {
  const profileFile = process.argv[3] ?? 'bench/profiles.tmp/stream-memory.heapprofile';
  const product = fork(import.meta.filename, ['--child', String(streams)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
  });
  const reply = <T extends FromChild>() => new Promise<T>((resolve) => product.once('message', resolve));
  const ask = async <T extends FromChild>(cmd: string) => {
    const answer = reply<T>();
    product.send({ cmd, file: profileFile });
    return answer;
  };
  const { url, cookies } = await reply<{ url: string; cookies: string[] }>();
  const measure = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return ask<Usage>('measure');
  };
  const before = await measure();
  await ask('sample');
  const requests: http.ClientRequest[] = [];
  let open = 0;
  for (let i = 0; i < streams; i += 50) {
    await Promise.all(
      Array.from(
        { length: Math.min(50, streams - i) },
        (_, k) =>
          new Promise<void>((resolve) => {
            const j = i + k;
            const req = http.request(
              new URL('/api/events', url),
              {
                headers: { cookie: cookies[j % users]!, accept: 'text/event-stream' },
                agent: false,
                localAddress: `127.0.${10 + Math.floor(j / 16)}.${(j % 16) + 1}`,
              },
              (res) => {
                if (res.statusCode === 200) open += 1;
                res.resume();
                resolve();
              },
            );
            req.on('error', () => resolve());
            requests.push(req);
            req.end();
          }),
      ),
    );
  }
  const during = await measure();
  await ask('stop');
  for (const req of requests) req.destroy();
  const after = await measure();
  product.kill();
  const mb = (b: number) => (b / 1048576).toFixed(1);
  const per = (k: keyof Usage) => ((during[k] - before[k]) / Math.max(open, 1) / 1024).toFixed(1);
  console.log(
    `${open} streams open: heap used ${mb(before.used)} → ${mb(during.used)} MB (${per('used')} kB a stream), ` +
      `${mb(after.used)} MB after closing them; external ${per('external')} kB a stream; RSS ${per('rss')} kB a stream`,
  );
  const summary = summarizeHeapProfile(profileFile, 20);
  console.log(`where the bytes that stayed were allocated (${profileFile}):`);
  for (const line of formatHeapProfile(summary)) console.log(line);
}

await (isChild ? child() : main());
