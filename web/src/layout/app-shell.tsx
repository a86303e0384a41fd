import { Box, Container, Flex } from '@chakra-ui/react';
import type { ApiUser } from '@shared/api-types.ts';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import { NavTabs } from './nav-tabs.tsx';
import { RouteLoading } from './page-loader.tsx';
import { usePaymentReturn } from '../features/payments/use-payment-return.ts';
import { useNobotClaims } from '../features/discover/use-nobot-claims.ts';

/** Signed-in layout: header, nav tabs, the routed page and the footer. */
export function AppShell({ user }: { user: ApiUser }) {
  usePaymentReturn();
  // Spec §4: pending no-bot claims are retried on page load, whichever page that is.
  useNobotClaims(user.id);
  return (
    <Flex direction="column" minH="100dvh">
      <Box position="sticky" top="0" zIndex="sticky">
        <AppHeader user={user} />
        <NavTabs />
      </Box>
      <Container as="main" maxW="7xl" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }} flex="1">
        <Suspense fallback={<RouteLoading />}>
          <Outlet />
        </Suspense>
      </Container>
      <AppFooter />
    </Flex>
  );
}
