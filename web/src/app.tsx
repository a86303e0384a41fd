import { Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { RouteErrorBoundary } from './components/route-error-boundary.tsx';
import { FullPageLoading } from './layout/page-loader.tsx';
import { lazyPage, loadChunk } from './lib/lazy-page.ts';
import { useAuth } from './lib/use-auth.ts';
import LoginPage from './pages/login-page.tsx';

// The signed-in shell, feature and legal pages load on demand, so the login bundle carries no shell,
// feature or Stripe code. Each page module default-exports its component.
const pageLoaders = {
  '/': () => import('./pages/discover-page.tsx'),
  '/featured': () => import('./pages/featured-page.tsx'),
  '/socials': () => import('./pages/socials-page.tsx'),
  '/daily': () => import('./pages/rewards-page.tsx'),
  '/buy-coins': () => import('./pages/buy-coins-page.tsx'),
  '/checkout': () => import('./pages/checkout-page.tsx'),
  '/dashboard': () => import('./pages/dashboard-page.tsx'),
  '/submit': () => import('./pages/submit-page.tsx'),
  '/campaigns': () => import('./pages/campaigns-page.tsx'),
  '/history': () => import('./pages/history-page.tsx'),
  '/account': () => import('./pages/account-page.tsx'),
  '/joins': () => import('./pages/my-joins-page.tsx'),
};

const DiscoverPage = lazyPage(pageLoaders['/']);
const FeaturedPage = lazyPage(pageLoaders['/featured']);
const SocialsPage = lazyPage(pageLoaders['/socials']);
const RewardsPage = lazyPage(pageLoaders['/daily']);
const BuyCoinsPage = lazyPage(pageLoaders['/buy-coins']);
const CheckoutPage = lazyPage(pageLoaders['/checkout']);
const DashboardPage = lazyPage(pageLoaders['/dashboard']);
const SubmitPage = lazyPage(pageLoaders['/submit']);
const CampaignsPage = lazyPage(pageLoaders['/campaigns']);
const HistoryPage = lazyPage(pageLoaders['/history']);
const AccountPage = lazyPage(pageLoaders['/account']);
const MyJoinsPage = lazyPage(pageLoaders['/joins']);
const NotFoundPage = lazyPage(() => import('./pages/not-found-page.tsx'));
const TermsPage = lazyPage(() => import('./pages/terms-page.tsx'));
const PrivacyPage = lazyPage(() => import('./pages/privacy-page.tsx'));

// The shell and the first page download in parallel: loading the shell also starts the current
// route's page, instead of waiting for the shell to render its <Outlet />.
const AppShell = lazyPage(() => {
  const path = window.location.pathname as keyof typeof pageLoaders;
  // A failure here surfaces when the route's own lazyPage loads the module (reload once, then the boundary).
  if (Object.hasOwn(pageLoaders, path)) pageLoaders[path]().catch(() => undefined);
  return loadChunk(() => import('./app-shell.tsx')).then((m) => ({ default: m.AppShell }));
});

export function App() {
  const { user, isLoading } = useAuth();

  if (isLoading) return <FullPageLoading />;

  return (
    <RouteErrorBoundary>
      <Suspense fallback={<FullPageLoading />}>
        <Routes>
          {/* Legal pages: shown to everyone, without the shell. */}
          <Route path="/terms" element={<TermsPage />} />
          <Route path="/privacy" element={<PrivacyPage />} />
          {user ? (
            <Route element={<AppShell user={user} />}>
              <Route path="/" element={<DiscoverPage />} />
              <Route path="/featured" element={<FeaturedPage />} />
              <Route path="/socials" element={<SocialsPage />} />
              <Route path="/daily" element={<RewardsPage />} />
              <Route path="/buy-coins" element={<BuyCoinsPage />} />
              <Route path="/checkout" element={<CheckoutPage />} />
              <Route path="/dashboard" element={<DashboardPage />} />
              <Route path="/submit" element={<SubmitPage />} />
              <Route path="/campaigns" element={<CampaignsPage />} />
              <Route path="/history" element={<HistoryPage />} />
              <Route path="/account" element={<AccountPage />} />
              <Route path="/joins" element={<MyJoinsPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          ) : (
            <Route path="*" element={<LoginPage />} />
          )}
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
