import { Box, CloseButton, Drawer, Grid, Icon, Link, Portal, Stack, Text, chakra } from '@chakra-ui/react';
import { useState } from 'react';
import { LuMenu } from 'react-icons/lu';
import { Link as RouterLink, useLocation } from 'react-router';
import { BOTTOM_BAR_HEIGHT } from './bottom-bar-height.ts';
import { isActive, MORE_ITEMS, PHONE_BAR_ITEMS } from './nav-items.ts';
import { useTranslation } from 'react-i18next';

export { BOTTOM_BAR_HEIGHT };

const barItems = PHONE_BAR_ITEMS;
const moreItems = MORE_ITEMS;

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
          <Drawer.Root placement="bottom" open={open} onOpenChange={(e) => setOpen(e.open)}>
            <Drawer.Trigger asChild>
              <chakra.button
                type="button"
                w="full"
                {...barButton}
                color={moreActive ? 'brand.fg' : 'fg.muted'}
              >
                <Icon as={LuMenu} boxSize="5" />
                {t('nav.more')}
              </chakra.button>
            </Drawer.Trigger>
            <Portal>
              <Drawer.Backdrop />
              <Drawer.Positioner>
                <Drawer.Content roundedTop="2xl" bg="bg.panel" pb="env(safe-area-inset-bottom)">
                  <Drawer.Header>
                    <Drawer.Title>{t('nav.more')}</Drawer.Title>
                  </Drawer.Header>
                  <Drawer.Body pb="6">
                    <MoreLinks pathname={pathname} onNavigate={() => setOpen(false)} />
                  </Drawer.Body>
                  <Drawer.CloseTrigger asChild>
                    <CloseButton size="sm" aria-label={t('nav.closeMenu')} />
                  </Drawer.CloseTrigger>
                </Drawer.Content>
              </Drawer.Positioner>
            </Portal>
          </Drawer.Root>
        </li>
      </Grid>
    </Box>
  );
}

/** The "More" sheet's links: every page the bar has no room for. */
function MoreLinks({ pathname, onNavigate }: { pathname: string; onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack as="ul" gap="1" listStyleType="none">
      {moreItems.map((item) => (
        <li key={item.to}>
          <Link
            asChild
            display="flex"
            alignItems="center"
            gap="3"
            px="3"
            py="3"
            borderRadius="lg"
            fontWeight="medium"
            color="fg"
            textDecoration="none"
            _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
            _currentPage={{ bg: 'brand.subtle', color: 'brand.fg' }}
          >
            <RouterLink
              to={item.to}
              aria-current={isActive(item, pathname) ? 'page' : undefined}
              onClick={onNavigate}
            >
              <Icon as={item.icon} boxSize="5" />
              {t(item.labelKey)}
            </RouterLink>
          </Link>
        </li>
      ))}
    </Stack>
  );
}
