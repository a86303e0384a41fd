import { Text } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  ExternalLink,
  LegalLink,
  LegalList,
  LegalPage,
  type LegalSection,
} from '../components/legal-page.tsx';
import { DEFAULT_SUPPORT_URL, PRODUCT_NAME } from '../lib/brand.ts';
import { usePublicConfig } from '../lib/use-auth.ts';

// The Privacy Policy in the reader's language (decision 061): English is the source, every text a
// `legal.privacy` key.

type T = TFunction;

// eslint-disable-next-line max-lines-per-function -- a declarative table: the Privacy Policy, section after section, as the reader reads them
function buildSections(t: T, supportUrl: string): LegalSection[] {
  const product = PRODUCT_NAME;
  const components = {
    strong: <strong />,
    terms: <LegalLink to="/terms">{null}</LegalLink>,
    support: <ExternalLink href={supportUrl}>{null}</ExternalLink>,
  };
  return [
    {
      heading: t('legal.privacy.who.heading'),
      body: <Text>{t('legal.privacy.who.p1', { product })}</Text>,
    },
    {
      heading: t('legal.privacy.discord.heading'),
      body: (
        <>
          <Text>{t('legal.privacy.discord.intro')}</Text>
          <LegalList
            items={[
              t('legal.privacy.discord.profile'),
              t('legal.privacy.discord.email'),
              t('legal.privacy.discord.guilds'),
              t('legal.privacy.discord.joins'),
            ]}
          />
          <Text>{t('legal.privacy.discord.p1')}</Text>
        </>
      ),
    },
    {
      heading: t('legal.privacy.created.heading'),
      body: (
        <LegalList
          items={[
            t('legal.privacy.created.transactions'),
            t('legal.privacy.created.servers'),
            t('legal.privacy.created.joins'),
            t('legal.privacy.created.communication'),
            t('legal.privacy.created.security'),
          ]}
        />
      ),
    },
    {
      heading: t('legal.privacy.payments.heading'),
      body: <Text>{t('legal.privacy.payments.p1')}</Text>,
    },
    {
      heading: t('legal.privacy.cookies.heading'),
      body: <Text>{t('legal.privacy.cookies.p1')}</Text>,
    },
    {
      heading: t('legal.privacy.use.heading'),
      body: (
        <LegalList
          items={[
            t('legal.privacy.use.account'),
            t('legal.privacy.use.verify'),
            t('legal.privacy.use.purchases'),
            t('legal.privacy.use.messages'),
            t('legal.privacy.use.security'),
          ]}
        />
      ),
    },
    {
      heading: t('legal.privacy.sharing.heading'),
      body: <Text>{t('legal.privacy.sharing.p1', { product })}</Text>,
    },
    {
      heading: t('legal.privacy.retention.heading'),
      body: (
        <>
          <LegalList
            items={[
              <Trans key="t" i18nKey="legal.privacy.retention.transactions" components={components} />,
              <Trans key="c" i18nKey="legal.privacy.retention.communication" components={components} />,
              <Trans key="s" i18nKey="legal.privacy.retention.security" components={components} />,
            ]}
          />
          <Text>
            <Trans i18nKey="legal.privacy.retention.p1" components={components} />
          </Text>
        </>
      ),
    },
    {
      heading: t('legal.privacy.security.heading'),
      body: (
        <Text>
          <Trans i18nKey="legal.privacy.security.p1" components={components} />
        </Text>
      ),
    },
    {
      heading: t('legal.privacy.rights.heading'),
      body: (
        <>
          <Text>{t('legal.privacy.rights.p1')}</Text>
          <Text>
            <Trans i18nKey="legal.privacy.rights.p2" values={{ product }} components={components} />
          </Text>
        </>
      ),
    },
    {
      heading: t('legal.privacy.children.heading'),
      body: <Text>{t('legal.privacy.children.p1', { product })}</Text>,
    },
    {
      heading: t('legal.privacy.changes.heading'),
      body: (
        <Text>
          <Trans i18nKey="legal.privacy.changes.p1" components={components} />
        </Text>
      ),
    },
  ];
}

export default function PrivacyPage() {
  const { t } = useTranslation();
  const { config } = usePublicConfig();
  return (
    <LegalPage
      title={t('legal.privacy.title')}
      metaDescription={t('legal.privacy.metaDescription', { product: PRODUCT_NAME })}
      lastUpdated="2025-10-19"
      intro={<Text>{t('legal.privacy.intro', { product: PRODUCT_NAME })}</Text>}
      sections={buildSections(t, config?.supportUrl || DEFAULT_SUPPORT_URL)}
    />
  );
}
