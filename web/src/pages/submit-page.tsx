import { Card, Stack, Tabs, Text } from '@chakra-ui/react';
import { parseMoney } from '@shared/money.ts';
import { useState } from 'react';
import { LuServer, LuStar, LuUnplug } from 'react-icons/lu';
import { useSearchParams } from 'react-router';
import { CoinAmount } from '../components/coin-amount.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { BotInvitePanel } from '../features/campaigns/bot-invite-panel.tsx';
import { FeaturedForm } from '../features/campaigns/featured-form.tsx';
import { PerMemberForm } from '../features/campaigns/per-member-form.tsx';
import { ServerPicker } from '../features/campaigns/server-picker.tsx';
import type { ApiManageableGuild } from '@shared/campaign-schemas.ts';
import { useAuth } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { minStayDays, PROMOTION, rewardText } from '@shared/campaign-kinds.ts';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../lib/format.ts';
import { useLocale } from '../lib/i18n.ts';

const TABS = ['regular', 'featured', 'nobot'] as const;
type Tab = (typeof TABS)[number];

export default function SubmitPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.submit'));
  const tabIntro = useTabIntros();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'regular';
  const [missingInviteUrl, setMissingInviteUrl] = useState<string | null>(null);
  const [picked, setPicked] = useState<ApiManageableGuild | null>(null);
  // The invite our bot made for a picked server (the picker's "Create invite link").
  const [created, setCreated] = useState<{ guildId: string; link: string } | null>(null);
  const prefillInvite = created && created.guildId === picked?.id ? created.link : undefined;
  // Picking a server or getting its invite refills the forms.
  const formKey = `${picked?.id ?? ''}:${prefillInvite ?? ''}`;

  const balanceText = user?.coins ?? '0.00';
  const balanceCents = parseMoney(balanceText) ?? 0;
  const formProps = {
    balanceCents,
    balanceText,
    onBotMissing: setMissingInviteUrl,
    prefillName: picked?.name,
    prefillInvite,
  };

  function selectTab(next: string) {
    setMissingInviteUrl(null);
    setParams(next === 'regular' ? {} : { tab: next }, { replace: true });
  }

  return (
    <Stack gap="6" maxW="3xl" mx="auto">
      <PageHeader
        title={t('submit.title')}
        subtitle={t('submit.subtitle')}
        actions={<Balance text={balanceText} />}
      />
      <ServerPicker
        picked={picked}
        onPick={setPicked}
        needsBot={tab !== 'nobot'}
        inviteLink={prefillInvite}
        onInviteCreated={(guildId, link) => setCreated({ guildId, link })}
      />
      {tab !== 'nobot' ? (
        <BotInvitePanel missingInviteUrl={missingInviteUrl} onInvited={() => setMissingInviteUrl(null)} />
      ) : null}
      <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="2xl" overflow="hidden">
        <Tabs.Root
          value={tab}
          onValueChange={(e) => selectTab(e.value)}
          variant="line"
          colorPalette="brand"
          fitted
          lazyMount
        >
          <TabList />
          {TABS.map((value) => (
            <Tabs.Content key={value} value={value} p={{ base: '4', md: '8' }} pt={{ base: '5', md: '6' }}>
              <Text color="fg.muted" textStyle="sm" mb="6">
                {tabIntro[value]}
              </Text>
              {/* Keyed by the picked server and its invite: picking one refills the fields. */}
              {value === 'featured' ? (
                <FeaturedForm key={formKey} {...formProps} />
              ) : (
                <PerMemberForm key={formKey} kind={value} {...formProps} />
              )}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </Card.Root>
    </Stack>
  );
}

/** Each tab's first line: what that kind of campaign pays members and asks of them. */
function useTabIntros(): Record<Tab, string> {
  const { t } = useTranslation();
  const locale = useLocale();
  return {
    regular: t('submit.intro.regular', {
      reward: formatAmount(rewardText('regular'), locale),
      count: minStayDays('regular'),
    }),
    featured: t('submit.intro.featured', {
      slots: PROMOTION.slots,
      reward: formatAmount(rewardText('featured'), locale),
      count: minStayDays('featured'),
    }),
    nobot: t('submit.intro.nobot', { reward: formatAmount(rewardText('nobot'), locale) }),
  };
}

function Balance({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="0" align={{ base: 'flex-start', sm: 'flex-end' }}>
      <Text textStyle="xs" color="fg.subtle" textTransform="uppercase" letterSpacing="wider">
        {t('submit.balance')}
      </Text>
      <CoinAmount value={text} size="lg" />
    </Stack>
  );
}

function TabList() {
  const { t } = useTranslation();
  return (
    <Tabs.List bg="bg.subtle" px={{ base: '1', md: '3' }}>
      <Tabs.Trigger value="regular" py="6">
        <LuServer /> {t('submit.tabs.regular')}
      </Tabs.Trigger>
      <Tabs.Trigger value="featured" py="6">
        <LuStar /> {t('submit.tabs.featured')}
      </Tabs.Trigger>
      <Tabs.Trigger value="nobot" py="6">
        <LuUnplug /> {t('submit.tabs.nobot')}
      </Tabs.Trigger>
    </Tabs.List>
  );
}
