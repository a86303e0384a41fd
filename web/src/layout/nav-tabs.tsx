import { Box, Container, Flex, Icon, Link } from '@chakra-ui/react';
import { Link as RouterLink, useLocation } from 'react-router';
import { isActive, NAV_ITEMS } from './nav-items.ts';
import { useTranslation } from 'react-i18next';

/** The eight app tabs (tablet and desktop; phones get the bottom bar). Active tab: aria-current="page". */
export function NavTabs() {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  return (
    <Box
      as="nav"
      aria-label={t('nav.mainLabel')}
      display={{ base: 'none', md: 'block' }}
      borderBottomWidth="1px"
      borderColor="border"
      bg="bg/80"
      backdropFilter="blur(10px)"
    >
      <Container maxW="7xl" px="6">
        <Flex as="ul" gap="1" py="2" flexWrap="wrap" listStyleType="none">
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
                _currentPage={{
                  bg: 'brand.solid',
                  color: 'white',
                  boxShadow: '0 4px 14px rgba(88,101,242,0.35)',
                }}
                // The ring sits outside the pill in the text colour: visible on the blurple active tab too.
                focusVisibleRing="outside"
                focusRingColor="fg"
              >
                <RouterLink to={item.to} aria-current={isActive(item, pathname) ? 'page' : undefined}>
                  <Icon as={item.icon} boxSize="4" />
                  {t(item.labelKey)}
                </RouterLink>
              </Link>
            </Box>
          ))}
        </Flex>
      </Container>
    </Box>
  );
}
