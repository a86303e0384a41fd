import { useTranslation } from 'react-i18next';
import { LegalItem, LegalList, LegalPage, LegalSection, LegalText } from '../components/legal-page.tsx';
import { PRODUCT_NAME } from '../lib/brand.ts';

// The Privacy Policy in the reader's language (decision 061): English is the source, every text a
// `legal.privacy` key.

export default function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <LegalPage
      title={t('legal.privacy.title')}
      metaDescription={t('legal.privacy.metaDescription', { product: PRODUCT_NAME })}
      lastUpdated="2025-10-19"
      intro={<LegalText i18nKey="legal.privacy.intro" />}
    >
      <LegalSection i18nKey="legal.privacy.who.heading">
        <LegalText i18nKey="legal.privacy.who.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.discord.heading">
        <LegalText i18nKey="legal.privacy.discord.intro" />
        <LegalList>
          <LegalItem i18nKey="legal.privacy.discord.profile" />
          <LegalItem i18nKey="legal.privacy.discord.email" />
          <LegalItem i18nKey="legal.privacy.discord.guilds" />
          <LegalItem i18nKey="legal.privacy.discord.joins" />
        </LegalList>
        <LegalText i18nKey="legal.privacy.discord.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.created.heading">
        <LegalList>
          <LegalItem i18nKey="legal.privacy.created.transactions" />
          <LegalItem i18nKey="legal.privacy.created.servers" />
          <LegalItem i18nKey="legal.privacy.created.joins" />
          <LegalItem i18nKey="legal.privacy.created.communication" />
          <LegalItem i18nKey="legal.privacy.created.security" />
        </LegalList>
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.payments.heading">
        <LegalText i18nKey="legal.privacy.payments.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.cookies.heading">
        <LegalText i18nKey="legal.privacy.cookies.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.use.heading">
        <LegalList>
          <LegalItem i18nKey="legal.privacy.use.account" />
          <LegalItem i18nKey="legal.privacy.use.verify" />
          <LegalItem i18nKey="legal.privacy.use.purchases" />
          <LegalItem i18nKey="legal.privacy.use.messages" />
          <LegalItem i18nKey="legal.privacy.use.security" />
        </LegalList>
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.sharing.heading">
        <LegalText i18nKey="legal.privacy.sharing.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.retention.heading">
        <LegalList>
          <LegalItem i18nKey="legal.privacy.retention.transactions" />
          <LegalItem i18nKey="legal.privacy.retention.communication" />
          <LegalItem i18nKey="legal.privacy.retention.security" />
        </LegalList>
        <LegalText i18nKey="legal.privacy.retention.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.security.heading">
        <LegalText i18nKey="legal.privacy.security.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.rights.heading">
        <LegalText i18nKey="legal.privacy.rights.p1" />
        <LegalText i18nKey="legal.privacy.rights.p2" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.children.heading">
        <LegalText i18nKey="legal.privacy.children.p1" />
      </LegalSection>
      <LegalSection i18nKey="legal.privacy.changes.heading">
        <LegalText i18nKey="legal.privacy.changes.p1" />
      </LegalSection>
    </LegalPage>
  );
}
