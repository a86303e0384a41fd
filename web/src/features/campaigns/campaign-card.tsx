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
import { LuBot, LuExternalLink, LuStar } from 'react-icons/lu';
import { ServerAvatar } from '../../components/server-avatar.tsx';
import { formatCoins } from '../../lib/format.ts';
import { InviteExpiredPanel } from './invite-expired-panel.tsx';
import { CAMPAIGN_KIND_RULES, rewardText } from '@shared/campaign-kinds.ts';

function Figure({ label, value }: { label: string; value: string | number }) {
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

/** One active campaign on My Campaigns. */
export function CampaignCard({ campaign, onCancel }: { campaign: ApiCampaign; onCancel: () => void }) {
  const total = Math.max(campaign.initialMemberSlots, campaign.membersRemaining);
  const filled = total - campaign.membersRemaining;
  const percent = total > 0 ? Math.round((filled / total) * 100) : 0;
  return (
    <Card.Root
      as="article"
      variant="outline"
      bg="bg.panel"
      borderColor={campaign.isFeatured ? 'gold.emphasized' : 'border'}
      borderRadius="xl"
      aria-label={campaign.name}
      data-testid="campaign-card"
    >
      <Card.Body gap="4" p={{ base: '4', md: '5' }}>
        <Flex gap="3" align="center">
          <ServerAvatar name={campaign.name} iconUrl={campaign.iconUrl} size="md" />
          <Stack gap="1" minW="0" flex="1">
            <Text as="h2" fontWeight="semibold" textStyle="lg" truncate>
              {campaign.name}
            </Text>
            <HStack gap="1.5">
              {campaign.isFeatured ? (
                <Badge colorPalette="gold">
                  <LuStar /> Featured
                </Badge>
              ) : null}
              {campaign.botRemoved ? (
                <Badge colorPalette="orange">Paused</Badge>
              ) : campaign.inviteExpired ? (
                <Badge colorPalette="red">Invite expired</Badge>
              ) : (
                <Badge colorPalette="green">Active</Badge>
              )}
              {campaign.serverId === null ? <Badge colorPalette="gray">No Bot</Badge> : null}
            </HStack>
          </Stack>
        </Flex>
        {campaign.botRemoved ? (
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
              Bot removed — invite the bot again to resume
            </Text>
            {campaign.botInviteUrl ? (
              <Button asChild size="sm" colorPalette="orange" flexShrink={0}>
                <a href={campaign.botInviteUrl} target="_blank" rel="noopener noreferrer">
                  <LuBot /> Invite Bot <LuExternalLink />
                </a>
              </Button>
            ) : null}
          </Flex>
        ) : null}
        {campaign.inviteExpired ? <InviteExpiredPanel campaignId={campaign.id} name={campaign.name} /> : null}
        <SimpleGrid columns={2} gap="2">
          <Figure label="Joins via Website" value={campaign.joinCount} />
          <Figure label="Slots Remaining" value={campaign.membersRemaining} />
          <Figure label="Coin Reward" value={formatCoins(campaign.coinReward, rewardText('regular'))} />
          <Figure
            label="Type"
            value={CAMPAIGN_KIND_RULES[campaign.kind === 'nobot' ? 'regular' : campaign.kind].label}
          />
        </SimpleGrid>
        <Stack gap="1.5">
          <Flex justify="space-between" textStyle="xs" color="fg.muted">
            <Text>Slots filled</Text>
            <Text fontVariantNumeric="tabular-nums">
              {filled} / {total}
            </Text>
          </Flex>
          <Progress.Root
            value={percent}
            max={100}
            size="sm"
            colorPalette={campaign.isFeatured ? 'gold' : 'brand'}
            aria-label={`${campaign.name}: ${percent}% of slots filled`}
          >
            <Progress.Track borderRadius="full">
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </Stack>
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
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            onClick={onCancel}
            aria-label={`Cancel ${campaign.name}`}
            data-cancel-campaign=""
          >
            Cancel
          </Button>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
