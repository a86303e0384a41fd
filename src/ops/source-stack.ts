import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Stack traces in src/ terms without node's --enable-source-maps (decision 049, session 16). That flag
// parses the source map of every module loaded at start-up and keeps it for the life of the process:
// ~11 MB of the main heap in the soak day, ~9 MB of it the maps of node_modules (@redis/client's TypeScript
// sources alone 3 MB) that no log line ever needed. Production runs without it, and an error's stack is
// mapped here when the logger writes it: only frames in the compiled server (dist/server, built with
// tsc's source maps), each file's map read the first time one of its frames is logged.

/** The compiled server's directory: this file is dist/server/ops/source-stack.js when built. */
const DIST_SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Parsed maps kept at most: a handful of files appear in the errors a process logs. */
const MAX_MAPS = 32;
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  if (maps.has(file)) return maps.get(file)!;
  let map: SourceMap | null = null;
  try {
    const mapFile = `${file}.map`;
    if (existsSync(mapFile)) map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as never);
  } catch {
    map = null;
  }
  if (maps.size >= MAX_MAPS) maps.delete(maps.keys().next().value!);
  maps.set(file, map);
  return map;
}

const FRAME = /(file:\/\/[^\s()]+?\.js|\/[^\s()]+?\.js):(\d+):(\d+)/g;

/**
 * `stack` with every frame of a compiled file under `root` (default: this process's dist/server) that has
 * a source map replaced by its source position (`/…/src/x.ts:line:column`); other frames as they were.
 * Unchanged when node maps stacks itself (--enable-source-maps).
 */
export function sourceMappedStack(stack: string, root = DIST_SERVER): string {
  if (process.sourceMapsEnabled) return stack;
  const inside = root.endsWith(path.sep) ? root : root + path.sep;
  return stack.replace(FRAME, (frame, where: string, line: string, column: string) => {
    const file = where.startsWith('file:') ? fileURLToPath(where) : where;
    if (!file.startsWith(inside)) return frame;
    const entry = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry)) return frame;
    const source = path.resolve(path.dirname(file), entry.originalSource);
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
