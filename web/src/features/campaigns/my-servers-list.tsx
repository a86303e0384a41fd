import { Badge, Box, Button, Card, Flex, HStack, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ApiMyServer } from '@shared/campaign-schemas.ts';
import { PROMOTION } from '@shared/campaign-kinds.ts';
import { LuCircleCheck, LuStar } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { ServerAvatar } from '../../components/server-avatar.tsx';
import { useMyServers } from './use-my-servers.ts';
import { usePromoteServer } from './use-promote-server.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { useState } from 'react';
import { InviteExpiredPanel } from './invite-expired-panel.tsx';
import { LazyPromoteConfirmDialog, preloadPromoteConfirm } from './lazy-promote-confirm.tsx';
import { ListControls, ShowMore, useListControls } from './list-controls.tsx';
import { TopUpButton } from './top-up-dialog.tsx';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

function statusBadge(campaign: ApiMyServer, t: TFunction) {
  if (campaign.canceled) return <Badge colorPalette="gray">{t('servers.canceled')}</Badge>;
  if (campaign.active && campaign.botRemoved)
    return <Badge colorPalette="orange">{t('servers.paused')}</Badge>;
  if (campaign.active && campaign.inviteExpired)
    return <Badge colorPalette="red">{t('servers.inviteExpired')}</Badge>;
  if (campaign.active) return <Badge colorPalette="green">{t('servers.active')}</Badge>;
  if (campaign.initialMemberSlots === 0)
    return <Badge colorPalette="orange">{t('servers.notPromoted')}</Badge>;
  return <Badge colorPalette="blue">{t('servers.completed')}</Badge>;
}

/** Shown instead of the completion DM when Discord would not deliver it to the owner. */
export function completionNotice(campaign: ApiMyServer, t: TFunction): string {
  return t('servers.completionNotice', { count: campaign.initialMemberSlots });
}

/** Name, badges, slots left, and what needs the owner (bot removed, invite expired, DM not sent). */
function CampaignSummary({ campaign }: { campaign: ApiMyServer }) {
  const { t } = useTranslation();
  return (
    <Box minW="0">
      <Text fontWeight="semibold" truncate>
        {campaign.name}
      </Text>
      <HStack gap="1.5" mt="1" wrap="wrap">
        {statusBadge(campaign, t)}
        {campaign.isFeatured ? (
          <Badge colorPalette="gold">
            <LuStar /> {t('servers.featured')}
          </Badge>
        ) : null}
        {campaign.serverId === null ? <Badge colorPalette="gray">{t('servers.noBot')}</Badge> : null}
        <Text as="span" textStyle="xs" color="fg.subtle">
          {t('servers.slotsLeft', { left: campaign.membersRemaining, count: campaign.initialMemberSlots })}
        </Text>
      </HStack>
      {campaign.active && campaign.botRemoved ? (
        <Text textStyle="xs" color="orange.fg" mt="1">
          {t('servers.botRemoved')}
        </Text>
      ) : null}
      {campaign.active && campaign.inviteExpired ? (
        <Box mt="2">
          <InviteExpiredPanel campaignId={campaign.id} name={campaign.name} compact />
        </Box>
      ) : null}
      {!campaign.active && !campaign.canceled && campaign.ownerUnreachable ? (
        <Text textStyle="xs" color="fg.muted" mt="1">
          {completionNotice(campaign, t)}
        </Text>
      ) : null}
    </Box>
  );
}

function CampaignRow({
  campaign,
  canAfford,
  promotePending,
  onPromote,
}: {
  campaign: ApiMyServer;
  canAfford: boolean;
  promotePending: boolean;
  onPromote: () => void;
}) {
  const { t } = useTranslation();
  const featuredHere = campaign.isFeatured && campaign.active;
  const noBot = campaign.serverId === null;
  return (
    <Flex
      as="li"
      gap="3"
      align={{ base: 'stretch', sm: 'center' }}
      direction={{ base: 'column', sm: 'row' }}
      py="3.5"
      borderBottomWidth="1px"
      borderColor="border.muted"
      _last={{ borderBottomWidth: 0 }}
      data-testid="my-server"
    >
      <HStack gap="3" flex="1" minW="0">
        <ServerAvatar name={campaign.name} iconUrl={campaign.iconUrl} size="md" />
        <CampaignSummary campaign={campaign} />
      </HStack>
      {/* A campaign that ran out is refilled here (My Campaigns lists running ones only). */}
      {!campaign.active && !campaign.canceled && campaign.initialMemberSlots > 0 ? (
        <TopUpButton campaign={campaign} />
      ) : null}
      {noBot || campaign.canceled ? null : featuredHere || campaign.featuredElsewhere ? (
        <HStack color="gold.fg" gap="1.5" textStyle="sm" fontWeight="medium" flexShrink={0} justify="center">
          <LuCircleCheck /> {featuredHere ? t('servers.alreadyFeatured') : t('servers.featuredElsewhere')}
        </HStack>
      ) : (
        <Button
          size="sm"
          colorPalette="gold"
          variant="subtle"
          onClick={onPromote}
          onPointerEnter={preloadPromoteConfirm}
          onFocus={preloadPromoteConfirm}
          disabled={!canAfford || promotePending}
          flexShrink={0}
          aria-label={t('servers.promoteNamed', { name: campaign.name, count: PROMOTION.costCoins })}
        >
          <LuStar /> {t('servers.promote', { count: PROMOTION.costCoins })}
        </Button>
      )}
    </Flex>
  );
}

/** Dashboard "My Servers": every submitted server with a Promote (100 coins) button. */
export function MyServersList({ balanceCents }: { balanceCents: number }) {
  const { t } = useTranslation();
  const { data, isLoading, isError, refetch } = useMyServers();
  const promote = usePromoteServer();
  const [confirming, setConfirming] = useState<{ id: string; name: string } | null>(null);
  // Kept after close so the dialog's title does not go blank while it animates out.
  const [lastName, setLastName] = useState<string | null>(null);
  const campaigns = (data ?? []).filter((s) => !s.canceled);
  const list = useListControls(campaigns);
  const canAfford = balanceCents >= PROMOTION.costCoins * 100;

  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Header pb="0">
        <Flex justify="space-between" align="center" gap="3">
          <Heading as="h2" textStyle="lg" fontWeight="semibold">
            {t('dashboard.myServers')}
          </Heading>
          {!canAfford && campaigns.length > 0 ? (
            <Text textStyle="xs" color="fg.subtle">
              {t('servers.promotingNeeds', { count: PROMOTION.costCoins })}
            </Text>
          ) : null}
        </Flex>
      </Card.Header>
      <Card.Body pt="2">
        {isLoading ? (
          <Stack gap="3" py="2">
            <Skeleton h="12" />
            <Skeleton h="12" />
          </Stack>
        ) : isError ? (
          <ErrorState size="sm" title={t('servers.loadFailed')} onRetry={() => void refetch()} />
        ) : campaigns.length === 0 ? (
          <NoServers />
        ) : (
          <>
            <ListHead list={list} />
            <Box as="ul" listStyleType="none">
              {list.visible.map((campaign) => (
                <CampaignRow
                  key={campaign.id}
                  campaign={campaign}
                  canAfford={canAfford}
                  promotePending={promote.isPending}
                  onPromote={() => {
                    setConfirming({ id: campaign.id, name: campaign.name });
                    setLastName(campaign.name);
                  }}
                />
              ))}
            </Box>
            {list.hasMore ? (
              <ShowMore shown={list.visible.length} total={list.matched.length} onMore={list.showMore} />
            ) : null}
          </>
        )}
      </Card.Body>
      <LazyPromoteConfirmDialog
        serverName={confirming?.name ?? lastName}
        balanceCents={balanceCents}
        open={confirming !== null}
        pending={promote.isPending}
        onClose={() => setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          promote.mutate(confirming.id, { onSettled: () => setConfirming(null) });
        }}
      />
    </Card.Root>
  );
}

function NoServers() {
  const { t } = useTranslation();
  return (
    <EmptyState
      title={t('servers.emptyTitle')}
      description={t('servers.emptyText')}
      action={
        <Button asChild colorPalette="brand" size="sm">
          <RouterLink to="/submit">{t('dashboard.submitServer')}</RouterLink>
        </Button>
      }
    />
  );
}

/** Search and sort (over many servers), and "no match". */
function ListHead({ list }: { list: ReturnType<typeof useListControls<ApiMyServer>> }) {
  const { t } = useTranslation();
  return (
    <>
      {list.showControls ? (
        <Box mt="2" mb="-2">
          <ListControls
            label={t('servers.listLabel')}
            query={list.query}
            onQuery={list.setQuery}
            sort={list.sort}
            onSort={list.setSort}
          />
        </Box>
      ) : null}
      {list.matched.length === 0 ? (
        <Text color="fg.muted" textAlign="center" py="6">
          {t('servers.noMatch', { query: list.query })}
        </Text>
      ) : null}
    </>
  );
}
