import { readFileSync } from 'node:fs';

// Summarises a V8 sampling heap profile (from `npm run bench -- --heap-profile`): bytes sampled per
// allocating function with the two frames that called it, largest first. The bench samples only
// objects that survived a scavenge (see InspectorProfiler.startHeapSampling), so a request path that
// shows up here is one whose objects get promoted instead of dying young.
//   node --import tsx scripts/bench/heap-profile-summary.ts bench/profiles.tmp/<file>.heapprofile [top]

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

export interface HeapProfileSummary {
  totalBytes: number;
  byStack: { stack: string; bytes: number }[];
}

function frame(node: HeapNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/') : '';
  return `${functionName || '(anonymous)'}${where ? ` ${where}:${lineNumber + 1}` : ''}`;
}

export function summarizeHeapProfile(file: string, top = 20): HeapProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
  const byStack = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode, parents: string[]) => {
    const here = frame(node);
    if (node.selfSize > 0) {
      total += node.selfSize;
      const stack = [here, ...parents.slice(-2).reverse()].join(' ← ');
      byStack.set(stack, (byStack.get(stack) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, [...parents, here]);
  };
  walk(profile.head, []);
  return {
    totalBytes: total,
    byStack: [...byStack]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([stack, bytes]) => ({ stack, bytes })),
  };
}

export function formatHeapProfile(s: HeapProfileSummary): string[] {
  return s.byStack.map(
    (r) =>
      `  ${(r.bytes / 1024).toFixed(0).padStart(8)} kB ${((r.bytes / s.totalBytes) * 100).toFixed(1).padStart(5)} %  ${r.stack}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, topArg] = process.argv.slice(2);
  if (!file) {
    console.error('usage: heap-profile-summary.ts <file.heapprofile> [top]');
    process.exit(2);
  }
  const s = summarizeHeapProfile(file, Number(topArg ?? 30));
  console.log(`sampled ${(s.totalBytes / 1024 / 1024).toFixed(1)} MB that survived a scavenge`);
  for (const line of formatHeapProfile(s)) console.log(line);
}
