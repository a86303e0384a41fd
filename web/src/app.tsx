import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { AppShell } from './layout/app-shell.tsx';
import { FullPageLoading } from './layout/page-loader.tsx';
import { useAuth } from './lib/use-auth.ts';
import LoginPage from './pages/login-page.tsx';
import NotFoundPage from './pages/not-found-page.tsx';

// Feature and legal pages load on demand, so the login bundle carries no feature or Stripe code.
// Each page module default-exports its component.
const DiscoverPage = lazy(() => import('./pages/discover-page.tsx'));
const FeaturedPage = lazy(() => import('./pages/featured-page.tsx'));
const SocialsPage = lazy(() => import('./pages/socials-page.tsx'));
const RewardsPage = lazy(() => import('./pages/rewards-page.tsx'));
const BuyCoinsPage = lazy(() => import('./pages/buy-coins-page.tsx'));
const CheckoutPage = lazy(() => import('./pages/checkout-page.tsx'));
const DashboardPage = lazy(() => import('./pages/dashboard-page.tsx'));
const SubmitPage = lazy(() => import('./pages/submit-page.tsx'));
const CampaignsPage = lazy(() => import('./pages/campaigns-page.tsx'));
const TermsPage = lazy(() => import('./pages/terms-page.tsx'));
const PrivacyPage = lazy(() => import('./pages/privacy-page.tsx'));

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
