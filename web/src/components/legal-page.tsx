import { Box, Button, Container, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { LuArrowLeft } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '@shared/i18n/index.ts';
import type en from '@shared/i18n/locales/en/web.json';
import { DEFAULT_SUPPORT_URL, PRODUCT_NAME } from '../lib/brand.ts';
import { useLocale } from '../lib/i18n.ts';
import { usePublicConfig } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { Logo } from './logo.tsx';

type LegalTexts = (typeof en)['legal'];
type LegalDocument = 'terms' | 'privacy';
type Keys<O> = keyof O & string;
/** A section: its key, then its blocks in order: a paragraph's key, or the keys of a bulleted list. */
type Section<S> = {
  [K in Keys<S>]: readonly [K, ...(Keys<S[K]> | readonly Keys<S[K]>[])[]];
}[Keys<S>];

/** A legal text as the reader reads it, section after section, by its keys in the catalogue (checked). */
export type LegalOutline<D extends LegalDocument> = readonly Section<
  Omit<LegalTexts[D], 'title' | 'metaDescription' | 'intro'>
>[];

export interface LegalPageProps<D extends LegalDocument> {
  /** Which text: `legal.terms` or `legal.privacy` in the catalogue (decision 061). */
  document: D;
  /** ISO date (YYYY-MM-DD), shown in the reader's language. */
  lastUpdated: string;
  outline: LegalOutline<D>;
  /** Values for the paragraphs that name more than the product, by `section.paragraph` key. */
  values?: Readonly<Record<string, Record<string, unknown>>>;
}

/**
 * Standalone document page (no app shell) with a back button to "/", in the reader's language. Every
 * text may name the product and use <strong>, <terms>, <privacy> and <support> (the support server).
 */
export function LegalPage<D extends LegalDocument>({
  document,
  lastUpdated,
  outline,
  values = {},
}: LegalPageProps<D>) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { config } = usePublicConfig();
  const product = PRODUCT_NAME;
  // A key below `legal.<document>`. The outline's keys are checked against the catalogue (LegalOutline);
  // i18next cannot check one built at run time, so it is typed as one of them.
  const key = (below: string) => `legal.${document}.${below}` as 'legal.terms.intro';
  const title = t(key('title'));
  useDocumentTitle(title, t(key('metaDescription'), { product }));
  // Noon UTC: the same calendar day in every time zone.
  const updated = formatDate(`${lastUpdated}T12:00:00Z`, locale, 'longDate');
  const components = {
    strong: <strong />,
    terms: <LegalLink to="/terms" />,
    privacy: <LegalLink to="/privacy" />,
    support: <ExternalLink href={config?.supportUrl || DEFAULT_SUPPORT_URL} />,
  };
  /** One text of the document, by its key below `legal.<document>`. */
  const text = (below: string) => (
    <Trans i18nKey={key(below)} values={{ product, ...values[below] }} components={components} />
  );
  return (
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
          <Text>{text('intro')}</Text>
        </Box>
        <Stack as="article" gap="8" mt="10">
          {outline.map(([section, ...blocks], index) => (
            <Box as="section" key={section}>
              <Heading as="h2" textStyle="xl" fontWeight="semibold" mb="3">
                {index + 1}. {t(key(`${section}.heading`))}
              </Heading>
              <Stack gap="3" color="fg.muted" lineHeight="tall" css={{ '& strong': { color: 'fg' } }}>
                {blocks.map((block) =>
                  typeof block === 'string' ? (
                    <Text key={block}>{text(`${section}.${block}`)}</Text>
                  ) : (
                    <List.Root key={block.join()} ps="5" gap="1.5">
                      {block.map((item) => (
                        <List.Item key={item}>{text(`${section}.${item}`)}</List.Item>
                      ))}
                    </List.Root>
                  ),
                )}
              </Stack>
            </Box>
          ))}
        </Stack>
        <Text mt="12" pt="6" borderTopWidth="1px" borderColor="border" textStyle="sm" color="fg.subtle">
          {t('brand.disclaimer', { product })}
        </Text>
      </Container>
    </Box>
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
