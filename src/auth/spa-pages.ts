import type { Request, RequestHandler } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppBoot, PublicConfig } from '../shared/api-types.ts';
import type { AppContext } from '../context.ts';
import { getUserById, toApiUser } from '../users/users.ts';

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

/**
 * The SPA's HTML for every other GET, after the session middleware. Signed out on an app path: the
 * prerendered login page (its own few hundred bytes of script, no app bundle). Otherwise index.html with
 * this request's own user inlined (the answer /api/auth/user would give), so the app renders the signed-in
 * page without waiting for a round trip.
 */
export function spaPages(ctx: AppContext, webDist: string, config: PublicConfig): RequestHandler {
  const pages = loadPages(webDist, ctx.config.publicUrl.replace(/\/$/, ''));
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
    // The route's chunks download beside the entry (the app renders the page at once, main.tsx).
    const links = (pages.preloads[req.path] ?? [])
      .map((file) => `<link rel="modulepreload" crossorigin href="${file}">`)
      .join('');
    res
      .type('html')
      .send(
        pages.app
          .replace('</head>', () => `${links}</head>`)
          .replace(BOOT_MARKER, () => bootScript({ user, config })),
      );
  };
}
