import { Box, Container, Flex } from '@chakra-ui/react';
import type { ApiUser } from '@shared/api-types.ts';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { RouteErrorBoundary } from './components/route-error-boundary.tsx';
import { SkipLink } from './components/skip-link.tsx';
import { clearSessionEnded } from './lib/session-ended.ts';
import { AppFooter } from './layout/app-footer.tsx';
import { AppHeader } from './layout/app-header.tsx';
import { BOTTOM_BAR_HEIGHT, BottomBar } from './layout/bottom-bar.tsx';
import { NavTabs } from './layout/nav-tabs.tsx';
import { RouteLoading } from './layout/page-loader.tsx';
import { useFocusHeadingOnNavigate } from './layout/use-focus-on-navigate.ts';
import { usePaymentReturn } from './features/payments/use-payment-return.ts';
import { useResumeDelayedClaims } from './claims.ts';
import { useLiveEvents } from './features/live/use-live-events.ts';
import { useCheckJoinsOnReturn } from './features/joins/check-on-return.ts';

const MAIN_ID = 'main-content';

/** The signed-in composition root (beside app.tsx, not in layout/, because it mounts app-wide feature effects). Layout: skip link, header, nav, the routed page (inside its own error boundary) and the footer. */
export function AppShell({ user }: { user: ApiUser }) {
  const { pathname } = useLocation();
  usePaymentReturn();
  // Product spec (docs/spec/product-spec.md) §4: pending no-bot and social claims are retried on page load and fire on whichever page is open.
  useResumeDelayedClaims(user.id);
  // Issue 12 item 7: balance and toasts pushed by the server (Server-Sent Events), no polling.
  useLiveEvents(user.id);
  // Issue 26: back from an invite → the pending joins are looked up now (no intent needed).
  useCheckJoinsOnReturn();
  useFocusHeadingOnNavigate(MAIN_ID);
  useEffect(clearSessionEnded, []);
  return (
    <Flex direction="column" minH="100dvh" pb={{ base: BOTTOM_BAR_HEIGHT, md: '0' }}>
      <SkipLink targetId={MAIN_ID} />
      <Box position="sticky" top="0" zIndex="sticky">
        <AppHeader user={user} />
        <NavTabs />
      </Box>
      <Container
        as="main"
        id={MAIN_ID}
        tabIndex={-1}
        outline="none"
        maxW="7xl"
        px={{ base: '4', md: '6' }}
        py={{ base: '6', md: '10' }}
        flex="1"
        // The main area is at least a screen tall, so the footer always starts below the fold: content that
        // arrives (a page chunk, then its data) pushes nothing visible around (CLS, issue 14).
        minH="100dvh"
      >
        <RouteErrorBoundary key={pathname}>
          <Suspense fallback={<RouteLoading />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </Container>
      <AppFooter />
      <BottomBar />
    </Flex>
  );
}
