import { useTranslation } from 'react-i18next';
import { LegalItem, LegalList, LegalPage, LegalSection, LegalText } from '../components/legal-page.tsx';
import { PRODUCT_NAME } from '../lib/brand.ts';
import { useLocale } from '../lib/i18n.ts';
import { formatMoney } from '@shared/i18n/index.ts';
import { CAMPAIGN_KIND_RULES, minStayDays, PROMOTION } from '@shared/campaign-kinds.ts';
import { NOBOT_CLAIM_DELAY_MS } from '@shared/join-constants.ts';
import { REWARDS } from '@shared/rewards-constants.ts';
import { DEFAULT_SOCIAL_TASK_CENTS } from '@shared/social-constants.ts';

// The Terms in the reader's language (decision 061): English is the source, every text a `legal.terms`
// key; the numbers come from the rules they describe, in the locale's digits.

const HOUR_MS = 3600 * 1000;

/** The values of the texts that name the rules' numbers. */
function useRuleValues() {
  const { t } = useTranslation();
  const locale = useLocale();
  const coins = (cents: number) => formatMoney(cents, locale);
  return {
    joins: {
      regular: coins(CAMPAIGN_KIND_RULES.regular.rewardCents),
      featured: coins(CAMPAIGN_KIND_RULES.featured.rewardCents),
      nobot: coins(CAMPAIGN_KIND_RULES.nobot.rewardCents),
      seconds: NOBOT_CLAIM_DELAY_MS / 1000,
    },
    social: { amount: coins(DEFAULT_SOCIAL_TASK_CENTS) },
    timed: {
      hourly: coins(REWARDS.regular.cents),
      bonus: coins(REWARDS.bonus.cents),
      bonusHours: REWARDS.bonus.periodMs / HOUR_MS,
      daily: coins(REWARDS.daily.cents),
      dailyHours: REWARDS.daily.periodMs / HOUR_MS,
    },
    stays: {
      regularStay: t('legal.days', { count: minStayDays('regular') }),
      featuredStay: t('legal.days', { count: minStayDays('featured') }),
      penalty: coins(CAMPAIGN_KIND_RULES.regular.penaltyCents),
    },
    featured: { coins: PROMOTION.costCoins, slots: PROMOTION.slots },
  };
}

export default function TermsPage() {
  const { t } = useTranslation();
  const values = useRuleValues();
  return (
    <LegalPage
      title={t('legal.terms.title')}
      metaDescription={t('legal.terms.metaDescription', { product: PRODUCT_NAME })}
      lastUpdated="2025-10-19"
      intro={<LegalText i18nKey="legal.terms.intro" />}
    >
      <LegalSection i18nKey="legal.terms.about.heading">
        <LegalText i18nKey="legal.terms.about.p1" />
        <LegalText i18nKey="legal.terms.about.p2" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.discord.heading">
        <LegalText i18nKey="legal.terms.discord.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.eligibility.heading">
        <LegalText i18nKey="legal.terms.eligibility.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.account.heading">
        <LegalText i18nKey="legal.terms.account.p1" />
        <LegalText i18nKey="legal.terms.account.p2" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.coins.heading">
        <LegalText i18nKey="legal.terms.coins.p1" />
        <LegalText i18nKey="legal.terms.coins.earnIntro" />
        <LegalList>
          <LegalItem i18nKey="legal.terms.coins.welcome" />
          <LegalItem i18nKey="legal.terms.coins.joins" values={values.joins} />
          <LegalItem i18nKey="legal.terms.coins.social" values={values.social} />
          <LegalItem i18nKey="legal.terms.coins.timed" values={values.timed} />
        </LegalList>
        <LegalText i18nKey="legal.terms.coins.p2" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.stays.heading">
        <LegalText i18nKey="legal.terms.stays.p1" values={values.stays} />
        <LegalText i18nKey="legal.terms.stays.p2" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.campaigns.heading">
        <LegalText i18nKey="legal.terms.campaigns.intro" />
        <LegalList>
          <LegalItem i18nKey="legal.terms.campaigns.regular" />
          <LegalItem i18nKey="legal.terms.campaigns.featured" values={values.featured} />
          <LegalItem i18nKey="legal.terms.campaigns.nobot" />
        </LegalList>
        <LegalText i18nKey="legal.terms.campaigns.p1" />
        <LegalText i18nKey="legal.terms.campaigns.p2" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.purchases.heading">
        <LegalText i18nKey="legal.terms.purchases.p1" />
        <LegalText i18nKey="legal.terms.purchases.p2" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.use.heading">
        <LegalText i18nKey="legal.terms.use.intro" />
        <LegalList>
          <LegalItem i18nKey="legal.terms.use.bots" />
          <LegalItem i18nKey="legal.terms.use.content" />
          <LegalItem i18nKey="legal.terms.use.exploit" />
          <LegalItem i18nKey="legal.terms.use.trade" />
          <LegalItem i18nKey="legal.terms.use.discord" />
        </LegalList>
        <LegalText i18nKey="legal.terms.use.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.changes.heading">
        <LegalText i18nKey="legal.terms.changes.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.liability.heading">
        <LegalText i18nKey="legal.terms.liability.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.terms.contact.heading">
        <LegalText i18nKey="legal.terms.contact.p1" />
      </LegalSection>
    </LegalPage>
  );
}
