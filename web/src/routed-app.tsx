import type { ApiUser } from '@shared/api-types.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, StaticRouter, useLocation } from 'react-router';
import { AppShell } from './app-shell.tsx';
import { startEarlyData } from './early-data.ts';
import { lazyPage } from './lib/lazy-page.ts';
import { PageHydratedMark } from './lib/page-hydrated.ts';
import LoginPage from './pages/login-page.tsx';
import { loadNotFoundPage, ROUTES } from './routes.ts';

// One lazily loaded component per row of the route table (each page is its own chunk).
const pages = ROUTES.map((route) => ({ route, Page: lazyPage(route.load) }));
const NotFoundPage = lazyPage(loadNotFoundPage);

/**
 * The router and every page, built from the route table. Loaded on demand: a signed-out visitor on an
 * app path gets the login page from the entry bundle alone, without the router.
 */
export default function RoutedApp({
  user,
  serverUrl,
}: {
  user: ApiUser | null;
  serverUrl?: string | undefined;
}) {
  return (
    <Router serverUrl={serverUrl}>
      {user ? <PageDataPrefetch /> : null}
      <Routes>
        {/* Legal pages: shown to everyone, without the shell. */}
        {pages
          .filter(({ route }) => route.layout === 'bare')
          .map(({ route, Page }) => (
            <Route key={route.path} path={route.path} element={withMark(<Page />)} />
          ))}
        {user ? (
          <Route element={<AppShell user={user} />}>
            {pages
              .filter(({ route }) => route.layout === 'shell')
              .map(({ route, Page }) => (
                <Route key={route.path} path={route.path} element={withMark(<Page />)} />
              ))}
            <Route path="*" element={withMark(<NotFoundPage />)} />
          </Route>
        ) : (
          <Route path="*" element={withMark(<LoginPage />)} />
        )}
      </Routes>
    </Router>
  );
}

/**
 * Starts fetching a page's first data (src/shared/page-data.ts) as soon as a navigation reaches it, so
 * the data and the page's chunk download side by side. The first page needs nothing here: its data came
 * with the HTML (or main.tsx asked for it at boot).
 */
function PageDataPrefetch(): null {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void startEarlyData(queryClient, pathname);
  }, [pathname, queryClient]);
  return null;
}

/** A routed page with the mark whose effect runs once the page has hydrated (lib/page-hydrated.ts). */
function withMark(page: ReactNode) {
  return (
    <>
      {page}
      <PageHydratedMark />
    </>
  );
}

/** The browser's history, or on the server (web/src/entry-server.tsx) the requested URL. */
function Router({ serverUrl, children }: { serverUrl: string | undefined; children: ReactNode }) {
  return serverUrl === undefined ? (
    <BrowserRouter>{children}</BrowserRouter>
  ) : (
    <StaticRouter location={serverUrl}>{children}</StaticRouter>
  );
}
