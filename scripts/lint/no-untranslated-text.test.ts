import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import rule from './no-untranslated-text.js';

// The lint rule that keeps English literals out of the web app's components (decision 050).

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { ecmaFeatures: { jsx: true } },
  },
});
const tsx = (code: string) => ({ code, filename: 'component.tsx' });
const literal = { messageId: 'literal' } as const;

tester.run('no-untranslated-text', rule, {
  valid: [
    tsx(`const a = <Text>{t('campaigns.card.copy')}</Text>;`),
    tsx(`const a = <Trans i18nKey="submit.picker.manual" components={{ b: <b /> }} />;`),
    tsx(`const a = <Text>{count} · {total} — 42% +{amount} / ×</Text>;`),
    tsx(`const a = <Heading>CoinSync</Heading>;`),
    tsx(`const a = <Text>Discord · CoinSync</Text>;`),
    tsx(`const a = <Input placeholder="https://discord.com/api/webhooks/…" />;`),
    tsx(`const a = <Box className="card" textStyle="sm" color="fg.muted" justify="space-between" />;`),
    tsx(`const a = <Button aria-label={t('campaigns.card.copyLabel', { name })} title={undefined} />;`),
    tsx(`const a = <Button title={ok ? undefined : t('campaigns.card.promoteNeeds')} />;`),
    tsx(`const a = <Link labelKey="nav.discover" href="/discover" />;`),
    tsx(`toast({ title: i18n.t('campaigns.card.copied'), description: inviteLink, variant: 'success' });`),
    tsx(`const text = errorMessage(err, t('submit.picker.createFailed'));`),
    tsx(`const q = { queryKey: ['campaigns', 'quality'], staleTime: 60_000 };`),
    tsx(`const a = <Text>{'   '}</Text>;`),
    tsx(`const APPEARANCE = { variables: { colorText: '#f2f3f5', colorTextSecondary: '#A4AABB' } };`),
    {
      code: `const a = <Text>Acme Widgets</Text>;`,
      filename: 'component.tsx',
      options: [{ allow: ['Acme Widgets'] }],
    },
  ],
  invalid: [
    { ...tsx(`const a = <Button>Save</Button>;`), errors: [literal] },
    { ...tsx(`const a = <Text>Loading…</Text>;`), errors: [literal] },
    { ...tsx(`const a = <Text>Discord server</Text>;`), errors: [literal] },
    { ...tsx(`const a = <Text>{'Copy'}</Text>;`), errors: [literal] },
    { ...tsx(`const a = <Text>{removing ? ' It will be removed.' : ''}</Text>;`), errors: [literal] },
    { ...tsx(`const a = <Text>{\`\${n} members\`}</Text>;`), errors: [literal] },
    { ...tsx(`const a = <Button aria-label="Close" />;`), errors: [literal] },
    { ...tsx(`const a = <Button aria-label={\`Revoke \${name}\`} />;`), errors: [literal] },
    { ...tsx(`const a = <Button title={ok ? undefined : 'Save first'} />;`), errors: [literal] },
    { ...tsx(`const a = <Input placeholder="e.g. My script" />;`), errors: [literal] },
    { ...tsx(`const a = <Image alt="Server banner" />;`), errors: [literal] },
    { ...tsx(`const a = <Spinner aria-label={loading && 'Loading'} />;`), errors: [literal] },
    { ...tsx(`const a = <Button loadingText="Saving..." />;`), errors: [literal] },
    { ...tsx(`const a = <EmptyState emptyTitle="Nothing here" />;`), errors: [literal] },
    { ...tsx(`toast({ title: 'Token revoked', variant: 'success' });`), errors: [literal] },
    { ...tsx(`toast({ title: t('a.b'), description: \`+\${n} coins added\` });`), errors: [literal] },
    { ...tsx(`const ACTION = { label: 'My Joins', onClick } as const;`), errors: [literal] },
    {
      ...tsx(`const STATUS = { delivered: { label: 'Delivered', palette: 'green' } };`),
      errors: [literal],
    },
    { ...tsx(`const text = errorMessage(err, 'Failed to save');`), errors: [literal] },
    { ...tsx(`useDocumentTitle('Account');`), errors: [literal] },
    { ...tsx(`const a = <Text>Copy <b>now</b></Text>;`), errors: [literal, literal] },
  ],
});

describe('the project lint config', () => {
  it('applies the rule to every web component, and not to tests', async () => {
    const eslint = new ESLint();
    const severity = async (file: string) =>
      ((await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown> }).rules?.[
        'coinsync/no-untranslated-text'
      ];
    expect(await severity('web/src/features/campaigns/campaign-quality.tsx')).toEqual([2]);
    expect(await severity('web/src/features/campaigns/use-notifications.ts')).toEqual([2]);
    expect(await severity('web/src/lib/api.test.ts')).toBeUndefined();
    // A hang guard: loading the project's config (typescript-eslint and the plugins) took over 20 s at load ~20.
  }, 90_000);
});
