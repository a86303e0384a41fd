import { readFileSync } from 'node:fs';
import path from 'node:path';

// Summarises a V8 .cpuprofile (from `npm run bench -- --profile`): self time per function and per
// package, so a bench run ends with "where did the product's CPU go" in text, not only in DevTools.
//   node --import tsx scripts/bench/profile-summary.ts bench/profiles.tmp/<file>.cpuprofile [top]
//   ... <file> --runs [min ms]: per product function, its runs (CPU per occurrence: median / p99 / max);
//       PROFILE_ALL_FRAMES=1 lists node's and the packages' functions too
//   ... <file> --long-tasks [min ms]: the main thread's busy stretches and where they entered the product
//   PROFILE_FROM_S / PROFILE_TO_S: only the samples between these seconds of the profile (e.g. a soak's
//       warm-up against its second half; decision 049, session 18)

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

/**
 * The profile in `file`, keeping only its samples between `fromS` and `toS` seconds after its start (all
 * when not given; by default PROFILE_FROM_S and PROFILE_TO_S). The profile then starts at `fromS`: the
 * positions the analyses print ("at … s") are seconds since the window's start.
 */
export function readProfile(
  file: string,
  fromS = Number(process.env.PROFILE_FROM_S ?? 0),
  toS = Number(process.env.PROFILE_TO_S ?? Infinity),
): CpuProfile {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  if (fromS <= 0 && toS === Infinity) return profile;
  const from = profile.startTime + fromS * 1e6;
  const to = profile.startTime + toS * 1e6;
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let t = profile.startTime;
  let last = from;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t > to) return;
    samples.push(id);
    timeDeltas.push(t - last);
    last = t;
  });
  return { ...profile, startTime: from, endTime: Math.min(to, profile.endTime), samples, timeDeltas };
}

export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const profile = readProfile(file);
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

/**
 * One stretch of the main thread without an idle sample: a macrotask (or a few back to back) that held
 * the event loop. `wallMs` is the stretch's length on the clock; `sampledMs` is its samples times the
 * sampling interval, which a busy machine inflates far less (a descheduled thread takes no samples: the
 * profiler's signals to it coalesce), so it is the closer figure for the task's own CPU.
 */
export interface LongTask {
  atMs: number;
  wallMs: number;
  sampledMs: number;
  /** Of the samples, those in V8's garbage collector. */
  gcMs: number;
  /** Where the task entered the product's code (the outermost frame in src/ or dist/server/), by samples. */
  entries: { name: string; ms: number }[];
  /** The functions the samples were in (self time). */
  self: { name: string; ms: number }[];
}

const frameName = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url ? `${packageOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
const isProductFrame = (url: string) =>
  url.includes('/src/') ||
  url.includes('/dist/server/') ||
  (process.env.PROFILE_ALL_FRAMES === '1' && url !== '');

/** The main thread's busy stretches of at least `minMs` (by samples), longest first. */
export function longTasks(file: string, minMs = 20, intervalMs = 0.5): LongTask[] {
  const profile = readProfile(file);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const entryOf = new Map<number, string>();
  const entry = (id: number): string => {
    const cached = entryOf.get(id);
    if (cached !== undefined) return cached;
    let outermost: ProfileNode | null = null;
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur)!;
      if (isProductFrame(node.callFrame.url)) outermost = node;
    }
    const name = outermost ? frameName(outermost) : frameName(byId.get(id)!);
    entryOf.set(id, name);
    return name;
  };
  const tasks: LongTask[] = [];
  let t = profile.startTime;
  let current: { start: number; end: number; ids: number[] } | null = null;
  const close = () => {
    if (!current) return;
    const sampledMs = current.ids.length * intervalMs;
    if (sampledMs >= minMs) {
      const tally = (f: (id: number) => string) => {
        const m = new Map<string, number>();
        for (const id of current!.ids) m.set(f(id), (m.get(f(id)) ?? 0) + intervalMs);
        return [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([name, ms]) => ({ name, ms }));
      };
      tasks.push({
        atMs: Math.round((current.start - profile.startTime) / 1000),
        wallMs: Math.round((current.end - current.start) / 100) / 10,
        sampledMs,
        gcMs:
          current.ids.filter((id) => byId.get(id)!.callFrame.functionName === '(garbage collector)').length *
          intervalMs,
        entries: tally(entry),
        self: tally((id) => frameName(byId.get(id)!)),
      });
    }
    current = null;
  };
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const next = t + (profile.timeDeltas[i + 1] ?? 0);
    if (byId.get(id)!.callFrame.functionName === '(idle)') close();
    else if (current) {
      current.ids.push(id);
      current.end = next;
    } else current = { start: t, end: next, ids: [id] };
  });
  close();
  return tasks.sort((a, b) => b.sampledMs - a.sampledMs);
}

/** Long tasks grouped by their main entry point: how often, and their CPU (sampled) per occurrence. */
export function longTasksByEntry(
  tasks: LongTask[],
): { entry: string; count: number; medianMs: number; maxMs: number }[] {
  const groups = new Map<string, number[]>();
  for (const task of tasks) {
    const key = task.entries[0]?.name ?? '?';
    groups.set(key, [...(groups.get(key) ?? []), task.sampledMs]);
  }
  return [...groups]
    .map(([entry, ms]) => {
      const sorted = ms.sort((a, b) => a - b);
      return {
        entry,
        count: ms.length,
        medianMs: sorted[Math.floor(sorted.length / 2)]!,
        maxMs: sorted.at(-1)!,
      };
    })
    .sort((a, b) => b.count * b.medianMs - a.count * a.medianMs);
}

/**
 * Per product function: its runs, i.e. stretches of consecutive samples with the function on the stack
 * (samples in the garbage collector do not break a run, idle or any other code does). A synchronous call
 * is one run, however busy the machine: a descheduled thread takes no samples, so a run's samples times
 * the interval is close to its CPU. Calls back to back (a loop calling it, two requests in a row) join
 * into one run, so a run is an upper bound on one call; the count says how often it happened. `ownP99Ms`
 * and `ownMaxMs` leave the GC samples out (a run's own code; a GC inside it still held the loop).
 */
export function functionRuns(
  file: string,
  intervalMs = 0.5,
): {
  name: string;
  runs: number;
  totalMs: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  maxAtMs: number;
  ownP99Ms: number;
  ownMaxMs: number;
}[] {
  const profile = readProfile(file);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackNames = new Map<number, Set<string>>();
  const namesOf = (id: number): Set<string> => {
    let names = stackNames.get(id);
    if (!names) {
      names = new Set();
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const node = byId.get(cur)!;
        if (isProductFrame(node.callFrame.url)) names.add(frameName(node));
      }
      stackNames.set(id, names);
    }
    return names;
  };
  const open = new Map<string, { samples: number; gc: number; start: number }>();
  const done = new Map<string, { ms: number; ownMs: number; at: number }[]>();
  const finish = (name: string) => {
    const run = open.get(name)!;
    open.delete(name);
    const list = done.get(name) ?? [];
    list.push({ ms: run.samples * intervalMs, ownMs: (run.samples - run.gc) * intervalMs, at: run.start });
    done.set(name, list);
  };
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const fn = byId.get(id)!.callFrame.functionName;
    if (fn === '(garbage collector)') {
      for (const run of open.values()) {
        run.samples += 1;
        run.gc += 1;
      }
      return;
    }
    const names = fn === '(idle)' ? new Set<string>() : namesOf(id);
    for (const name of [...open.keys()]) if (!names.has(name)) finish(name);
    for (const name of names) {
      const run = open.get(name);
      if (run) run.samples += 1;
      else open.set(name, { samples: 1, gc: 0, start: Math.round((t - profile.startTime) / 1000) });
    }
  });
  for (const name of [...open.keys()]) finish(name);
  return [...done]
    .map(([name, runs]) => {
      const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
      const longest = runs.reduce((a, b) => (b.ms > a.ms ? b : a));
      const own = runs.map((r) => r.ownMs).sort((a, b) => a - b);
      return {
        name,
        runs: runs.length,
        totalMs: sorted.reduce((a, b) => a + b, 0),
        medianMs: sorted[Math.floor(sorted.length / 2)]!,
        p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!,
        maxMs: longest.ms,
        maxAtMs: longest.at,
        ownP99Ms: own[Math.min(own.length - 1, Math.floor(own.length * 0.99))]!,
        ownMaxMs: own.at(-1)!,
      };
    })
    .sort((a, b) => b.maxMs - a.maxMs);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, topArg] = process.argv.slice(2);
  if (!file) {
    console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  if (topArg === '--runs') {
    const min = Number(process.argv[4] ?? 10);
    console.log(
      `product functions with a run of at least ${min} ms of samples (runs, total, median / p99 / max ms, longest at; without GC samples: p99 / max)`,
    );
    for (const f of functionRuns(file).filter((f) => f.maxMs >= min))
      console.log(
        `  ${String(f.runs).padStart(6)} ${f.totalMs.toFixed(0).padStart(7)}  ${f.medianMs.toFixed(1).padStart(6)} / ${f.p99Ms.toFixed(1).padStart(6)} / ${f.maxMs.toFixed(1).padStart(6)}  at ${(f.maxAtMs / 1000).toFixed(1)} s; own ${f.ownP99Ms.toFixed(1)} / ${f.ownMaxMs.toFixed(1)}  ${f.name}`,
      );
    process.exit(0);
  }
  if (topArg === '--long-tasks') {
    const tasks = longTasks(file, Number(process.argv[4] ?? 20));
    console.log(`${tasks.length} busy stretches of the main thread ≥ ${process.argv[4] ?? 20} ms of samples`);
    console.log('\nby entry point (count, CPU per occurrence: median / max ms):');
    for (const g of longTasksByEntry(tasks))
      console.log(
        `  ${String(g.count).padStart(5)}  ${g.medianMs.toFixed(1).padStart(7)} / ${g.maxMs.toFixed(1).padStart(7)}  ${g.entry}`,
      );
    console.log('\nthe 15 longest:');
    for (const task of tasks.slice(0, 15)) {
      console.log(
        `  at ${(task.atMs / 1000).toFixed(1)} s: ${task.sampledMs} ms sampled (${task.wallMs} ms wall, GC ${task.gcMs} ms)`,
      );
      console.log(`     entries: ${task.entries.map((e) => `${e.name} ${e.ms}`).join('; ')}`);
      console.log(`     self:    ${task.self.map((e) => `${e.name} ${e.ms}`).join('; ')}`);
    }
    process.exit(0);
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
