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

const P = PRODUCT_NAME;

// eslint-disable-next-line max-lines-per-function -- a declarative table: the Privacy Policy, section after section, as the reader reads them
function buildSections(supportUrl: string): LegalSection[] {
  return [
    {
      heading: 'Who we are',
      body: (
        <Text>
          {P} is a platform where Discord community members earn coins and spend them to grow their servers.
          This Privacy Policy explains what personal data we collect, why, how long we keep it and the choices
          you have. {P} is not affiliated with, endorsed by, or sponsored by Discord Inc.
        </Text>
      ),
    },
    {
      heading: 'Data we get from Discord',
      body: (
        <>
          <Text>
            You sign in with Discord. We never ask for or see your Discord password. With your permission,
            Discord shares:
          </Text>
          <LegalList
            items={[
              'your Discord username, user ID and avatar, to create your account and show your profile;',
              'your e-mail address, to contact you about your account, purchases and important changes;',
              'the list of servers (guilds) you belong to, so we can show which servers are yours and check joins;',
              'the ability to verify server joins, so we can confirm that you joined a server before awarding coins and detect early leaves.',
            ]}
          />
          <Text>We do not read your messages, and we do not post or act on Discord on your behalf.</Text>
        </>
      ),
    },
    {
      heading: 'Data we create while you use the service',
      body: (
        <LegalList
          items={[
            'Coin transactions: rewards, joins, penalties, campaign spending and purchases, with amounts and dates.',
            'Servers and campaigns you submit: name, invite link, icon and progress.',
            'Server joins and social task completions, including when you joined or left.',
            'Communication logs: messages we send you (for example, campaign completion notices) and your support requests.',
            'Security logs: sign-ins, IP addresses, device and browser information, used to protect accounts and prevent abuse.',
          ]}
        />
      ),
    },
    {
      heading: 'Payments',
      body: (
        <Text>
          Card payments are processed by Stripe. Your card data is entered into Stripe's secure form and
          handled by Stripe; it never touches or is stored on our servers. We receive only what we need to
          record the purchase, such as the package, amount, payment status and a payment reference. Stripe's
          use of your data is governed by its own privacy policy.
        </Text>
      ),
    },
    {
      heading: 'Cookies and browser storage',
      body: (
        <Text>
          We use a session cookie to keep you signed in; it is essential and the service does not work without
          it. We also keep short-lived entries in your browser's local storage (pending reward claims for
          no-bot joins and social tasks) so that a reward is retried if you close or refresh the page. We do
          not use advertising cookies.
        </Text>
      ),
    },
    {
      heading: 'How we use your data',
      body: (
        <LegalList
          items={[
            'to run your account, balance, campaigns and rewards;',
            'to verify joins, apply minimum stays and early-leave penalties, and prevent fraud and abuse;',
            'to process purchases and keep financial records;',
            'to send service messages and answer support requests;',
            'to keep the service secure and comply with the law.',
          ]}
        />
      ),
    },
    {
      heading: 'Sharing',
      body: (
        <Text>
          We do not sell your personal data. We share it only with providers who help us run {P} (hosting,
          Discord for sign-in and join verification, Stripe for payments), under contracts that protect it,
          and when the law requires it. Other users see only what the product shows publicly, such as the
          names and icons of servers listed in campaigns.
        </Text>
      ),
    },
    {
      heading: 'How long we keep data',
      body: (
        <>
          <LegalList
            items={[
              <>
                Transaction records: <strong>7 years</strong>, to meet accounting and tax obligations.
              </>,
              <>
                Communication logs: <strong>2 years</strong>.
              </>,
              <>
                Security logs: <strong>1 year</strong>.
              </>,
            ]}
          />
          <Text>
            When you delete your account, we delete or anonymise your personal data{' '}
            <strong>within 30 days</strong>, except the records above that we must keep for the stated
            periods.
          </Text>
        </>
      ),
    },
    {
      heading: 'Security',
      body: (
        <Text>
          We protect your data with encryption in transit, access controls and monitoring. No system is
          perfectly secure; if a data breach affects your personal data, we will notify you and the relevant
          authorities <strong>within 72 hours</strong> of becoming aware of it, where the law requires.
        </Text>
      ),
    },
    {
      heading: 'Your rights',
      body: (
        <>
          <Text>
            Depending on where you live (for example under the GDPR in the EU/UK or the CCPA in California),
            you may have the right to access, correct, delete or export your personal data, to object to or
            restrict some processing, and to withdraw consent. California residents may also ask what personal
            information we collect and how we use it; we do not sell or share personal information for
            targeted advertising.
          </Text>
          <Text>
            Send requests through our <ExternalLink href={supportUrl}>support community</ExternalLink>. We
            answer within <strong>30 days</strong> (<strong>45 days</strong> for CCPA requests). You can also
            revoke {P}'s access at any time in Discord under User Settings → Authorized Apps.
          </Text>
        </>
      ),
    },
    {
      heading: 'Children',
      body: (
        <Text>
          {P} is not for children under 13, and we do not knowingly collect their data. Users under 18 need
          permission from a parent or guardian. If you believe a child under 13 has an account, contact us and
          we will delete it.
        </Text>
      ),
    },
    {
      heading: 'Changes and contact',
      body: (
        <Text>
          We will update the date at the top when this policy changes and tell you in the service about
          important changes. For questions, contact us through our{' '}
          <ExternalLink href={supportUrl}>support community</ExternalLink>. See also our{' '}
          <LegalLink to="/terms">Terms of Service</LegalLink>.
        </Text>
      ),
    },
  ];
}

export default function PrivacyPage() {
  const { config } = usePublicConfig();
  return (
    <LegalPage
      title="Privacy Policy"
      metaDescription={`How ${P} collects, uses, keeps and protects your data, and the privacy rights you have.`}
      lastUpdated="October 19, 2025"
      intro={
        <Text>
          Your privacy matters to us. We collect only what we need to run {P}, keep it safe and delete it when
          it is no longer needed.
        </Text>
      }
      sections={buildSections(config?.supportUrl || DEFAULT_SUPPORT_URL)}
    />
  );
}
