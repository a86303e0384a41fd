import { Box, Button, Container, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LuArrowLeft } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '@shared/i18n/index.ts';
import { PRODUCT_NAME } from '../lib/brand.ts';
import { useLocale } from '../lib/i18n.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { Logo } from './logo.tsx';

export interface LegalSection {
  heading: string;
  body: ReactNode;
}

export interface LegalPageProps {
  title: string;
  metaDescription: string;
  /** ISO date (YYYY-MM-DD), shown in the reader's language. */
  lastUpdated: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
}

/** Standalone document page (no app shell) with a back button to "/", in the reader's language. */
export function LegalPage({ title, metaDescription, lastUpdated, intro, sections }: LegalPageProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  useDocumentTitle(title, metaDescription);
  // Noon UTC: the same calendar day in every time zone.
  const updated = formatDate(`${lastUpdated}T12:00:00Z`, locale, 'longDate');
  return (
    <Box minH="100dvh" pb="16">
      <Box borderBottomWidth="1px" borderColor="border" bg="bg.subtle">
        <Container
          maxW="3xl"
          px={{ base: '4', md: '6' }}
          py="4"
          display="flex"
          justifyContent="space-between"
          alignItems="center"
          gap="3"
        >
          <Button asChild variant="ghost" size="sm" color="fg.muted">
            <RouterLink to="/">
              <LuArrowLeft />
              {t('legal.backHome')}
            </RouterLink>
          </Button>
          <Logo />
        </Container>
      </Box>
      <Container as="main" maxW="3xl" px={{ base: '4', md: '6' }} pt={{ base: '8', md: '12' }}>
        <Heading as="h1" textStyle={{ base: '3xl', md: '4xl' }} fontWeight="bold" letterSpacing="tight">
          {title}
        </Heading>
        <Text mt="2" color="fg.subtle" textStyle="sm">
          {t('legal.lastUpdated', { date: updated })}
        </Text>
        <Box mt="6" color="fg.muted" lineHeight="tall">
          {intro}
        </Box>
        <Stack as="article" gap="8" mt="10">
          {sections.map((section, index) => (
            <Box as="section" key={section.heading}>
              <Heading as="h2" textStyle="xl" fontWeight="semibold" mb="3">
                {index + 1}. {section.heading}
              </Heading>
              <Stack gap="3" color="fg.muted" lineHeight="tall" css={{ '& strong': { color: 'fg' } }}>
                {section.body}
              </Stack>
            </Box>
          ))}
        </Stack>
        <Text mt="12" pt="6" borderTopWidth="1px" borderColor="border" textStyle="sm" color="fg.subtle">
          {t('brand.disclaimer', { product: PRODUCT_NAME })}
        </Text>
      </Container>
    </Box>
  );
}

/** Bulleted list for legal text. */
export function LegalList({ items }: { items: readonly ReactNode[] }) {
  return (
    <List.Root ps="5" gap="1.5">
      {items.map((item, i) => (
        <List.Item key={i}>{item}</List.Item>
      ))}
    </List.Root>
  );
}

/** Inline link to another legal page or route. */
export function LegalLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link asChild color="brand.fg">
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

/** Link to an external page, opening in a new tab. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" color="brand.fg">
      {children}
    </Link>
  );
}
