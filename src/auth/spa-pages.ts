import type { Request, RequestHandler, Response } from 'express';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { AppBoot, BootQuery, PublicConfig } from '../shared/api-types.ts';
import type { AppContext } from '../context.ts';
import { getUserById, toApiUser } from '../users/users.ts';
import { pageQueries } from './page-data.ts';
import { createPageCache, pageKeysOf, type CachedPage } from './page-cache.ts';
import { EncodedJson, plainBoot } from './encoded-json.ts';
import { gzipSplit, gzipStart, withData, type GzipStart, type SplitGzip } from './page-gzip.ts';
import { startPageRenderer, type PageRenderer, type RenderedPage } from './page-renderer.ts';
import { recordPageHtml, watchPageCacheBytes } from '../metrics.ts';
import { errorMessage } from '../ops/error-text.ts';
import { EARLY_INPUT_SCRIPT } from '../shared/early-input.ts';
import { DEFAULT_LOCALE, SUPPORTED_LOCALES, type Locale } from '../shared/i18n/index.ts';
import {
  cookieLocale,
  LOCALE_COOKIE,
  localeCookieOptions,
  loginPageFile,
  visitorLocale,
} from './login-locale.ts';

/** Paths the SPA shows to everyone without its shell (web/src/routes.ts, layout 'bare'). */
export const BARE_PATHS: ReadonlySet<string> = new Set(['/terms', '/privacy']);

/** Where index.html takes the boot data (web/index.html); a data block, never executed, so no CSP hash. */
export const BOOT_MARKER = '<!--app-boot-->';
export const BOOT_ELEMENT_ID = 'app-boot';

interface SpaPages {
  app: string;
  /** Per route path, the chunks beyond index.html's that its page needs (scripts/build/pages.ts). */
  preloads: Record<string, string[]>;
  /** The prerendered login page per locale (scripts/build/pages.ts), when the build has them. */
  logins: Map<Locale, string>;
  /** index.html cut for a rendered page, or null when it has no head to cut (see renderedTemplate). */
  rendered: RenderedTemplate | null;
}

/**
 * index.html for a server-rendered page in the order it is streamed (session 16): `start`, the head of
 * everything known before the render (the global CSS, the fonts, the shared chunks' modulepreloads, the
 * early-input script), is sent as soon as the request is authorised; the rest follows the render: the
 * page's own title and description, the entry script and the route's chunks (their priority depends on
 * whether the page was rendered), the render's styles, `</head>` and the body with the markup.
 */
interface RenderedTemplate {
  start: string;
  /** The site's title and description elements, which a render's own replace (withDocumentHead). */
  documentHead: string;
  /** The entry's script element when index.html has it in the head (Vite's build), else ''. */
  entry: string;
  /** From `</head>` to the boot marker, and after it. */
  body: string;
  tail: string;
}

const HEAD_END = '</head>';
const TITLE_ELEMENT = /<title>[^<]*<\/title>/;
const DESCRIPTION_ELEMENT = /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/;
const ENTRY_ELEMENT = /<script type="module" [^>]*><\/script>/;

function renderedTemplate(app: string): RenderedTemplate | null {
  const headEnd = app.indexOf(HEAD_END);
  const marker = app.lastIndexOf(BOOT_MARKER);
  if (headEnd < 0 || marker < headEnd) return null;
  let start = app.slice(0, headEnd);
  let documentHead = '';
  let entry = '';
  for (const element of [TITLE_ELEMENT, DESCRIPTION_ELEMENT]) {
    const found = element.exec(start)?.[0];
    if (found === undefined) continue;
    documentHead += found;
    start = start.replace(found, '');
  }
  const entryElement = ENTRY_ELEMENT.exec(start)?.[0];
  if (entryElement !== undefined) {
    entry = entryElement;
    start = start.replace(entryElement, '');
  }
  return {
    start: start + `<script>${EARLY_INPUT_SCRIPT}</script>`,
    documentHead,
    entry,
    body: app.slice(headEnd, marker),
    tail: app.slice(marker + BOOT_MARKER.length),
  };
}

function loadPages(webDist: string, publicOrigin: string): SpaPages {
  // Share-card meta tags need absolute URLs, so the pages carry the configured public origin (read once;
  // the build does not change under a process).
  const read = (file: string) =>
    readFileSync(path.join(webDist, file), 'utf8').replaceAll('__PUBLIC_ORIGIN__', publicOrigin);
  const logins = new Map<Locale, string>();
  for (const locale of SUPPORTED_LOCALES) {
    const file = loginPageFile(locale);
    if (existsSync(path.join(webDist, file))) logins.set(locale, read(file));
  }
  const preloadsFile = path.join(webDist, 'route-preloads.json');
  const app = read('index.html');
  return {
    app,
    rendered: renderedTemplate(app),
    logins,
    preloads: existsSync(preloadsFile)
      ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as Record<string, string[]>)
      : {},
  };
}

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

/** JSON inside <script type="application/json">: `<` escaped so no value can close the element. */
export function bootScript(boot: AppBoot): string {
  const json = JSON.stringify(plainBoot(boot)).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${BOOT_ELEMENT_ID}">${json}</script>`;
}

const BOOT_OPEN = `<script type="application/json" id="${BOOT_ELEMENT_ID}">`;
const escapeJson = (json: string) => json.replace(/</g, '\\u003c');

/** A part of a page's boot element: text, or an API answer's own JSON bytes (encoded-json.ts). */
export type BootPart = string | EncodedJson;

/** The text of boot parts, joined. */
export function bootText(parts: readonly BootPart[]): string {
  return parts.map((part) => (typeof part === 'string' ? part : part.escapedText)).join('');
}

/**
 * bootScript(boot) in parts whose concatenation is exactly it (bootText): each query's data (an API
 * answer, often the same for many members: page-gzip.ts compresses such a part once for all of them)
 * apart from the rest; data the route holds as JSON bytes (EncodedJson) is the part as it is.
 */
export function bootScriptParts(boot: AppBoot): BootPart[] {
  const queries = boot.queries;
  // JSON.stringify answers undefined for undefined (typed string): such a boot is serialised whole.
  const datas: (string | EncodedJson | undefined)[] =
    queries?.map((q) => (q.data instanceof EncodedJson ? q.data : JSON.stringify(q.data))) ?? [];
  if (!queries || datas.length === 0 || datas.some((d) => d === undefined)) return [bootScript(boot)];
  // The same object with each data replaced by its index: the data's place is after `,"data":` in
  // `{"key":…,"data":i}`, searched from the queries' array on (the keys before are the app's own arrays).
  const skeleton = JSON.stringify({ ...boot, queries: queries.map((q, i) => ({ key: q.key, data: i })) });
  const parts: BootPart[] = [];
  let from = 0;
  let at = skeleton.indexOf('"queries":[');
  for (let i = 0; i < datas.length; i++) {
    const marker = `,"data":${i}}`;
    at = skeleton.indexOf(marker, at);
    if (at < 0) return [bootScript(boot)];
    const data = datas[i]!;
    parts.push(escapeJson(skeleton.slice(from, at + 8)), typeof data === 'string' ? escapeJson(data) : data);
    from = at + marker.length - 1;
    at = from;
  }
  parts.push(escapeJson(skeleton.slice(from)) + '</script>');
  parts[0] = BOOT_OPEN + (parts[0] as string);
  return parts;
}

async function sessionUser(ctx: AppContext, req: Request): Promise<AppBoot['user']> {
  const userId = req.user?.id;
  if (!userId) return null;
  try {
    return toApiUser(await getUserById(ctx.store, userId), ctx.config.discord.cdnUrl);
  } catch (err) {
    // The app asks /api/auth/user itself when the page carries no user.
    ctx.logger.warn('boot user not inlined', { userId, err: errorMessage(err) });
    return null;
  }
}

async function firstData(ctx: AppContext, userId: string, pathname: string): Promise<BootQuery[]> {
  try {
    return await pageQueries(ctx, userId, pathname);
  } catch (err) {
    // The page asks the API itself.
    ctx.logger.warn('page data not inlined', { userId, pathname, err: errorMessage(err) });
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
/** index.html's language, replaced by the page's (web/index.html). */
const HTML_LANG = '<html lang="en"';
/** The entry's script tag as Vite writes it into index.html. */
const ENTRY_SCRIPT = '<script type="module" ';

/** The static shell: index.html with the page's boot data and route chunks, no markup. */
function pageHtml(pages: SpaPages, pathname: string, boot: AppBoot): string {
  const [head, tail] = pageAround(pages, pathname, boot);
  return head + bootScript(boot) + tail;
}

/** The page's language: the member's, else the visitor's (decision 061). */
function localeOf(boot: AppBoot): string {
  return boot.user?.locale ?? boot.locale ?? DEFAULT_LOCALE;
}

/** `<link rel="modulepreload">` for the route's chunks, with a priority attribute ('' or fetchpriority). */
function routeLinks(pages: SpaPages, pathname: string, priority: string): string {
  return (pages.preloads[pathname] ?? [])
    .map((file) => `<link rel="modulepreload"${priority} crossorigin href="${file}">`)
    .join('');
}

/** The static shell before and after its boot data (the data's element goes between). */
function pageAround(pages: SpaPages, pathname: string, boot: AppBoot): [string, string] {
  // The route's chunks download beside the entry (the app renders the page at once, main.tsx).
  const html = pages.app
    .replace(HTML_LANG, () => `<html lang="${localeOf(boot)}"`)
    .replace('</head>', () => `${routeLinks(pages, pathname, '')}</head>`);
  // index.html's marker follows the root element: the last one is index.html's own.
  const at = html.lastIndexOf(BOOT_MARKER);
  return at < 0 ? [html, ''] : [html.slice(0, at), html.slice(at + BOOT_MARKER.length)];
}

/** A rendered page's start (RenderedTemplate): what is sent before the render ends. */
function renderedStart(template: RenderedTemplate, locale: string): string {
  return template.start.replace(HTML_LANG, () => `<html lang="${locale}"`);
}

/**
 * A rendered page after its start, before and after its boot data; with no rendering (the render failed
 * or took too long after the start was sent), the static shell's: the site's title, the scripts at their
 * usual priority, an empty root, and the browser renders the page from the same data.
 */
function renderedRest(
  pages: SpaPages,
  template: RenderedTemplate,
  pathname: string,
  rendered: RenderedPage | null,
): [string, string] {
  // When the page is already in the HTML, the scripts only hydrate it: they load at low priority, so the
  // fonts and images of the visible page come first on a slow connection (decision 031).
  const priority = rendered ? ' fetchpriority="low"' : '';
  const lowered = (html: string) =>
    rendered ? html.replace(ENTRY_SCRIPT, `<script type="module"${priority} `) : html;
  const documentHead = rendered
    ? withDocumentHead(template.documentHead, rendered.document ?? {})
    : template.documentHead;
  const head =
    documentHead +
    lowered(template.entry) +
    routeLinks(pages, pathname, priority) +
    (rendered?.head ?? '') +
    template.body.replace(EMPTY_ROOT, () => `<div id="root">${rendered?.html ?? ''}</div>`);
  return [head, template.entry ? template.tail : lowered(template.tail)];
}

/** Accept-Encoding values seen (a browser sends one of a handful), and whether they take gzip. */
const gzipTaken = new Map<string, boolean>();
const GZIP_ANSWERS_KEPT = 64;

/**
 * `req.acceptsEncodings('gzip')`, remembered per Accept-Encoding value: the negotiation (the `accepts`
 * module parses the header each time) was ~2 % of a cached page load's CPU, asked twice per load; the
 * answer depends on the header's value alone (session 17). Bounded: a client sending ever-new values
 * empties the map, never grows it.
 */
export function takesGzip(req: Request): boolean {
  const header = req.headers['accept-encoding'] ?? '';
  let taken = gzipTaken.get(header);
  if (taken === undefined) {
    taken = Boolean(req.acceptsEncodings('gzip'));
    if (gzipTaken.size >= GZIP_ANSWERS_KEPT) gzipTaken.clear();
    gzipTaken.set(header, taken);
  }
  return taken;
}

/** A page for the request: rendered (now or before: from the cache), or null for the static shell. */
interface Served {
  page: CachedPage | null;
  from: 'rendered' | 'cache';
}
const NOT_RENDERED: Served = { page: null, from: 'rendered' };
const gunzip = promisify(zlib.gunzip);

/**
 * A cached page, compressed as stored for a browser that takes gzip (every browser), else inflated. Its
 * ETag is the page's data key with the build's (`build`): the same build and data are the same page, so
 * Express need not hash the page's bytes per load to make one (session 16).
 */
async function sendCachedPage(req: Request, res: Response, page: CachedPage, build: string): Promise<void> {
  res.status(page.status).type('html');
  res.vary('Accept-Encoding');
  res.setHeader('ETag', pageEtag(build, page.dataKey));
  if (takesGzip(req)) {
    // The compression middleware leaves a body that is already encoded alone.
    res.setHeader('Content-Encoding', 'gzip');
    res.send(page.gzip);
  } else res.send(await gunzip(page.gzip));
}

/** The build a page comes from: index.html names the entry and route-preloads.json every route's chunks. */
function buildOf(pages: SpaPages): string {
  return createHash('sha1')
    .update(pages.app)
    .update(JSON.stringify(pages.preloads))
    .digest('base64url')
    .slice(0, 12);
}

/** A rendered page's ETag: its build's and its data's (the same build and data are the same page). */
function pageEtag(build: string, dataKey: string): string {
  return `W/"${build}.${dataKey}"`;
}

/** A rendered page's start for one request: its text's gzip (shared by every load of a known route). */
type StartOf = () => Promise<GzipStart>;

/**
 * Rendered pages for requests (decision 047): from the cache when the page's render inputs are unchanged
 * (with this load's data swapped in when only what the markup does not show changed), else rendered now
 * (one render for simultaneous loads of the same page); a null page when the renderer is too busy.
 * `onWait` is called with the page's data key when the load is about to wait for a render (its own or
 * another load's of the same page): the caller streams the page's start meanwhile. Every page kept begins with `startOf()`'s bytes.
 */
function cachedRenders(
  ctx: AppContext,
  pages: SpaPages,
  template: RenderedTemplate,
  renderer: PageRenderer,
): (
  req: Request,
  boot: AppBoot,
  status: number,
  startOf: StartOf,
  onWait?: (dataKey: string) => void,
) => Promise<Served> {
  const cache = createPageCache(ctx.config.pages.cacheBytes);
  watchPageCacheBytes(() => cache.bytes);
  const inFlight = new Map<string, Promise<Served>>();
  /**
   * The page for this load's data from a page rendered from the same render inputs (its key) but
   * inlining other data (Discover's counts changed since): the same markup with this load's data, kept.
   */
  const withThisData = async (
    key: string,
    page: CachedPage,
    boot: readonly BootPart[],
    dataKey: string,
  ): Promise<CachedPage | null> => {
    if (page.dataKey === dataKey) return page;
    if (!page.slot) return null;
    const fresh: CachedPage = {
      gzip: await withData(page.gzip, page.slot, boot),
      status: page.status,
      dataKey,
      slot: page.slot,
    };
    cache.set(key, fresh);
    return fresh;
  };
  /** The rendered page from the cache, or rendered now (one render for simultaneous loads), or null. */
  return async (req, boot, status, startOf, onWait) => {
    const withFlag: AppBoot = { ...boot, rendered: true };
    // The page's boot element, in parts (its data apart), serialised once for the keys and the page.
    const inlined = bootScriptParts(withFlag);
    // The page's render inputs (what its markup shows) and its data (what it inlines): the same, except
    // Discover's live figures, which its markup leaves to the browser (page-cache.ts).
    const { render: key, data: dataKey } = pageKeysOf(req.originalUrl, inlined);
    const cached = cache.get(key);
    const reused = cached && (await withThisData(key, cached, inlined, dataKey));
    if (reused) return { page: reused, from: 'cache' };
    let rendering = inFlight.get(key);
    if (!rendering) {
      // Refused at once: the static shell, whole (nothing is streamed for it).
      if (renderer.busy) return NOT_RENDERED;
      const keep = async (page: RenderedPage) => {
        const [head, tail] = renderedRest(pages, template, req.path, page);
        const { gzip: compressed, slot } = await gzipSplit(head, inlined, tail, await startOf());
        const kept: CachedPage = { gzip: compressed, status, dataKey, slot };
        cache.set(key, kept);
        return kept;
      };
      const started = renderer
        .render(req.originalUrl, plainBoot(withFlag), (late) => {
          keep(late).catch((err: unknown) =>
            ctx.logger.warn('rendered page not kept', { err: errorMessage(err) }),
          );
        })
        .then(async (page): Promise<Served> => ({ page: page ? await keep(page) : null, from: 'rendered' }))
        .finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      rendering = started;
    }
    onWait?.(dataKey);
    // A load that joined another's render of the same markup inlines its own data.
    const served = await rendering;
    return served.page ? { ...served, page: await withThisData(key, served.page, inlined, dataKey) } : served;
  };
}

/** A rendered page's compressed start, kept under `key` (a known route and language) when given. */
function startFor(
  starts: Map<string, Promise<GzipStart>>,
  key: string | null,
  template: RenderedTemplate,
  locale: string,
): Promise<GzipStart> {
  let start = key === null ? undefined : starts.get(key);
  if (!start) {
    start = gzipStart(renderedStart(template, locale));
    if (key !== null) {
      starts.set(key, start);
      // A failed compression is not kept: the next load of the route tries again.
      start.catch(() => starts.delete(key));
    }
  }
  return start;
}

/**
 * A rendered page streamed (session 16): its start (the head of everything known before the render) is
 * written as soon as the load waits for a render, the rest when the render answers. One gzip member: the
 * start's bytes are the kept page's first bytes, so the rest is the kept page after them. Without a
 * rendering (failed, too slow, the worker gone) the rest is the static shell's (renderedRest), a whole
 * page the browser renders from the same data.
 */
function pageStream(res: Response, status: number, startOf: StartOf, build: string) {
  let sent: Promise<GzipStart> | null = null;
  return {
    get started() {
      return sent !== null;
    },
    /**
     * With the page's ETag as a cached load of it would have it (its build and data key), so the browser's
     * next load of unchanged data is a 304. A render that fails after this ends as the static shell around
     * the same data: the same page to the member once the app has booted.
     */
    begin: (dataKey: string) => {
      res.status(status).type('html').vary('Accept-Encoding');
      res.setHeader('ETag', pageEtag(build, dataKey));
      // The compression middleware leaves a body that is already encoded alone.
      res.setHeader('Content-Encoding', 'gzip');
      sent = startOf().then((start) => {
        res.write(start.bytes);
        return start;
      });
    },
    /** The rest of the page: `gzip` when it begins with the start sent, else `shell`'s. */
    async finish(gzip: Buffer | null, shell: (start: GzipStart) => Promise<Buffer>): Promise<void> {
      const start = await sent!;
      const fits = gzip !== null && gzip.subarray(0, start.bytes.length).equals(start.bytes);
      const whole = fits ? gzip : await shell(start);
      res.end(whole.subarray(start.bytes.length));
    },
  };
}

/**
 * The SPA's HTML for every other GET, after the session middleware. Signed out on an app path: the
 * prerendered login page in the visitor's language (its own few hundred bytes of script, no app bundle). Otherwise index.html with
 * this request's own user inlined (the answer /api/auth/user would give) and, signed in, the page's first
 * data. With a server renderer (`ssrDist`, decision 031) the page itself is rendered into the HTML from
 * that same data, on the renderer's own thread and once per (URL, data): a page whose inputs have not
 * changed since it was last rendered comes from the page cache, and a page the renderer is too busy for
 * gets the static shell (decision 047).
 */
export function spaPages(
  ctx: AppContext,
  webDist: string,
  config: PublicConfig,
  ssrDist?: string,
): RequestHandler & { routes: string[] } {
  const pages = loadPages(webDist, ctx.config.publicUrl.replace(/\/$/, ''));
  const renderer = startPageRenderer(ctx.logger, ssrDist, ctx.config.pages.rendererNice);
  const template = pages.rendered;
  const renderPage = renderer && template ? cachedRenders(ctx, pages, template, renderer) : null;
  const english = pages.logins.get(DEFAULT_LOCALE);
  const build = buildOf(pages);
  /** The static shell around its data per known route and language, compressed (see below). */
  const shells = new Map<string, Promise<SplitGzip>>();
  /** A rendered page's compressed start per known route and language (bounded by the route table). */
  const starts = new Map<string, Promise<GzipStart>>();
  const handler: RequestHandler = async (req, res) => {
    const user = await sessionUser(ctx, req);
    // Signed out, the page is in the visitor's language (decision 061): the remembered cookie, else
    // Accept-Language. Signed in, the member's; the cookie follows it, so the login page after signing
    // out speaks the same language.
    res.setHeader('Vary', user ? 'Cookie' : 'Cookie, Accept-Language');
    const locale = user ? user.locale : visitorLocale(req.headers);
    if (user && cookieLocale(req.headers.cookie) !== user.locale)
      res.cookie(LOCALE_COOKIE, user.locale, localeCookieOptions(ctx.config.production));
    if (!user && english && !BARE_PATHS.has(req.path)) {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(pages.logins.get(locale) ?? english);
      return;
    }
    // Per-user HTML: no shared cache may keep it (private), and the browser asks again every time
    // (no-cache: the server answers for the session it sees then). Not no-store, which would keep the page
    // out of the back/forward cache.
    res.setHeader('Cache-Control', user ? 'private, no-cache' : 'no-cache');
    // A path that is none of the app's routes gets the app's 404 page with an HTTP 404 (the route table is
    // the build's route-preloads.json, one key per route).
    const status = user && !isKnownRoute(pages.preloads, req.path) ? 404 : 200;
    const boot: AppBoot = user ? { user, config } : { user, config, locale };
    if (user) boot.queries = await firstData(ctx, user.id, req.path);
    // Known routes (status 200) keep their start, as the shell's parts below: bounded by the route table.
    const known = status === 200 && Object.hasOwn(pages.preloads, req.path);
    const shellKey = `${req.path}\n${localeOf(boot)}`;
    const startOf: StartOf = () => startFor(starts, known ? shellKey : null, template!, localeOf(boot));
    // A browser (every one takes gzip) gets the page's start while the renderer works (session 16).
    const stream = takesGzip(req) ? pageStream(res, status, startOf, build) : null;
    let served = NOT_RENDERED;
    try {
      if (renderPage) served = await renderPage(req, boot, status, startOf, stream?.begin);
    } catch (err) {
      // Before the start was sent this is the request's error as before; after, the page ends as the shell.
      if (!stream?.started) throw err;
      ctx.logger.error('page not rendered on the server', { path: req.path, err: errorMessage(err) });
    }
    const { page, from } = served;
    if (stream?.started) {
      recordPageHtml(page ? from : 'shell');
      try {
        await stream.finish(page?.gzip ?? null, async (start) => {
          const [head, tail] = renderedRest(pages, template!, req.path, null);
          return (await gzipSplit(head, bootScriptParts(boot), tail, start)).gzip;
        });
      } catch (err) {
        // The head is out: nothing else can be said in this response. The browser shows what came.
        ctx.logger.error('streamed page not finished', { path: req.path, err: errorMessage(err) });
        res.destroy();
      }
      return;
    }
    if (page) {
      recordPageHtml(from);
      await sendCachedPage(req, res, page, build);
      return;
    }
    recordPageHtml('shell');
    // The shell is what the server sends when it is busy. Compressed in parts (session 15): index.html
    // around the data is compressed once per route and language (kept; known routes only, so the map
    // is bounded by the route table), the data's large parts once for every page that inlines them
    // (page-gzip.ts), so a shell costs little more than its own small data.
    res.status(status).type('html').vary('Accept-Encoding');
    if (!takesGzip(req)) {
      res.send(pageHtml(pages, req.path, boot));
      return;
    }
    let around = known ? shells.get(shellKey) : undefined;
    if (!around) {
      const [head, tail] = pageAround(pages, req.path, boot);
      around = gzipSplit(head, '', tail);
      if (known) shells.set(shellKey, around);
    }
    const { gzip: empty, slot } = await around;
    res.setHeader('Content-Encoding', 'gzip');
    res.send(await withData(empty, slot, bootScriptParts(boot)));
  };
  // The route table's paths: the signed-in fast path serves exactly these (src/app.ts).
  return Object.assign(handler, { routes: Object.keys(pages.preloads) });
}
