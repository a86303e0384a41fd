import { LegalPage, type LegalOutline } from '../components/legal-page.tsx';

// The Privacy Policy in the reader's language (decision 061): English is the source, every text a
// `legal.privacy` key.

const OUTLINE: LegalOutline<'privacy'> = [
  ['who', 'p1'],
  ['discord', 'intro', ['profile', 'email', 'guilds', 'joins'], 'p1'],
  ['created', ['transactions', 'servers', 'joins', 'communication', 'security']],
  ['payments', 'p1'],
  ['cookies', 'p1'],
  ['use', ['account', 'verify', 'purchases', 'messages', 'security']],
  ['sharing', 'p1'],
  ['retention', ['transactions', 'communication', 'security'], 'p1'],
  ['security', 'p1'],
  ['rights', 'p1', 'p2'],
  ['children', 'p1'],
  ['changes', 'p1'],
];

export default function PrivacyPage() {
  return <LegalPage document="privacy" lastUpdated="2025-10-19" outline={OUTLINE} />;
}
