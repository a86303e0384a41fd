import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { FullPageLoading } from './layout/page-loader.tsx';
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
};

const DiscoverPage = lazy(pageLoaders['/']);
const FeaturedPage = lazy(pageLoaders['/featured']);
const SocialsPage = lazy(pageLoaders['/socials']);
const RewardsPage = lazy(pageLoaders['/daily']);
const BuyCoinsPage = lazy(pageLoaders['/buy-coins']);
const CheckoutPage = lazy(pageLoaders['/checkout']);
const DashboardPage = lazy(pageLoaders['/dashboard']);
const SubmitPage = lazy(pageLoaders['/submit']);
const CampaignsPage = lazy(pageLoaders['/campaigns']);
const NotFoundPage = lazy(() => import('./pages/not-found-page.tsx'));
const TermsPage = lazy(() => import('./pages/terms-page.tsx'));
const PrivacyPage = lazy(() => import('./pages/privacy-page.tsx'));

// The shell and the first page download in parallel: loading the shell also starts the current
// route's page, instead of waiting for the shell to render its <Outlet />.
const AppShell = lazy(() => {
  const path = window.location.pathname as keyof typeof pageLoaders;
  if (Object.hasOwn(pageLoaders, path)) void pageLoaders[path]();
  return import('./layout/app-shell.tsx').then((m) => ({ default: m.AppShell }));
});

export function App() {
  const { user, isLoading } = useAuth();

  if (isLoading) return <FullPageLoading />;

  return (
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
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        ) : (
          <Route path="*" element={<LoginPage />} />
        )}
      </Routes>
    </Suspense>
  );
}
