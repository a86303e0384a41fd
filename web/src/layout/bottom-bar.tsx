import { Box, Grid, Icon, Link, Text, chakra } from '@chakra-ui/react';
import { lazy, Suspense, useRef, useState } from 'react';
import { LuMenu } from 'react-icons/lu';
import { Link as RouterLink, useLocation } from 'react-router';
import { BOTTOM_BAR_HEIGHT } from './bottom-bar-height.ts';
import { isActive, MORE_ITEMS, PHONE_BAR_ITEMS } from './nav-items.ts';
import { useTranslation } from 'react-i18next';

export { BOTTOM_BAR_HEIGHT };

const barItems = PHONE_BAR_ITEMS;
const moreItems = MORE_ITEMS;

// The "More" sheet is Chakra's Drawer (zag's dialog machine, focus trap, dismissable layer: about 10 kB
// gzip) that every signed-in page would otherwise load before it hydrates. Its own chunk, fetched when
// the pointer or focus reaches the button (issue 32 item 5).
const loadMoreSheet = () => import('./more-sheet.tsx');
const MoreSheet = lazy(() => loadMoreSheet().then((module) => ({ default: module.MoreSheet })));
const preloadMoreSheet = () => void loadMoreSheet().catch(() => undefined);

const barButton = {
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '1',
  h: 'full',
  minW: '0',
  textStyle: 'xs',
  fontWeight: 'medium',
  color: 'fg.muted',
  textDecoration: 'none',
  _hover: { color: 'fg', textDecoration: 'none' },
  _currentPage: { color: 'brand.fg' },
  focusVisibleRing: 'inside',
  focusRingColor: 'fg',
} as const;

/** Phone navigation: four most-used destinations plus "More" (a bottom sheet with every other page). */
export function BottomBar() {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // Mounted on the first open and kept: closing plays the sheet's exit animation.
  const [sheetMounted, setSheetMounted] = useState(false);
  const moreButton = useRef<HTMLButtonElement>(null);
  const moreActive = moreItems.some((item) => isActive(item, pathname));

  return (
    <Box
      as="nav"
      aria-label={t('nav.mainLabel')}
      data-testid="bottom-bar"
      display={{ base: 'block', md: 'none' }}
      position="fixed"
      insetX="0"
      bottom="0"
      zIndex="sticky"
      bg="bg.subtle/95"
      backdropFilter="blur(10px)"
      borderTopWidth="1px"
      borderColor="border"
      pb="env(safe-area-inset-bottom)"
    >
      <Grid as="ul" templateColumns="repeat(5, 1fr)" h={BOTTOM_BAR_HEIGHT} listStyleType="none">
        {barItems.map((item) => (
          <li key={item.to}>
            <Link asChild {...barButton}>
              <RouterLink to={item.to} aria-current={isActive(item, pathname) ? 'page' : undefined}>
                <Icon as={item.icon} boxSize="5" />
                <Text as="span" truncate maxW="full">
                  {t(item.labelKey)}
                </Text>
              </RouterLink>
            </Link>
          </li>
        ))}
        <li>
          <chakra.button
            ref={moreButton}
            type="button"
            w="full"
            {...barButton}
            color={moreActive ? 'brand.fg' : 'fg.muted'}
            aria-haspopup="dialog"
            aria-expanded={open}
            onClick={() => {
              setSheetMounted(true);
              setOpen(true);
            }}
            onPointerEnter={preloadMoreSheet}
            onFocus={preloadMoreSheet}
          >
            <Icon as={LuMenu} boxSize="5" />
            {t('nav.more')}
          </chakra.button>
          {sheetMounted ? (
            <Suspense fallback={null}>
              <MoreSheet open={open} onOpenChange={setOpen} returnFocusTo={moreButton} />
            </Suspense>
          ) : null}
        </li>
      </Grid>
    </Box>
  );
}
