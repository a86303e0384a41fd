import type { Request, RequestHandler } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppBoot, BootQuery, PublicConfig } from '../shared/api-types.ts';
import type { AppContext } from '../context.ts';
import { getUserById, toApiUser } from '../users/users.ts';
import { pageQueries } from './page-data.ts';

/** Paths the SPA shows to everyone without its shell (web/src/routes.ts, layout 'bare'). */
export const BARE_PATHS: ReadonlySet<string> = new Set(['/terms', '/privacy']);

/** Where index.html takes the boot data (web/index.html); a data block, never executed, so no CSP hash. */
export const BOOT_MARKER = '<!--app-boot-->';
export const BOOT_ELEMENT_ID = 'app-boot';

interface SpaPages {
  app: string;
  /** Per route path, the chunks beyond index.html's that its page needs (scripts/build/pages.ts). */
  preloads: Record<string, string[]>;
  /** The prerendered login page (scripts/build/pages.ts), when the build has one. */
  login: string | null;
}

function loadPages(webDist: string, publicOrigin: string): SpaPages {
  // Share-card meta tags need absolute URLs, so the pages carry the configured public origin (read once;
  // the build does not change under a process).
  const read = (file: string) =>
    readFileSync(path.join(webDist, file), 'utf8').replaceAll('__PUBLIC_ORIGIN__', publicOrigin);
  const loginFile = path.join(webDist, 'login.html');
  const preloadsFile = path.join(webDist, 'route-preloads.json');
  return {
    app: read('index.html'),
    login: existsSync(loginFile) ? read('login.html') : null,
    preloads: existsSync(preloadsFile)
      ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as Record<string, string[]>)
      : {},
  };
}

/** web/src/entry-server.tsx, built by `vite build --ssr` (npm run build) into dist/ssr. */
export type RenderApp = (
  url: string,
  boot: AppBoot,
) => Promise<{ html: string; head?: string; document?: { title?: string; description?: string } }>;

const TITLE = /<title>[^<]*<\/title>/;
const DESCRIPTION = /(<meta\s+name="description"\s+content=")[^"]*(")/;

/** Text for an HTML element or a double-quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** index.html with the rendered page's own title and description in place of the site's. */
export function withDocumentHead(html: string, document: { title?: string; description?: string }): string {
  let out = html;
  if (document.title) out = out.replace(TITLE, () => `<title>${escapeHtml(document.title!)}</title>`);
  if (document.description)
    out = out.replace(
      DESCRIPTION,
      (_m, open: string, close: string) => open + escapeHtml(document.description!) + close,
    );
  return out;
}

/** The server renderer of the build in `ssrDist`, or null when there is none (tests, Vite's dev server). */
async function loadRenderer(ctx: AppContext, ssrDist: string | undefined): Promise<RenderApp | null> {
  const file = ssrDist ? path.join(ssrDist, 'entry-server.js') : null;
  if (!file || !existsSync(file)) return null;
  try {
    const mod = (await import(pathToFileURL(file).href)) as { renderApp?: RenderApp };
    return mod.renderApp ?? null;
  } catch (err) {
    ctx.logger.error('server renderer not loaded: pages render in the browser', { file, err: String(err) });
    return null;
  }
}

/** JSON inside <script type="application/json">: `<` escaped so no value can close the element. */
export function bootScript(boot: AppBoot): string {
  const json = JSON.stringify(boot).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${BOOT_ELEMENT_ID}">${json}</script>`;
}

async function sessionUser(ctx: AppContext, req: Request): Promise<AppBoot['user']> {
  const userId = req.user?.id;
  if (!userId) return null;
  try {
    return toApiUser(await getUserById(ctx.store, userId), ctx.config.discord.cdnUrl);
  } catch (err) {
    // The app asks /api/auth/user itself when the page carries no user.
    ctx.logger.warn('boot user not inlined', { userId, err: String(err) });
    return null;
  }
}

async function firstData(ctx: AppContext, userId: string, pathname: string): Promise<BootQuery[]> {
  try {
    return await pageQueries(ctx, userId, pathname);
  } catch (err) {
    // The page asks the API itself.
    ctx.logger.warn('page data not inlined', { userId, pathname, err: String(err) });
    return [];
  }
}

/** True for a path of the app's route table ("/dashboard", "/dashboard/"); true for all without a table. */
function isKnownRoute(routes: Record<string, string[]>, pathname: string): boolean {
  const keys = Object.keys(routes);
  if (keys.length === 0) return true;
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return Object.hasOwn(routes, normalised);
}

const EMPTY_ROOT = '<div id="root"></div>';
/** The entry's script tag as Vite writes it into index.html. */
const ENTRY_SCRIPT = '<script type="module" ';

/**
 * The SPA's HTML for every other GET, after the session middleware. Signed out on an app path: the
 * prerendered login page (its own few hundred bytes of script, no app bundle). Otherwise index.html with
 * this request's own user inlined (the answer /api/auth/user would give) and, signed in, the page's first
 * data; with a server renderer (`ssrDist`, decision 031) the page itself is rendered into the HTML from
 * that same data, and the app hydrates it.
 */
export function spaPages(
  ctx: AppContext,
  webDist: string,
  config: PublicConfig,
  ssrDist?: string,
): RequestHandler {
  const pages = loadPages(webDist, ctx.config.publicUrl.replace(/\/$/, ''));
  const renderer = loadRenderer(ctx, ssrDist);
  return async (req, res) => {
    const user = await sessionUser(ctx, req);
    res.setHeader('Vary', 'Cookie');
    if (!user && pages.login && !BARE_PATHS.has(req.path)) {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(pages.login);
      return;
    }
    // Per-user HTML: no shared cache may keep it (private), and the browser asks again every time
    // (no-cache: the server answers for the session it sees then). Not no-store, which would keep the page
    // out of the back/forward cache.
    res.setHeader('Cache-Control', user ? 'private, no-cache' : 'no-cache');
    // A path that is none of the app's routes gets the app's 404 page with an HTTP 404 (the route table is
    // the build's route-preloads.json, one key per route).
    if (user && !isKnownRoute(pages.preloads, req.path)) res.status(404);
    let boot: AppBoot = { user, config };
    if (user) boot.queries = await firstData(ctx, user.id, req.path);
    let markup = '';
    let styles = '';
    let documentHead: { title?: string; description?: string } = {};
    const render = await renderer;
    if (render) {
      try {
        const rendered = await render(req.originalUrl, { ...boot, rendered: true });
        markup = rendered.html;
        styles = rendered.head ?? '';
        documentHead = rendered.document ?? {};
        boot = { ...boot, rendered: true };
      } catch (err) {
        // The browser renders the page itself, as without a server renderer.
        ctx.logger.error('page not rendered on the server', { path: req.path, err: String(err) });
      }
    }
    // The route's chunks download beside the entry (the app renders the page at once, main.tsx). When the
    // page is already in the HTML, the scripts only hydrate it: they load at low priority, so the fonts and
    // images of the visible page come first on a slow connection (decision 031).
    const priority = markup ? ' fetchpriority="low"' : '';
    const links = (pages.preloads[req.path] ?? [])
      .map((file) => `<link rel="modulepreload"${priority} crossorigin href="${file}">`)
      .join('');
    const app = markup
      ? withDocumentHead(pages.app, documentHead).replace(ENTRY_SCRIPT, `<script type="module"${priority} `)
      : pages.app;
    res.type('html').send(
      app
        .replace('</head>', () => `${links}${styles}</head>`)
        .replace(EMPTY_ROOT, () => `<div id="root">${markup}</div>`)
        .replace(BOOT_MARKER, () => bootScript(boot)),
    );
  };
}
