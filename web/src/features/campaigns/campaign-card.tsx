import {
  Badge,
  Box,
  Button,
  Card,
  Flex,
  HStack,
  Link,
  Progress,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { ApiCampaign } from '@shared/api-types.ts';
import { forwardRef, type ReactNode } from 'react';
import { LuBot, LuCopy, LuExternalLink, LuStar } from 'react-icons/lu';
import { ServerAvatar } from '../../components/server-avatar.tsx';
import { formatAmount, formatCoins } from '../../lib/format.ts';
import { toast } from '../../lib/toaster.tsx';
import { InviteExpiredPanel } from './invite-expired-panel.tsx';
import { TopUpButton } from './top-up-dialog.tsx';
import { preloadPromoteConfirm } from './lazy-promote-confirm.tsx';
import { QualityButton } from './campaign-quality.tsx';
import { NotificationsButton } from './notifications-dialog.tsx';
import { CAMPAIGN_KIND_RULES, PROMOTION, rewardText } from '@shared/campaign-kinds.ts';
import { campaignPace, etaText, paceText } from './campaign-pace.ts';
import { campaignKindLabel } from './kind-label.ts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { campaignKeys } from '../../lib/query-keys.ts';
import { recheckWhenBack } from '../../lib/recheck-when-back.ts';
import { i18n, useLocale } from '../../lib/i18n.ts';
import { useTranslation } from 'react-i18next';

function invalidateCampaignLists(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: campaignKeys.list() }),
    queryClient.invalidateQueries({ queryKey: campaignKeys.myServers() }),
  ]);
}

/** Copies a campaign's invite link to the clipboard and says so. */
export async function copyInvite(inviteLink: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(inviteLink);
    toast({ title: i18n.t('campaigns.card.copied'), description: inviteLink, variant: 'success' });
  } catch {
    toast({ title: i18n.t('campaigns.card.copyFailed'), description: inviteLink, variant: 'destructive' });
  }
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Box bg="bg.subtle" borderRadius="lg" px="3" py="2.5" borderWidth="1px" borderColor="border.muted">
      <Text textStyle="xs" color="fg.subtle">
        {label}
      </Text>
      <Text fontWeight="semibold" fontVariantNumeric="tabular-nums">
        {value}
      </Text>
    </Box>
  );
}

export interface CampaignCardProps {
  campaign: ApiCampaign;
  onCancel: () => void;
  /** Opens the promote confirmation; absent: no Promote button. */
  onPromote?: (() => void) | undefined;
  /** Promote needs 100 coins; false disables the button and says why. */
  canAffordPromote?: boolean;
  promotePending?: boolean;
  /** Just submitted: outlined, with what happens next. */
  highlighted?: boolean;
  now: number;
}

/** One active campaign on My Campaigns. */
export const CampaignCard = forwardRef<HTMLDivElement, CampaignCardProps>(function CampaignCard(
  {
    campaign,
    onCancel,
    onPromote,
    canAffordPromote = true,
    promotePending = false,
    highlighted = false,
    now,
  },
  ref,
) {
  const total = Math.max(campaign.initialMemberSlots, campaign.membersRemaining);
  const { t } = useTranslation();
  return (
    <Card.Root
      ref={ref}
      as="article"
      variant="outline"
      bg="bg.panel"
      borderColor={highlighted ? 'brand.solid' : campaign.isFeatured ? 'gold.emphasized' : 'border'}
      borderWidth={highlighted ? '2px' : undefined}
      boxShadow={highlighted ? '0 0 0 4px {colors.brand.subtle}' : undefined}
      borderRadius="xl"
      aria-label={campaign.name}
      data-testid="campaign-card"
      data-highlighted={highlighted ? '' : undefined}
      scrollMarginTop="24"
      scrollMarginBottom="24"
    >
      <Card.Body gap="4" p={{ base: '4', md: '5' }}>
        <CardTitle campaign={campaign} />
        {campaign.botRemoved ? <BotRemovedPanel campaign={campaign} /> : null}
        {highlighted ? (
          <Box
            role="status"
            bg="brand.subtle"
            borderRadius="lg"
            px="3"
            py="2.5"
            textStyle="sm"
            data-testid="what-happens-next"
          >
            <Text fontWeight="semibold">{t('campaigns.card.nextTitle')}</Text>
            <Text color="fg.muted">
              {CAMPAIGN_KIND_RULES[campaign.kind].needsBot
                ? t('campaigns.card.nextBot', { reward: rewardText(campaign.kind), count: total })
                : t('campaigns.card.nextNoBot', { count: total })}
            </Text>
          </Box>
        ) : null}
        {campaign.inviteExpired ? <InviteExpiredPanel campaignId={campaign.id} name={campaign.name} /> : null}
        <CampaignProgress campaign={campaign} now={now} />
        <Flex gap="3" align="center" justify="space-between" wrap="wrap">
          <Link
            href={campaign.inviteLink}
            target="_blank"
            rel="noopener noreferrer"
            color="brand.fg"
            textStyle="sm"
            minW="0"
            maxW="full"
          >
            <Text as="span" truncate>
              {campaign.inviteLink}
            </Text>
            <LuExternalLink />
          </Link>
        </Flex>
        <CardButtons
          campaign={campaign}
          onCancel={onCancel}
          onPromote={onPromote}
          canAffordPromote={canAffordPromote}
          promotePending={promotePending}
        />
      </Card.Body>
    </Card.Root>
  );
});

/** Icon, name and the badges: featured, paused / invite expired / active, no-bot. */
function CardTitle({ campaign }: { campaign: ApiCampaign }) {
  const { t } = useTranslation();
  return (
    <Flex gap="3" align="center">
      <ServerAvatar name={campaign.name} iconUrl={campaign.iconUrl} size="md" />
      <Stack gap="1" minW="0" flex="1">
        <Text as="h2" fontWeight="semibold" textStyle="lg" truncate>
          {campaign.name}
        </Text>
        <HStack gap="1.5">
          {campaign.isFeatured ? (
            <Badge colorPalette="gold">
              <LuStar /> {t('campaigns.card.featured')}
            </Badge>
          ) : null}
          {campaign.botRemoved ? (
            <Badge colorPalette="orange">{t('campaigns.card.paused')}</Badge>
          ) : campaign.inviteExpired ? (
            <Badge colorPalette="red">{t('campaigns.card.inviteExpired')}</Badge>
          ) : (
            <Badge colorPalette="green">{t('campaigns.card.active')}</Badge>
          )}
          {campaign.serverId === null ? <Badge colorPalette="gray">{t('campaigns.card.noBot')}</Badge> : null}
        </HStack>
      </Stack>
    </Flex>
  );
}

/** The bot was removed from the server: the campaign is paused until it is invited back. */
function BotRemovedPanel({ campaign }: { campaign: ApiCampaign }) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return (
    <Flex
      role="status"
      gap="3"
      align={{ base: 'stretch', sm: 'center' }}
      direction={{ base: 'column', sm: 'row' }}
      bg="orange.subtle"
      borderWidth="1px"
      borderColor="orange.emphasized"
      borderRadius="lg"
      px="3"
      py="2.5"
    >
      <Text textStyle="sm" color="orange.fg" flex="1">
        {t('campaigns.card.botRemoved')}
      </Text>
      {campaign.botInviteUrl ? (
        <Button asChild size="sm" colorPalette="orange" flexShrink={0}>
          <a
            href={campaign.botInviteUrl}
            target="_blank"
            rel="noopener noreferrer"
            // Back from Discord with the bot added: the campaign lists are asked again, so this
            // panel goes away by itself (the server resumes the campaign when the bot arrives).
            onClick={() => recheckWhenBack(() => void invalidateCampaignLists(queryClient))}
          >
            <LuBot /> {t('campaigns.card.inviteBot')} <LuExternalLink />
          </a>
        </Button>
      ) : null}
    </Flex>
  );
}

/** The figures (joins, slots, reward, type, pace, ETA) and the slots-filled bar. */
function CampaignProgress({ campaign, now }: { campaign: ApiCampaign; now: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const total = Math.max(campaign.initialMemberSlots, campaign.membersRemaining);
  const filled = total - campaign.membersRemaining;
  const percent = total > 0 ? Math.round((filled / total) * 100) : 0;
  const pace = campaignPace(campaign, now);
  return (
    <>
      <SimpleGrid columns={2} gap="2">
        <Figure label={t('campaigns.card.joins')} value={campaign.joinCount} />
        <Figure label={t('campaigns.card.slotsRemaining')} value={campaign.membersRemaining} />
        <Figure
          label={t('campaigns.card.coinReward')}
          value={formatAmount(formatCoins(campaign.coinReward, rewardText('regular')), locale)}
        />
        <Figure label={t('campaigns.card.type')} value={campaignKindLabel(campaign.kind, t)} />
        <Figure label={t('campaigns.card.pace')} value={paceText(pace, t, locale)} />
        <Figure label={t('campaigns.card.eta')} value={etaText(pace, t)} />
      </SimpleGrid>
      <Stack gap="1.5">
        <Flex justify="space-between" textStyle="xs" color="fg.muted">
          <Text>{t('campaigns.card.slotsFilled')}</Text>
          <Text fontVariantNumeric="tabular-nums">
            {filled} / {total}
          </Text>
        </Flex>
        <Progress.Root
          value={percent}
          max={100}
          size="sm"
          colorPalette={campaign.isFeatured ? 'gold' : 'brand'}
          aria-label={t('campaigns.card.progressLabel', { name: campaign.name, percent })}
        >
          <Progress.Track borderRadius="full">
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      </Stack>
    </>
  );
}

/** Copy, Promote, Top up, Quality, Notifications and Cancel. */
function CardButtons({
  campaign,
  onCancel,
  onPromote,
  canAffordPromote,
  promotePending,
}: Pick<CampaignCardProps, 'campaign' | 'onCancel' | 'onPromote'> & {
  canAffordPromote: boolean;
  promotePending: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Flex gap="2" wrap="wrap">
      <Button
        size="sm"
        variant="subtle"
        colorPalette="gray"
        onClick={() => void copyInvite(campaign.inviteLink)}
        aria-label={t('campaigns.card.copyLabel', { name: campaign.name })}
      >
        <LuCopy /> {t('campaigns.card.copy')}
      </Button>
      {onPromote ? (
        <Button
          size="sm"
          variant="subtle"
          colorPalette="gold"
          onClick={onPromote}
          onPointerEnter={preloadPromoteConfirm}
          onFocus={preloadPromoteConfirm}
          disabled={!canAffordPromote || promotePending}
          title={
            canAffordPromote ? undefined : t('campaigns.card.promoteNeeds', { coins: PROMOTION.costCoins })
          }
          aria-label={t('campaigns.card.promoteLabel', {
            name: campaign.name,
            coins: PROMOTION.costCoins,
          })}
        >
          <LuStar /> {t('campaigns.card.promote')}
        </Button>
      ) : null}
      <TopUpButton campaign={campaign} />
      <QualityButton campaignId={campaign.id} name={campaign.name} />
      <NotificationsButton campaign={campaign} />
      <Button
        size="sm"
        variant="outline"
        colorPalette="red"
        onClick={onCancel}
        aria-label={t('campaigns.card.cancelLabel', { name: campaign.name })}
        data-cancel-campaign=""
        ms="auto"
      >
        {t('campaigns.card.cancel')}
      </Button>
    </Flex>
  );
}
