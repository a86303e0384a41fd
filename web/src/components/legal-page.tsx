import { Box, Button, Container, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import { Children, createContext, useContext, type ReactElement, type ReactNode } from 'react';
import type { ParseKeys } from 'i18next';
import { Trans, useTranslation } from 'react-i18next';
import { LuArrowLeft } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '@shared/i18n/index.ts';
import { DEFAULT_SUPPORT_URL, PRODUCT_NAME } from '../lib/brand.ts';
import { useLocale } from '../lib/i18n.ts';
import { usePublicConfig } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { Logo } from './logo.tsx';

export interface LegalPageProps {
  title: string;
  metaDescription: string;
  /** ISO date (YYYY-MM-DD), shown in the reader's language. */
  lastUpdated: string;
  intro: ReactNode;
  /** The sections (LegalSection), numbered in their order. */
  children: ReactNode;
}

/** What every text of a legal page may use besides its own values: <strong>, <terms>, <privacy>, <support>. */
const TextComponents = createContext<Readonly<Record<string, ReactElement>>>({});
/** The number of the section around (1, 2, …). */
const SectionNumber = createContext(0);

/**
 * Standalone document page (no app shell) with a back button to "/", in the reader's language. Its
 * texts are LegalText and LegalItem, in LegalSection and LegalList.
 */
export function LegalPage({ title, metaDescription, lastUpdated, intro, children }: LegalPageProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { config } = usePublicConfig();
  useDocumentTitle(title, metaDescription);
  // Noon UTC: the same calendar day in every time zone.
  const updated = formatDate(`${lastUpdated}T12:00:00Z`, locale, 'longDate');
  const components = {
    strong: <strong />,
    terms: <LegalLink to="/terms" />,
    privacy: <LegalLink to="/privacy" />,
    support: <ExternalLink href={config?.supportUrl || DEFAULT_SUPPORT_URL} />,
  };
  return (
    <TextComponents.Provider value={components}>
      <Box minH="100dvh" pb="16">
        <BackHomeBar />
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
            {Children.map(children, (section, index) => (
              <SectionNumber.Provider value={index + 1}>{section}</SectionNumber.Provider>
            ))}
          </Stack>
          <Text mt="12" pt="6" borderTopWidth="1px" borderColor="border" textStyle="sm" color="fg.subtle">
            {t('brand.disclaimer', { product: PRODUCT_NAME })}
          </Text>
        </Container>
      </Box>
    </TextComponents.Provider>
  );
}

/** A numbered section: its heading, then its texts and lists. */
export function LegalSection({ i18nKey, children }: { i18nKey: ParseKeys; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box as="section">
      <Heading as="h2" textStyle="xl" fontWeight="semibold" mb="3">
        {useContext(SectionNumber)}. {t(i18nKey)}
      </Heading>
      <Stack gap="3" color="fg.muted" lineHeight="tall" css={{ '& strong': { color: 'fg' } }}>
        {children}
      </Stack>
    </Box>
  );
}

interface TextProps {
  i18nKey: ParseKeys;
  /** Its values besides the product's name. */
  values?: Record<string, unknown>;
}

/** One text, with the product's name, bold parts and links. */
function LegalTrans({ i18nKey, values }: TextProps) {
  const components = useContext(TextComponents);
  // The key is checked where it is written (`ParseKeys`); Trans's own types cannot take that union.
  const key = i18nKey as 'legal.terms.intro';
  return <Trans i18nKey={key} values={{ product: PRODUCT_NAME, ...values }} components={components} />;
}

/** A paragraph. */
export function LegalText(props: TextProps) {
  return (
    <Text>
      <LegalTrans {...props} />
    </Text>
  );
}

/** A bulleted list of LegalItem. */
export function LegalList({ children }: { children: ReactNode }) {
  return (
    <List.Root ps="5" gap="1.5">
      {children}
    </List.Root>
  );
}

/** A bullet of a LegalList. */
export function LegalItem(props: TextProps) {
  return (
    <List.Item>
      <LegalTrans {...props} />
    </List.Item>
  );
}

/** The bar above the text: back to "/", and the logo. */
function BackHomeBar() {
  const { t } = useTranslation();
  return (
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
  );
}

/** Inline link to the other legal page (its text comes from the translation). */
function LegalLink({ to, children }: { to: string; children?: ReactNode }) {
  return (
    <Link asChild color="brand.fg">
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

/** Link to an external page, opening in a new tab. */
function ExternalLink({ href, children }: { href: string; children?: ReactNode }) {
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" color="brand.fg">
      {children}
    </Link>
  );
}
