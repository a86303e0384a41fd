import { Suspense } from 'react';
import { RouteErrorBoundary } from './components/route-error-boundary.tsx';
import { FullPageLoading } from './layout/page-loader.tsx';
import { lazyPage, loadChunk } from './lib/lazy-page.ts';
import { useAuth } from './lib/use-auth.ts';
import LoginPage from './pages/login-page.tsx';
import { findRoute } from './routes.ts';

// The router, the signed-in shell and the pages load on demand, so the login bundle carries no router,
// shell, feature or Stripe code. Loading the router also starts the current route's page: both
// download in parallel instead of the page waiting for the router to render.
const RoutedApp = lazyPage(() => {
  // A failure here surfaces when the route's own lazyPage loads the module (reload once, then the boundary).
  findRoute(window.location.pathname)
    ?.load()
    .catch(() => undefined);
  return loadChunk(() => import('./routed-app.tsx'));
});

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
