// The server's side of the signed-in page (decision 031): src/auth/spa-pages.ts renders the requested
// route to HTML with this module (built by `vite build --ssr` into dist/ssr), with the session's user, the
// public config and the page's first data, the same answers the API would give. The browser paints that
// HTML before any JavaScript has run, then main.tsx hydrates it from the same boot data.
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { AppBoot } from '@shared/api-types.ts';
import { renderToString } from 'react-dom/server';
import { App, preloadRoutedApp } from './app.tsx';
import { captureDocumentHead, type DocumentHead } from './lib/use-document-title.ts';
import { seedBoot } from './lib/boot.ts';
import { i18n, loadLocale } from './lib/i18n.ts';
import { createQueryClient } from './lib/query-client.ts';
import { Toaster } from './lib/toaster.tsx';
import { appSystem } from './theme.ts';

export interface ServerRender {
  /** The page's markup, the inside of <div id="root">. */
  html: string;
  /** Its styles, for the page's <head>: emotion's style elements, which the browser's emotion adopts. */
  head: string;
  /** The page's own title and description (useDocumentTitle), when it names them. */
  document: DocumentHead;
}

const STYLE_TAG = /<style data-emotion="([^"]+)"[^>]*>([\s\S]*?)<\/style>/g;

/**
 * Moves emotion's inline style elements (one before each element with new rules) out of the markup into
 * the head: global styles keep their own elements (emotion's Global finds them by name when it
 * hydrates), the rest become one element naming every rule it holds, the form emotion's cache adopts at
 * start (web/src/main.tsx). `data-s` tells emotion they are in place already: it moves nothing.
 */
function extractStyles(markup: string): Omit<ServerRender, 'document'> {
  const globals: string[] = [];
  const ids: string[] = [];
  const rules: string[] = [];
  const html = markup.replace(STYLE_TAG, (_tag, names: string, css: string) => {
    if (names.startsWith('css-global '))
      globals.push(`<style data-emotion="${names}" data-s="">${css}</style>`);
    else {
      ids.push(...names.split(' ').slice(1));
      rules.push(css);
    }
    return '';
  });
  const head =
    globals.join('') +
    (ids.length ? `<style data-emotion="css ${ids.join(' ')}" data-s="">${rules.join('')}</style>` : '');
  return { html, head };
}

/** Renders the app at `url` (path and query) for the boot data's user. */
export async function renderApp(url: string, boot: AppBoot): Promise<ServerRender> {
  // The router and the page's chunk are loaded first: lazyPage then renders them in this pass.
  // (Tooltips render their plain child until hydrated: web/src/components/tooltip.tsx.)
  await preloadRoutedApp(url.replace(/[?#].*$/, ''));
  // The member's language (decision 050): loaded first, then switched to with no await before the
  // synchronous render below, so pages rendering at once for other members cannot interleave.
  const locale = boot.user?.locale ?? boot.locale ?? 'en';
  await loadLocale(locale);
  void i18n.changeLanguage(locale);
  const queryClient = createQueryClient();
  seedBoot(queryClient, boot);
  // One style cache per page: each emotion rule is written once, before the first element using it.
  const cache = createCache({ key: 'css' });
  const { result: html, head } = captureDocumentHead(() =>
    renderToString(
      <CacheProvider value={cache}>
        <ChakraProvider value={appSystem}>
          <QueryClientProvider client={queryClient}>
            <App serverUrl={url} />
            <Toaster />
          </QueryClientProvider>
        </ChakraProvider>
      </CacheProvider>,
    ),
  );
  queryClient.clear();
  // A part that suspended (a lazy module not loaded above) comes out as its fallback, marked for the
  // browser to render, which it reports as an error: better the page the browser renders whole.
  if (html.includes('<!--$!-->')) throw new Error(`part of ${url} suspended while rendering on the server`);
  return { ...extractStyles(html), document: head };
}
