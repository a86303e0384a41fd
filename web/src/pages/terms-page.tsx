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
import { useLocale } from '../lib/i18n.ts';
import { usePublicConfig } from '../lib/use-auth.ts';
import { formatMoney, type Locale } from '@shared/i18n/index.ts';
import { CAMPAIGN_KIND_RULES, minStayDays, PROMOTION } from '@shared/campaign-kinds.ts';
import { NOBOT_CLAIM_DELAY_MS } from '@shared/join-constants.ts';
import { REWARDS } from '@shared/rewards-constants.ts';
import { DEFAULT_SOCIAL_TASK_CENTS } from '@shared/social-constants.ts';

// The Terms in the reader's language (decision 061): English is the source, every text a `legal.terms`
// key; the numbers come from the rules they describe, in the locale's digits.

const HOUR_MS = 3600 * 1000;

type T = TFunction;

// eslint-disable-next-line max-lines-per-function -- a declarative table: the Terms, section after section, as the reader reads them
function buildSections(t: T, locale: Locale, supportUrl: string): LegalSection[] {
  const product = PRODUCT_NAME;
  const coins = (cents: number) => formatMoney(cents, locale);
  const components = {
    strong: <strong />,
    privacy: <LegalLink to="/privacy">{null}</LegalLink>,
    support: <ExternalLink href={supportUrl}>{null}</ExternalLink>,
  };
  return [
    {
      heading: t('legal.terms.about.heading'),
      body: (
        <>
          <Text>{t('legal.terms.about.p1', { product })}</Text>
          <Text>
            <Trans i18nKey="legal.terms.about.p2" values={{ product }} components={components} />
          </Text>
        </>
      ),
    },
    {
      heading: t('legal.terms.discord.heading'),
      body: <Text>{t('legal.terms.discord.p1', { product })}</Text>,
    },
    {
      heading: t('legal.terms.eligibility.heading'),
      body: (
        <Text>
          <Trans i18nKey="legal.terms.eligibility.p1" values={{ product }} components={components} />
        </Text>
      ),
    },
    {
      heading: t('legal.terms.account.heading'),
      body: (
        <>
          <Text>{t('legal.terms.account.p1', { product })}</Text>
          <Text>
            <Trans i18nKey="legal.terms.account.p2" components={components} />
          </Text>
        </>
      ),
    },
    {
      heading: t('legal.terms.coins.heading'),
      body: (
        <>
          <Text>
            <Trans i18nKey="legal.terms.coins.p1" values={{ product }} components={components} />
          </Text>
          <Text>{t('legal.terms.coins.earnIntro')}</Text>
          <LegalList
            items={[
              <Trans key="welcome" i18nKey="legal.terms.coins.welcome" components={components} />,
              t('legal.terms.coins.joins', {
                regular: coins(CAMPAIGN_KIND_RULES.regular.rewardCents),
                featured: coins(CAMPAIGN_KIND_RULES.featured.rewardCents),
                nobot: coins(CAMPAIGN_KIND_RULES.nobot.rewardCents),
                seconds: NOBOT_CLAIM_DELAY_MS / 1000,
              }),
              t('legal.terms.coins.social', { amount: coins(DEFAULT_SOCIAL_TASK_CENTS) }),
              t('legal.terms.coins.timed', {
                hourly: coins(REWARDS.regular.cents),
                bonus: coins(REWARDS.bonus.cents),
                bonusHours: REWARDS.bonus.periodMs / HOUR_MS,
                daily: coins(REWARDS.daily.cents),
                dailyHours: REWARDS.daily.periodMs / HOUR_MS,
              }),
            ]}
          />
          <Text>{t('legal.terms.coins.p2')}</Text>
        </>
      ),
    },
    {
      heading: t('legal.terms.stays.heading'),
      body: (
        <>
          <Text>
            <Trans
              i18nKey="legal.terms.stays.p1"
              values={{
                regularStay: t('legal.days', { count: minStayDays('regular') }),
                featuredStay: t('legal.days', { count: minStayDays('featured') }),
                penalty: coins(CAMPAIGN_KIND_RULES.regular.penaltyCents),
              }}
              components={components}
            />
          </Text>
          <Text>{t('legal.terms.stays.p2')}</Text>
        </>
      ),
    },
    {
      heading: t('legal.terms.campaigns.heading'),
      body: (
        <>
          <Text>{t('legal.terms.campaigns.intro')}</Text>
          <LegalList
            items={[
              t('legal.terms.campaigns.regular'),
              t('legal.terms.campaigns.featured', { coins: PROMOTION.costCoins, slots: PROMOTION.slots }),
              t('legal.terms.campaigns.nobot'),
            ]}
          />
          <Text>
            <Trans i18nKey="legal.terms.campaigns.p1" components={components} />
          </Text>
          <Text>{t('legal.terms.campaigns.p2')}</Text>
        </>
      ),
    },
    {
      heading: t('legal.terms.purchases.heading'),
      body: (
        <>
          <Text>{t('legal.terms.purchases.p1')}</Text>
          <Text>
            <Trans i18nKey="legal.terms.purchases.p2" components={components} />
          </Text>
        </>
      ),
    },
    {
      heading: t('legal.terms.use.heading'),
      body: (
        <>
          <Text>{t('legal.terms.use.intro')}</Text>
          <LegalList
            items={[
              t('legal.terms.use.bots'),
              t('legal.terms.use.content'),
              t('legal.terms.use.exploit'),
              t('legal.terms.use.trade'),
              t('legal.terms.use.discord'),
            ]}
          />
          <Text>{t('legal.terms.use.p1', { product })}</Text>
        </>
      ),
    },
    {
      heading: t('legal.terms.changes.heading'),
      body: <Text>{t('legal.terms.changes.p1', { product })}</Text>,
    },
    {
      heading: t('legal.terms.liability.heading'),
      body: (
        <Text>
          <Trans i18nKey="legal.terms.liability.p1" values={{ product }} components={components} />
        </Text>
      ),
    },
    {
      heading: t('legal.terms.contact.heading'),
      body: (
        <Text>
          <Trans i18nKey="legal.terms.contact.p1" components={components} />
        </Text>
      ),
    },
  ];
}

export default function TermsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { config } = usePublicConfig();
  return (
    <LegalPage
      title={t('legal.terms.title')}
      metaDescription={t('legal.terms.metaDescription', { product: PRODUCT_NAME })}
      lastUpdated="2025-10-19"
      intro={<Text>{t('legal.terms.intro', { product: PRODUCT_NAME })}</Text>}
      sections={buildSections(t, locale, config?.supportUrl || DEFAULT_SUPPORT_URL)}
    />
  );
}
