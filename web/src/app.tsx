import { Suspense } from 'react';
import { RouteErrorBoundary } from './components/route-error-boundary.tsx';
import { FullPageLoading } from './layout/page-loader.tsx';
import { lazyPage, preloadPage } from './lib/lazy-page.ts';
import { useAuth } from './lib/use-auth.ts';
import LoginPage from './pages/login-page.tsx';
import { findRoute } from './routes.ts';

// The router, the signed-in shell and the pages load on demand, so the entry carries no router, shell,
// feature or Stripe code.
const loadRoutedAppModule = () => import('./routed-app.tsx');
const RoutedApp = lazyPage(loadRoutedAppModule);

/**
 * Loads the router and the current route's page now (main.tsx, at boot, signed in): both download in
 * parallel, and the first render shows the page instead of a loading state. A failure surfaces when the
 * page renders (reload once, then the boundary).
 */
export function preloadRoutedApp(): Promise<unknown> {
  const route = findRoute(window.location.pathname);
  return Promise.all([preloadPage(loadRoutedAppModule), route ? preloadPage(route.load) : null]);
}

export function App() {
  const { user, isLoading } = useAuth();

  if (isLoading) return <FullPageLoading />;

  return (
    <RouteErrorBoundary>
      {/* Signed out on any path but the legal pages: the login page, straight from the entry bundle. */}
      {!user && findRoute(window.location.pathname)?.layout !== 'bare' ? (
        <LoginPage />
      ) : (
        <Suspense fallback={<FullPageLoading />}>
          <RoutedApp user={user} />
        </Suspense>
      )}
    </RouteErrorBoundary>
  );
}
