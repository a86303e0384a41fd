import { CloseButton, Drawer, Icon, Link, Portal, Stack } from '@chakra-ui/react';
import type { RefObject } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { isActive, MORE_ITEMS } from './nav-items.ts';
import { useTranslation } from 'react-i18next';

const moreItems = MORE_ITEMS;

/**
 * The phone bar's "More" bottom sheet, every page the bar has no room for. Its own chunk (bottom-bar.tsx
 * loads it when the member reaches the button); focus returns to that button on close.
 */
export function MoreSheet({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}) {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  return (
    <Drawer.Root
      placement="bottom"
      open={open}
      onOpenChange={(e) => onOpenChange(e.open)}
      finalFocusEl={() => returnFocusTo.current}
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content roundedTop="2xl" bg="bg.panel" pb="env(safe-area-inset-bottom)">
            <Drawer.Header>
              <Drawer.Title>{t('nav.more')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body pb="6">
              <MoreLinks pathname={pathname} onNavigate={() => onOpenChange(false)} />
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('nav.closeMenu')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
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
