import { useTranslation } from 'react-i18next';
import { LegalPage, type LegalOutline } from '../components/legal-page.tsx';
import { useLocale } from '../lib/i18n.ts';
import { formatMoney } from '@shared/i18n/index.ts';
import { CAMPAIGN_KIND_RULES, minStayDays, PROMOTION } from '@shared/campaign-kinds.ts';
import { NOBOT_CLAIM_DELAY_MS } from '@shared/join-constants.ts';
import { REWARDS } from '@shared/rewards-constants.ts';
import { DEFAULT_SOCIAL_TASK_CENTS } from '@shared/social-constants.ts';

// The Terms in the reader's language (decision 061): English is the source, every text a `legal.terms`
// key; the numbers come from the rules they describe, in the locale's digits.

const HOUR_MS = 3600 * 1000;

const OUTLINE: LegalOutline<'terms'> = [
  ['about', 'p1', 'p2'],
  ['discord', 'p1'],
  ['eligibility', 'p1'],
  ['account', 'p1', 'p2'],
  ['coins', 'p1', 'earnIntro', ['welcome', 'joins', 'social', 'timed'], 'p2'],
  ['stays', 'p1', 'p2'],
  ['campaigns', 'intro', ['regular', 'featured', 'nobot'], 'p1', 'p2'],
  ['purchases', 'p1', 'p2'],
  ['use', 'intro', ['bots', 'content', 'exploit', 'trade', 'discord'], 'p1'],
  ['changes', 'p1'],
  ['liability', 'p1'],
  ['contact', 'p1'],
];

export default function TermsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const coins = (cents: number) => formatMoney(cents, locale);
  const values = {
    'coins.joins': {
      regular: coins(CAMPAIGN_KIND_RULES.regular.rewardCents),
      featured: coins(CAMPAIGN_KIND_RULES.featured.rewardCents),
      nobot: coins(CAMPAIGN_KIND_RULES.nobot.rewardCents),
      seconds: NOBOT_CLAIM_DELAY_MS / 1000,
    },
    'coins.social': { amount: coins(DEFAULT_SOCIAL_TASK_CENTS) },
    'coins.timed': {
      hourly: coins(REWARDS.regular.cents),
      bonus: coins(REWARDS.bonus.cents),
      bonusHours: REWARDS.bonus.periodMs / HOUR_MS,
      daily: coins(REWARDS.daily.cents),
      dailyHours: REWARDS.daily.periodMs / HOUR_MS,
    },
    'stays.p1': {
      regularStay: t('legal.days', { count: minStayDays('regular') }),
      featuredStay: t('legal.days', { count: minStayDays('featured') }),
      penalty: coins(CAMPAIGN_KIND_RULES.regular.penaltyCents),
    },
    'campaigns.featured': { coins: PROMOTION.costCoins, slots: PROMOTION.slots },
  };
  return <LegalPage document="terms" lastUpdated="2025-10-19" outline={OUTLINE} values={values} />;
}
