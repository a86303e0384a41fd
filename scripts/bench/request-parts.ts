import { readFileSync } from 'node:fs';

// Where a signed-in request's time goes, by part of the request (issue 30, decision 046 "Session 15"):
// each busy sample of a V8 .cpuprofile (from `npm run bench -- --profile`) is charged to the innermost
// frame on its stack that belongs to a known part (the session cookie, the session row, the session
// policy, the data of the route, the answer, node's HTTP, …); GC and "(program)" stand alone; the rest
// is "other" (its top leaves are listed). The profiler samples by wall clock, so on a loaded machine
// system calls (writev, SQLite's writes) weigh more than the CPU they use; read it with `--perf`.
//   node --import tsx scripts/bench/request-parts.ts bench/profiles.tmp/<phase>.cpuprofile

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const PARTS: [string, RegExp][] = [
  ['session row (store get)', /sqlite-session-store|pg-session-store/],
  ['session touch', /auth\/session\.(js|ts)|createSession/],
  ['session user (passport)', /auth\/passport\.|deserializeUser/],
  ['session policy (revocation read)', /session-policy\./],
  ['session cookie (signature)', /signedSessionId|sessionIdReader|cookie-signature|cookie\/index/],
  ['address recording', /same-address\.|recordAddress|recordUserAddress|addressRecorder/],
  ['address key (req.ip)', /addressKey|proxy-addr|forwarded|ipKeyGenerator/],
  ['claim (data layer)', /claimReward|claim-reward\.|rewards-repo/],
  // A transaction's COMMIT runs after an await: its stack starts at the store, not at the claim.
  ['store transaction (mutex, BEGIN, COMMIT)', /db\/engine\./],
  ['discover (data)', /joins\/routes|discover-/],
  ['person waits (AsyncLocalStorage)', /whilePersonWaits|async_hooks/],
  ['JSON body', /parseJsonBody|fastJsonBody/],
  ['answer (serialise, headers)', /^answer .*fast-path/],
  ['request id, metric, log', /request-context\.|recordHttpRequest|metrics\.|prom-client/],
  [
    'node HTTP in (parse)',
    /parserOnIncoming|parserOnHeadersComplete|_http_server|_http_common|_http_incoming/,
  ],
  ['node HTTP out (write)', /_http_outgoing|writable|stream_base|node:net|^writev /],
];

const frame = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;

const file = process.argv[2];
if (!file) throw new Error('usage: request-parts.ts <file.cpuprofile>');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const parts = new Map<string, number>();
const otherLeaves = new Map<string, number>();
let busy = 0;
for (const sample of profile.samples) {
  const leaf = byId.get(sample)!;
  const name = leaf.callFrame.functionName;
  if (name === '(idle)') continue;
  busy += 1;
  let part = name === '(garbage collector)' ? 'GC' : name === '(program)' ? '(program)' : undefined;
  for (let id: number | undefined = sample; !part && id !== undefined; id = parent.get(id)) {
    const f = frame(byId.get(id)!);
    part = PARTS.find(([, re]) => re.test(f))?.[0];
  }
  if (!part) {
    part = 'other';
    otherLeaves.set(frame(leaf), (otherLeaves.get(frame(leaf)) ?? 0) + 1);
  }
  parts.set(part, (parts.get(part) ?? 0) + 1);
}
const pct = (n: number) => `${((100 * n) / busy).toFixed(1).padStart(5)} %`;
console.log(`${busy} busy samples`);
for (const [part, n] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`${pct(n)}  ${part}`);
console.log('other, by leaf:');
for (const [leaf, n] of [...otherLeaves].sort((a, b) => b[1] - a[1]).slice(0, 8))
  console.log(`${pct(n)}    ${leaf}`);
