import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { freePort } from '../../src/test/child-process.ts';
import { RENDERER_HEAP } from '../../src/auth/page-renderer.ts';
import { FULL_SIZE, seedDatabase } from './seed.ts';
import { startProduct, stopAll } from './processes.ts';
import { signInAll } from './sign-in.ts';

// CPU per server render of each signed-in page (decision 049, session 18): the bench's seeded world, real
// members' boot data taken from the product's own pages, rendered by two builds of the server renderer
// (dist/ssr) alternated render by render on worker threads sized as the product's, each render's CPU read
// from its thread's schedstat. CPU per render is what a cold page cache costs the machine, and what a busy
// machine changes least (wall time is the neighbours').
//   node --import tsx scripts/bench/render-cost.ts [--before OTHER/dist/ssr] [--users 20] [--renders 40]

const { values: args } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: 'dist/ssr' },
    users: { type: 'string', default: '20' },
    renders: { type: 'string', default: '40' },
  },
});
const ROUTES = ['/', '/dashboard', '/daily', '/socials', '/joins', '/campaigns'];
const BOOT = /<script type="application\/json" id="app-boot">([\s\S]*?)<\/script>/;

interface Boot {
  url: string;
  boot: Record<string, unknown>;
}

/** Members' boot data per route, from the product's pages (a static shell or a rendered page alike). */
async function captureBoots(users: number): Promise<Boot[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'render-cost-'));
  try {
    const db = path.join(dir, 'bench.db');
    const seeded = seedDatabase(db, db.replace(/\.db$/, '') + '.discord-sim.json', FULL_SIZE);
    const product = await startProduct({ port: await freePort(), databasePath: db, runtime: 'dist' });
    await product.waitForLine(/bot: connected as/, 180_000);
    const names = seeded.actors.slice(0, users).map((a) => a.username);
    const boots: Boot[] = [];
    for (const { cookie } of await signInAll(product.url, names, 8))
      for (const url of ROUTES) {
        const html = await (await fetch(product.url + url, { headers: { cookie } })).text();
        const json = BOOT.exec(html)?.[1];
        if (json) boots.push({ url, boot: { ...(JSON.parse(json) as object), rendered: true } });
      }
    return boots;
  } finally {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

// The product's worker program in short: render what comes, answer with the thread's CPU for it.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const cpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
import(workerData.url).then((mod) => {
  parentPort.on('message', async ({ url, boot }) => {
    const before = cpuMs();
    const page = await mod.renderApp(url, boot);
    const html = page.html + (page.head ?? '');
    parentPort.postMessage({ cpuMs: cpuMs() - before, bytes: html.length, articles: html.split('<article').length - 1 });
  });
  parentPort.postMessage({ ready: true });
});`;

interface Render {
  cpuMs: number;
  bytes: number;
  articles: number;
}

function startRenderer(ssrDist: string) {
  const url = pathToFileURL(path.resolve(ssrDist, 'entry-server.js')).href;
  const worker = new Worker(WORKER, { eval: true, workerData: { url }, resourceLimits: RENDERER_HEAP });
  const next = <T>() => new Promise<T>((resolve) => worker.once('message', resolve));
  const ready = next<unknown>();
  return {
    ready,
    render: (boot: Boot) => {
      worker.postMessage(boot);
      return next<Render>();
    },
    stop: () => worker.terminate(),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Each route's boots rendered by every build in turn (the first 10 renders of each build: JIT warm-up, left out). */
async function compare(boots: Boot[], builds: [string, string][], renders: number): Promise<void> {
  const renderers = builds.map(([name, dir]) => ({ name, ...startRenderer(dir) }));
  await Promise.all(renderers.map((r) => r.ready));
  for (const r of renderers) for (const boot of boots.slice(0, 10)) await r.render(boot);
  for (const route of ROUTES) {
    const own = boots.filter((b) => b.url === route);
    const results = renderers.map(() => [] as Render[]);
    for (let i = 0; i < renders; i++)
      for (const k of renderers.keys()) {
        const at = (k + i) % renderers.length;
        results[at]!.push(await renderers[at]!.render(own[i % own.length]!));
      }
    for (const [k, r] of renderers.entries()) {
      const rs = results[k]!;
      console.log(
        `${route.padEnd(11)} ${r.name.padEnd(7)} CPU per render median ${median(rs.map((x) => x.cpuMs)).toFixed(1)} ms, HTML ${median(rs.map((x) => x.bytes))} chars, ${median(rs.map((x) => x.articles))} cards`,
      );
    }
  }
  await Promise.all(renderers.map((r) => r.stop()));
}

const boots = await captureBoots(Number(args.users));
const builds: [string, string][] = [['after', args.after]];
if (args.before) builds.unshift(['before', args.before]);
await compare(boots, builds, Number(args.renders));
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
process.exit(0);
