import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// First-load weight of the built SPA, from the files the browser actually fetches: the page's HTML's
// entry script, modulepreload links and stylesheets, plus everything those import statically. Login is
// login.html (the prerendered page signed-out visitors get) when the build has one, else index.html.
// Discover adds its lazily loaded page chunk (and what it imports statically, and the CSS Vite
// preloads with it). No Vite manifest is needed: the asset graph is read from the built files.

export interface Weight {
  files: string[];
  jsBytes: number;
  jsGzip: number;
  cssBytes: number;
  cssGzip: number;
}

export interface WebSizes {
  login: Weight;
  discover: Weight;
}

// Minified chunks quote specifiers with ", ' or ` (Rolldown prefers backticks).
const STATIC_IMPORT = /(?:\bimport\s*|\bfrom\s*)["'`](\.{1,2}\/[^"'`]+?\.(?:js|css))["'`]/g;

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`).exec(tag)?.[1];
}

/** Turns an href from index.html ("/assets/x.js") or a chunk ("./x.js") into a path under dist. */
function resolveAsset(dist: string, from: string | null, ref: string): string {
  if (from && ref.startsWith('.')) return path.resolve(path.dirname(from), ref);
  return path.join(dist, ref.replace(/^\//, ''));
}

function closure(dist: string, roots: string[], seen = new Set<string>()): Set<string> {
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(STATIC_IMPORT)) stack.push(resolveAsset(dist, file, match[1]!));
  }
  return seen;
}

function weigh(dist: string, files: Set<string>): Weight {
  const weight: Weight = { files: [], jsBytes: 0, jsGzip: 0, cssBytes: 0, cssGzip: 0 };
  for (const file of [...files].sort()) {
    if (!existsSync(file)) throw new Error(`asset graph points at a missing file: ${file}`);
    const bytes = readFileSync(file);
    const gz = gzipSync(bytes, { level: 9 }).length;
    weight.files.push(path.relative(dist, file));
    if (file.endsWith('.css')) {
      weight.cssBytes += bytes.length;
      weight.cssGzip += gz;
    } else {
      weight.jsBytes += bytes.length;
      weight.jsGzip += gz;
    }
  }
  return weight;
}

/** CSS files Vite preloads together with a lazily imported chunk (its __vite__mapDeps entry list). */
function preloadedCss(dist: string, entryCode: string, chunkName: string): string[] {
  const table = /__vite__mapDeps=\([^)]*m\.f=(\[[^\]]*\])/.exec(entryCode)?.[1];
  if (!table) return [];
  const deps = JSON.parse(table) as string[];
  const chunkIndex = deps.findIndex((d) => d.endsWith(`/${chunkName}`));
  if (chunkIndex < 0) return [];
  const call = new RegExp(
    `import\\(["'\`]\\./${chunkName.replace(/[.$]/g, '\\$&')}["'\`]\\)\\s*,\\s*__vite__mapDeps\\((\\[[^\\]]*\\])`,
  ).exec(entryCode);
  const indexes = call?.[1] ? (JSON.parse(call[1]) as number[]) : [chunkIndex];
  return indexes
    .map((i) => deps[i])
    .filter((d): d is string => Boolean(d?.endsWith('.css')))
    .map((d) => path.join(dist, d));
}

/** The files a page's HTML names (entry script, modulepreloads, stylesheets). */
function htmlRoots(dist: string, file: string): string[] {
  const html = readFileSync(path.join(dist, file), 'utf8');
  const roots: string[] = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script');
    const rel = attr(tag, 'rel');
    const ref = isScript
      ? attr(tag, 'src')
      : rel === 'modulepreload' || rel === 'stylesheet'
        ? attr(tag, 'href')
        : undefined;
    if (ref && !/^(?:https?:|data:)/.test(ref)) roots.push(resolveAsset(dist, null, ref));
  }
  if (!roots.some((r) => r.endsWith('.js'))) throw new Error(`no entry script in ${dist}/${file}`);
  return roots;
}

export function measureWebSizes(dist: string): WebSizes {
  const roots = htmlRoots(dist, 'index.html');
  const entry = roots.find((r) => r.endsWith('.js'))!;
  const app = closure(dist, roots);
  // Signed out, the server sends the prerendered login.html (scripts/build/pages.ts) when the build has one.
  const login = existsSync(path.join(dist, 'login.html'))
    ? closure(dist, htmlRoots(dist, 'login.html'))
    : app;

  // The discover page chunk is named after its file (web/src/pages/discover-page.tsx).
  const entryCode = [...app]
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const chunkRef = /import\(["'`]\.\/(discover-page-[^"'`]+\.js)["'`]\)/.exec(entryCode)?.[1];
  if (!chunkRef) throw new Error('no lazily loaded discover-page chunk found in the entry graph');
  const discoverRoots = [
    path.join(path.dirname(entry), chunkRef),
    ...preloadedCss(dist, entryCode, chunkRef),
  ];
  const discover = closure(dist, discoverRoots, new Set(app));
  return { login: weigh(dist, login), discover: weigh(dist, discover) };
}
