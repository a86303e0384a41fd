// Runs after `vite build` and writes the files the server reads (src/auth/spa-pages.ts):
// - dist/web/login.html (English) and dist/web/login.<locale>.html for each other locale: the login page
//   rendered to static HTML (React's renderToString with Chakra, emotion's styles inline) inside
//   index.html's <head>, in that language (<html lang>, title, description), with the small
//   web/src/login-static.ts as its only script. Signed-out visitors get the one in their language: the
//   login page paints from the HTML and loads none of the app's JavaScript.
// - dist/web/route-preloads.json: per route path, the chunks its page needs beyond index.html's (the
//   router, the page, what they import). The server lists them as modulepreload links in the signed-in
//   page, so they download together with the entry instead of after it has run.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { DEFAULT_LOCALE, SUPPORTED_LOCALES, type Locale } from '../../src/shared/i18n/index.ts';
import { loginPageFile } from '../../src/auth/login-locale.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// WEB_OUT_DIR: a build made with `vite build --outDir` elsewhere.
const dist = process.env.WEB_OUT_DIR ?? path.join(root, 'dist/web');

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const entry = manifest['src/login-static.ts'];
if (!entry) throw new Error('no src/login-static.ts in the Vite manifest');

const vite = await createServer({
  configFile: path.join(root, 'vite.config.ts'),
  server: { middlewareMode: true, hmr: false, watch: null },
  appType: 'custom',
  logLevel: 'warn',
});
interface PrerenderedLogin {
  markup: string;
  title: string;
  description: string;
}
const logins = new Map<Locale, PrerenderedLogin>();
let globalCss: string;
let routes: { path: string; load: () => unknown }[];
try {
  const mod = (await vite.ssrLoadModule('/src/login-prerender.tsx')) as {
    renderLoginPage: (locale: Locale) => Promise<PrerenderedLogin>;
    renderGlobalCss: () => string;
  };
  // One after the other: the prerender switches the one i18next instance's language.
  for (const locale of SUPPORTED_LOCALES) logins.set(locale, await mod.renderLoginPage(locale));
  globalCss = mod.renderGlobalCss();
  ({ ROUTES: routes } = (await vite.ssrLoadModule('/src/routes.ts')) as { ROUTES: typeof routes });
} finally {
  await vite.close();
}

const css = new Set<string>(entry.css ?? []);
const preloads: string[] = [];
for (const key of entry.imports ?? []) {
  const chunk = manifest[key];
  if (!chunk) continue;
  preloads.push(chunk.file);
  for (const file of chunk.css ?? []) css.add(file);
}
const head = [
  `<script type="module" crossorigin src="/${entry.file}"></script>`,
  ...preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ...[...css].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
].join('\n    ');

const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
const loginShell = index
  // The app's own script, preloads and stylesheet are not the login page's.
  .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
  .replace(/\s*<link rel="(?:modulepreload|stylesheet)"[^>]*>/g, '')
  .replace(/\s*<!--app-boot-->/, '')
  .replace('</head>', `  ${head}\n  </head>`);

/** Text for an HTML element or a double-quoted attribute. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginHtml(locale: Locale, { markup, title, description }: PrerenderedLogin): string {
  const html = loginShell
    .replace(/<html lang="en"/, `<html lang="${locale}"`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*(")/,
      (_m, open: string, close: string) => open + escapeHtml(description) + close,
    )
    .replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`);
  if (!html.includes('data-sign-in')) throw new Error(`the ${locale} login page has no sign-in button`);
  if (!html.includes(`<html lang="${locale}"`)) throw new Error(`the ${locale} login page has no lang`);
  return html;
}

// The stylesheet (the @font-face rules, a few hundred bytes) goes into the page itself: a render-blocking
// request less before the first paint. Its url() references are absolute (/assets/...).
function inlineCss(html: string): string {
  return html.replace(
    /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g,
    (_tag, file: string) => `<style>${readFileSync(path.join(dist, file), 'utf8').trim()}</style>`,
  );
}
for (const [locale, page] of logins) {
  const html = inlineCss(loginHtml(locale, page));
  writeFileSync(path.join(dist, loginPageFile(locale)), html);
  const gzipped = gzipSync(html).length;
  console.log(
    `${loginPageFile(locale)}: ${(html.length / 1000).toFixed(1)} kB (${(gzipped / 1000).toFixed(1)} kB gzip)`,
  );
}
// The app's page carries Chakra's global CSS as a stylesheet of its own (the app's provider leaves it out,
// web/src/theme.ts appSystem; decision 031), before the fonts' rules and the server render's styles.
const appIndex = inlineCss(index).replace('</title>', () => `</title>\n    <style>${globalCss}</style>`);
if (!appIndex.includes(globalCss)) throw new Error('index.html has no <title> to put the global CSS after');
writeFileSync(path.join(dist, 'index.html'), appIndex);
console.log(`global CSS: ${(globalCss.length / 1000).toFixed(1)} kB in index.html`);
console.log(`login pages: ${logins.size} (${DEFAULT_LOCALE} first), script ${entry.file}`);

// Route preloads. A route's page module is named by its loader, `() => import('./pages/x.tsx')`
// (Vite's SSR transform has made the specifier absolute: "/src/pages/x.tsx").
const indexFiles = new Set(
  [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!),
);
function chunkClosure(key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunkClosure(imported, files);
  return files;
}
const preloadsOf = (...keys: string[]) => {
  const files = new Set<string>();
  for (const key of keys) chunkClosure(key, files);
  return [...files].filter((file) => !indexFiles.has(file)).map((file) => `/${file}`);
};
const routePreloads: Record<string, string[]> = {};
for (const route of routes) {
  const page = /["'`]\/(src\/pages\/[^"'`]+\.tsx)["'`]/.exec(String(route.load))?.[1];
  if (!page) throw new Error(`cannot tell the page module of route ${route.path}: ${String(route.load)}`);
  routePreloads[route.path] = preloadsOf('src/routed-app.tsx', page);
}
writeFileSync(path.join(dist, 'route-preloads.json'), JSON.stringify(routePreloads, null, 1));
console.log(`route-preloads.json: ${Object.keys(routePreloads).length} routes`);
