import { Suspense } from 'react';
import { RouteErrorBoundary } from './components/route-error-boundary.tsx';
import { FullPageLoading } from './layout/page-loader.tsx';
import { lazyPage, preloadPage } from './lib/lazy-page.ts';
import { PageHydratedMark } from './lib/page-hydrated.ts';
import { useAuth } from './lib/use-auth.ts';
import LoginPage from './pages/login-page.tsx';
import { findRoute, loadNotFoundPage } from './routes.ts';

// The router, the signed-in shell and the pages load on demand, so the entry carries no router, shell,
// feature or Stripe code.
export const loadRoutedAppModule = () => import('./routed-app.tsx');
const RoutedApp = lazyPage(loadRoutedAppModule);

/**
 * Loads the router and the current route's page now (main.tsx, at boot, signed in): both download in
 * parallel, and the first render shows the page instead of a loading state. A failure surfaces when the
 * page renders (reload once, then the boundary).
 */
export function preloadRoutedApp(pathname: string = window.location.pathname): Promise<unknown> {
  const route = findRoute(pathname);
  return Promise.all([preloadPage(loadRoutedAppModule), preloadPage(route ? route.load : loadNotFoundPage)]);
}

/**
 * `serverUrl`: the request's path and query when the server renders the page (web/src/entry-server.tsx);
 * the browser reads its own location.
 */
export function App({ serverUrl }: { serverUrl?: string } = {}) {
  const { user, isLoading } = useAuth();
  const pathname = serverUrl === undefined ? window.location.pathname : serverUrl.replace(/[?#].*$/, '');

  if (isLoading) return <FullPageLoading />;

  return (
    <RouteErrorBoundary>
      {/* Signed out on any path but the legal pages: the login page, straight from the entry bundle. */}
      {!user && findRoute(pathname)?.layout !== 'bare' ? (
        <>
          <LoginPage />
          <PageHydratedMark />
        </>
      ) : (
        <Suspense fallback={<FullPageLoading />}>
          <RoutedApp user={user} serverUrl={serverUrl} />
        </Suspense>
      )}
    </RouteErrorBoundary>
  );
}
