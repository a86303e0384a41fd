import { Box, Container, Flex, Icon, Link } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { NAV_ITEMS, type NavItem } from './nav-items.ts';

function isActive(item: NavItem, pathname: string): boolean {
  if (item.to === '/') return pathname === '/';
  return pathname === item.to || pathname.startsWith(`${item.to}/`) || (item.alsoActiveOn ?? []).includes(pathname);
}

/** The eight app tabs; scrolls horizontally on narrow screens. Active tab: aria-current="page". */
export function NavTabs() {
  const listRef = useRef<HTMLDivElement>(null) // typed as Flex's element; rendered as <ul>;
  const { pathname } = useLocation();

  // On phones the tab strip scrolls: keep the active tab in view after navigation.
  useEffect(() => {
    const list = listRef.current;
    const active = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !active) return;
    const parent = active.parentElement ?? active;
    list.scrollLeft = parent.offsetLeft - (list.clientWidth - parent.clientWidth) / 2;
  }, [pathname]);

  return (
    <Box as="nav" aria-label="Main" borderBottomWidth="1px" borderColor="border" bg="bg/80" backdropFilter="blur(10px)">
      <Container maxW="7xl" px={{ base: '2', md: '6' }}>
        <Flex
          as="ul"
          ref={listRef}
          gap="1"
          overflowX="auto"
          py="2"
          listStyleType="none"
          position="relative"
          css={{ scrollbarWidth: 'none', '&::-webkit-scrollbar': { display: 'none' } }}
        >
          {NAV_ITEMS.map((item) => (
            <Box as="li" key={item.to} flexShrink={0}>
              <Link
                asChild
                display="inline-flex"
                alignItems="center"
                gap="2"
                px="3"
                py="2"
                borderRadius="lg"
                textStyle="sm"
                fontWeight="medium"
                color="fg.muted"
                whiteSpace="nowrap"
                textDecoration="none"
                transition="background 150ms, color 150ms"
                _hover={{ bg: 'bg.muted', color: 'fg', textDecoration: 'none' }}
                _currentPage={{ bg: 'brand.solid', color: 'white', boxShadow: '0 4px 14px rgba(88,101,242,0.35)' }}
                focusRingColor="brand.focusRing"
              >
                <RouterLink to={item.to} aria-current={isActive(item, pathname) ? 'page' : undefined}>
                  <Icon as={item.icon} boxSize="4" />
                  {item.label}
                </RouterLink>
              </Link>
            </Box>
          ))}
        </Flex>
      </Container>
    </Box>
  );
}
