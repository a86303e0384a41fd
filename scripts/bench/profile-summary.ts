import { readFileSync } from 'node:fs';
import path from 'node:path';

// Summarises a V8 .cpuprofile (from `npm run bench -- --profile`): self time per function and per
// package, so a bench run ends with "where did the product's CPU go" in text, not only in DevTools.
//   node --import tsx scripts/bench/profile-summary.ts bench/profiles.tmp/<file>.cpuprofile [top]

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  byFunction: { name: string; ms: number }[];
  byPackage: { name: string; ms: number }[];
}

function packageOf(url: string): string {
  if (!url) return '(native/vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  return path.basename(url);
}

export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  let idle = 0;
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    total += us;
    if (functionName === '(idle)') idle += us;
    const name =
      `${functionName || '(anonymous)'} ${url ? `${packageOf(url)}:${lineNumber + 1}` : ''}`.trim();
    fn.set(name, (fn.get(name) ?? 0) + us);
    const p = functionName.startsWith('(') ? functionName : packageOf(url);
    pkg.set(p, (pkg.get(p) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10 }));
  return { totalMs: total / 1000, idleMs: idle / 1000, byFunction: sorted(fn), byPackage: sorted(pkg) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, topArg] = process.argv.slice(2);
  if (!file) {
    console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  const s = summarizeProfile(file, Number(topArg ?? 30));
  const busy = s.totalMs - s.idleMs;
  console.log(`total ${s.totalMs.toFixed(0)} ms, idle ${s.idleMs.toFixed(0)} ms, busy ${busy.toFixed(0)} ms`);
  console.log('\nself time by package:');
  for (const r of s.byPackage)
    console.log(
      `  ${r.ms.toFixed(1).padStart(9)} ms  ${((r.ms / busy) * 100).toFixed(1).padStart(5)} %  ${r.name}`,
    );
  console.log('\nself time by function:');
  for (const r of s.byFunction)
    console.log(
      `  ${r.ms.toFixed(1).padStart(9)} ms  ${((r.ms / busy) * 100).toFixed(1).padStart(5)} %  ${r.name}`,
    );
}
