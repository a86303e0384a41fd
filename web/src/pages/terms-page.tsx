import { Text } from '@chakra-ui/react';
import {
  ExternalLink,
  LegalLink,
  LegalList,
  LegalPage,
  type LegalSection,
} from '../components/legal-page.tsx';
import { DEFAULT_SUPPORT_URL, PRODUCT_NAME } from '../lib/brand.ts';
import { usePublicConfig } from '../lib/use-auth.ts';
import { minStayText, penaltyText, PROMOTION, rewardText } from '@shared/campaign-kinds.ts';
import { NOBOT_CLAIM_DELAY_MS } from '@shared/join-constants.ts';
import { formatCents } from '@shared/money.ts';
import { DEFAULT_SOCIAL_TASK_CENTS } from '@shared/social-constants.ts';

const P = PRODUCT_NAME;

// eslint-disable-next-line max-lines-per-function -- a declarative table: the Terms, section after section, as the reader reads them
function buildSections(supportUrl: string): LegalSection[] {
  return [
    {
      heading: 'About these terms',
      body: (
        <>
          <Text>
            These Terms of Service ("Terms") are an agreement between you and {P} ("we", "us"). They govern
            your use of the {P} website and services, where members of Discord communities earn coins by
            joining servers, completing social tasks and claiming timed rewards, and spend those coins on
            campaigns that promote their own servers.
          </Text>
          <Text>
            By signing in or using {P} you accept these Terms and our{' '}
            <LegalLink to="/privacy">Privacy Policy</LegalLink>. If you do not agree, please do not use the
            service.
          </Text>
        </>
      ),
    },
    {
      heading: 'Not affiliated with Discord',
      body: (
        <Text>
          {P} is an independent service. {P} is not affiliated with, endorsed by, or sponsored by Discord Inc.
          "Discord" is a trademark of Discord Inc. Your use of Discord itself remains governed by Discord's
          own terms and community guidelines, which you must also follow while using {P}.
        </Text>
      ),
    },
    {
      heading: 'Eligibility',
      body: (
        <Text>
          You must be at least <strong>13 years old</strong> to use {P}. If you are under 18, you may only use{' '}
          {P} with the permission of a parent or legal guardian, who accepts these Terms on your behalf. You
          must also meet the minimum age required by Discord in your country.
        </Text>
      ),
    },
    {
      heading: 'Your account',
      body: (
        <>
          <Text>
            You sign in with your Discord account. We never ask for your Discord password. You are responsible
            for activity on your account and for keeping your Discord account secure. One {P} account per
            person: creating multiple accounts to collect rewards is not allowed.
          </Text>
          <Text>
            When you sign in we access your Discord username and avatar, your e-mail address, the list of
            servers (guilds) you belong to, and the ability to verify that you joined a server. The{' '}
            <LegalLink to="/privacy">Privacy Policy</LegalLink> explains how we use this data.
          </Text>
        </>
      ),
    },
    {
      heading: 'Coins',
      body: (
        <>
          <Text>
            Coins are a virtual, in-service credit. <strong>Coins have no cash value</strong>: they cannot be
            exchanged for money, transferred or sold to other users, or redeemed outside {P}. Balances are
            shown with two decimals.
          </Text>
          <Text>You can earn coins by:</Text>
          <LegalList
            items={[
              <>
                a <strong>one-time welcome bonus of 5 coins</strong> when you first create your account;
              </>,
              `joining listed servers: ${rewardText('regular')} coins for a regular server, ${rewardText('featured')} coins for a featured server, and ${rewardText('nobot')} coins for a no-bot server (credited after a short ${NOBOT_CLAIM_DELAY_MS / 1000}-second delay);`,
              `completing social tasks (for example, following or subscribing to our social accounts), usually ${formatCents(DEFAULT_SOCIAL_TASK_CENTS)} coins each;`,
              'claiming timed rewards: hourly (+1.00 coins every hour), bonus (+3.00 coins every 6 hours) and daily (+5.00 coins every 24 hours).',
            ]}
          />
          <Text>
            Reward amounts and availability may change. We may correct balances that result from errors, bugs
            or abuse, and we may remove coins obtained in breach of these Terms.
          </Text>
        </>
      ),
    },
    {
      heading: 'Joining servers, minimum stays and penalties',
      body: (
        <>
          <Text>
            When you earn coins for joining a server you agree to stay a member for a minimum period:{' '}
            <strong>{minStayText('regular')} for regular servers</strong> and{' '}
            <strong>{minStayText('featured')} for featured servers</strong>. If you leave earlier, an{' '}
            <strong>early-leave penalty of {penaltyText('regular')} coins</strong> is deducted from your
            balance. Penalties may bring your balance below what you expected to spend.
          </Text>
          <Text>
            Server owners set their own rules. Being removed, kicked or banned from a server is between you
            and that server; we do not control other users' servers.
          </Text>
        </>
      ),
    },
    {
      heading: 'Campaigns',
      body: (
        <>
          <Text>You can spend coins to promote a Discord server you own or manage:</Text>
          <LegalList
            items={[
              'Regular campaign: 1 coin per member slot, minimum 3 coins.',
              `Featured placement: ${PROMOTION.costCoins} coins, which includes ${PROMOTION.slots} member slots and a spot in the Featured section.`,
              'No-bot campaign: 1 coin per member, minimum 3 members, for servers without our bot.',
            ]}
          />
          <Text>
            A campaign stays active until its member slots are used up. You may cancel a campaign at any time;{' '}
            <strong>cancellation cannot be undone and remaining slots are not refunded</strong>. We do not
            guarantee how quickly slots fill or how long members stay beyond the minimum periods above.
          </Text>
          <Text>
            Invite links must be valid and should be permanent (never expiring). We may remove any campaign
            that breaks these Terms or Discord's rules, without refund.
          </Text>
        </>
      ),
    },
    {
      heading: 'Purchases',
      body: (
        <>
          <Text>
            You can buy coin packs by card. Prices are shown in US dollars before you pay. Payments are
            processed by our payment provider, Stripe; your card details are handled by Stripe and never
            stored on our servers.
          </Text>
          <Text>
            <strong>All purchases are final and non-refundable</strong>, except where the law requires
            otherwise. Coins bought remain subject to these Terms, including that coins have no cash value.
            Chargebacks or fraudulent payments may lead to removal of the purchased coins and suspension of
            your account.
          </Text>
        </>
      ),
    },
    {
      heading: 'Acceptable use',
      body: (
        <>
          <Text>You agree not to:</Text>
          <LegalList
            items={[
              'use bots, scripts, alternate or fake accounts to earn coins or fill campaigns;',
              'promote servers that host illegal content, spam, scams, malware, harassment or sexual content involving minors;',
              'exploit bugs, interfere with the service or try to access other users’ accounts or data;',
              'buy, sell or trade coins or accounts outside the service;',
              'break Discord’s Terms of Service or Community Guidelines.',
            ]}
          />
          <Text>
            We may suspend or terminate accounts, remove coins and cancel campaigns that break these rules.
            You may stop using {P} and delete your account at any time.
          </Text>
        </>
      ),
    },
    {
      heading: 'Availability and changes',
      body: (
        <Text>
          We work to keep {P} running but provide it "as is" and "as available", without warranties of any
          kind, to the extent the law allows. Features, reward amounts and prices may change. If we change
          these Terms in a material way we will update the date above and, where appropriate, tell you in the
          service. Continuing to use {P} after a change means you accept the updated Terms.
        </Text>
      ),
    },
    {
      heading: 'Limitation of liability',
      body: (
        <Text>
          To the fullest extent permitted by law, {P} is not liable for indirect, incidental, special,
          consequential or punitive damages, or for lost profits, data or goodwill. Our total liability for
          any claim relating to the service is limited to{' '}
          <strong>the greater of the amounts you paid us in the 12 months before the claim or $100</strong>.
          Some jurisdictions do not allow these limits, so they may not apply to you.
        </Text>
      ),
    },
    {
      heading: 'Contact',
      body: (
        <Text>
          Questions about these Terms? Reach us through our{' '}
          <ExternalLink href={supportUrl}>support community</ExternalLink>.
        </Text>
      ),
    },
  ];
}

export default function TermsPage() {
  const { config } = usePublicConfig();
  return (
    <LegalPage
      title="Terms of Service"
      metaDescription={`The rules for using ${P}: eligibility, coins, campaigns, purchases and your responsibilities.`}
      lastUpdated="October 19, 2025"
      intro={
        <Text>
          Welcome to {P}. Please read these Terms carefully: they explain how coins, campaigns and purchases
          work and what we expect from everyone in the community.
        </Text>
      }
      sections={buildSections(config?.supportUrl || DEFAULT_SUPPORT_URL)}
    />
  );
}
