import {
  Box,
  Container,
  Flex,
  HStack,
  Icon,
  IconButton,
  Link,
  Separator,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { FaDiscord, FaInstagram, FaTiktok, FaXTwitter, FaYoutube } from 'react-icons/fa6';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../components/logo.tsx';
import { DEFAULT_SUPPORT_URL, PRODUCT_NAME, SOCIAL_LINKS, type SocialLink } from '../lib/brand.ts';
import { usePublicConfig } from '../lib/use-auth.ts';
import { useTranslation } from 'react-i18next';

const socialIcons: Record<SocialLink['platform'], IconType> = {
  x: FaXTwitter,
  youtube: FaYoutube,
  tiktok: FaTiktok,
  instagram: FaInstagram,
};

const footerLink = { color: 'fg.muted', textStyle: 'sm', _hover: { color: 'fg' } } as const;

export function AppFooter() {
  const { config } = usePublicConfig();
  const { t } = useTranslation();
  const supportUrl = config?.supportUrl || DEFAULT_SUPPORT_URL;
  return (
    <Box as="footer" mt="auto" borderTopWidth="1px" borderColor="border" bg="bg.subtle">
      <Container maxW="7xl" px={{ base: '4', md: '6' }} py={{ base: '8', md: '10' }}>
        <Flex direction={{ base: 'column', md: 'row' }} justify="space-between" gap="6">
          <Stack gap="3" maxW="sm">
            <Logo />
            <Text textStyle="sm" color="fg.muted">
              {t('footer.blurb')}
            </Text>
          </Stack>
          <Stack gap="4" align={{ base: 'flex-start', md: 'flex-end' }}>
            <HStack as="nav" aria-label={t('footer.navLabel')} gap="5" flexWrap="wrap">
              <Link asChild {...footerLink}>
                <RouterLink to="/terms">{t('nav.terms')}</RouterLink>
              </Link>
              <Link asChild {...footerLink}>
                <RouterLink to="/privacy">{t('nav.privacy')}</RouterLink>
              </Link>
              <Link href={supportUrl} target="_blank" rel="noopener noreferrer" {...footerLink}>
                {t('footer.support')}
              </Link>
            </HStack>
            <HStack gap="1">
              <IconButton
                asChild
                variant="ghost"
                size="sm"
                color="fg.muted"
                aria-label={t('footer.discordSupport')}
              >
                <a href={supportUrl} target="_blank" rel="noopener noreferrer">
                  <Icon as={FaDiscord} />
                </a>
              </IconButton>
              {SOCIAL_LINKS.map((link) => (
                <IconButton
                  key={link.platform}
                  asChild
                  variant="ghost"
                  size="sm"
                  color="fg.muted"
                  aria-label={link.label}
                >
                  <a href={link.href} target="_blank" rel="noopener noreferrer">
                    <Icon as={socialIcons[link.platform]} />
                  </a>
                </IconButton>
              ))}
            </HStack>
          </Stack>
        </Flex>
        <Separator my="6" borderColor="border" />
        <Flex direction={{ base: 'column', sm: 'row' }} justify="space-between" gap="2">
          <Text textStyle="xs" color="fg.subtle">
            {t('brand.disclaimer', { product: PRODUCT_NAME })}
          </Text>
          <Text textStyle="xs" color="fg.subtle">
            © {new Date().getFullYear()} {PRODUCT_NAME}
          </Text>
        </Flex>
      </Container>
    </Box>
  );
}
