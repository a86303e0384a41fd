import { Badge, Box, Button, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type {
  ApiCampaignQuality,
  ApiQualityFigures,
  ApiQualityOverview,
  ApiRetentionPoint,
} from '@shared/quality.ts';
import { useQuery } from '@tanstack/react-query';
import { LuChartColumn, LuDownload } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { DialogButton, DialogShell } from '../../components/dialog-shell.tsx';
import { campaignKeys } from '../../lib/query-keys.ts';

// Issue 31 item 1: what became of the members an owner paid for. The summary sits on My Campaigns;
// each card's "Quality" opens the campaign's chart, removals, account ages and its CSV export.

export function useQualityOverview() {
  return useQuery<ApiQualityOverview>({ queryKey: campaignKeys.quality(), staleTime: 60_000 });
}

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

function pointNote(p: ApiRetentionPoint): string {
  if (p.eligible === 0) return 'No members this old yet';
  const base = `${p.retained} of ${p.eligible}`;
  return p.basis === 'sampled' ? `${base} (estimate, ${p.sampleSize} checked)` : base;
}

/** Retention as bars: one per point, the height its share of members still there. */
function RetentionChart({ figures, label }: { figures: ApiQualityFigures; label: string }) {
  return (
    <Flex gap={{ base: '2', sm: '4' }} align="flex-end" h="40" role="img" aria-label={label} pt="2">
      {figures.retention.map((p) => (
        <Stack key={p.key} flex="1" gap="1.5" align="center" h="full" justify="flex-end" minW="0">
          <Text textStyle="sm" fontWeight="semibold" fontVariantNumeric="tabular-nums">
            {percent(p.rate)}
          </Text>
          <Box
            w="full"
            maxW="16"
            h={`${Math.max(4, Math.round((p.rate ?? 0) * 100))}%`}
            bg={p.rate === null ? 'bg.emphasized' : p.basis === 'sampled' ? 'brand.muted' : 'brand.solid'}
            borderTopRadius="md"
            title={pointNote(p)}
          />
          <Text textStyle="xs" color="fg.muted" textAlign="center" lineHeight="short" minH="8">
            {p.label}
          </Text>
        </Stack>
      ))}
    </Flex>
  );
}

function Removals({ figures }: { figures: ApiQualityFigures }) {
  const r = figures.removals;
  return (
    <Flex gap="2" wrap="wrap">
      <Badge variant="subtle" colorPalette="orange">
        Early leaves {r.earlyLeaves}
      </Badge>
      <Badge variant="subtle" colorPalette="red">
        Kicked {r.kicks}
      </Badge>
      <Badge variant="subtle" colorPalette="red">
        Banned {r.bans}
      </Badge>
      <Badge variant="subtle" colorPalette="gray">
        Left after the stay {r.laterLeaves}
      </Badge>
    </Flex>
  );
}

/** My Campaigns' summary over every campaign; nothing until a member has been paid for. */
export function QualitySummary() {
  const { data } = useQualityOverview();
  if (!data || data.summary.paidMembers === 0) return null;
  const s = data.summary;
  return (
    <Card.Root
      variant="outline"
      bg="bg.panel"
      borderColor="border"
      borderRadius="xl"
      mb="5"
      data-testid="quality-summary"
    >
      <Card.Body p={{ base: '4', md: '5' }} gap="3">
        <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Stack gap="0.5">
            <Heading as="h2" textStyle="md" fontWeight="semibold">
              Member quality
            </Heading>
            <Text textStyle="sm" color="fg.muted">
              Of the {s.paidMembers} members you paid for, how many are still in your servers.
            </Text>
          </Stack>
          <Stack gap="0" align={{ base: 'flex-start', sm: 'flex-end' }}>
            <Text textStyle="xs" color="fg.subtle">
              Cost per member who stayed
            </Text>
            {s.costPerRetained ? <CoinAmount value={s.costPerRetained} size="sm" /> : <Text>—</Text>}
          </Stack>
        </Flex>
        <SimpleGrid columns={{ base: 2, md: 4 }} gap="2">
          {s.retention.map((p) => (
            <Box
              key={p.key}
              bg="bg.subtle"
              borderRadius="lg"
              px="3"
              py="2.5"
              borderWidth="1px"
              borderColor="border.muted"
            >
              <Text textStyle="xs" color="fg.subtle">
                Still there at {p.label}
              </Text>
              <Text fontWeight="semibold" fontVariantNumeric="tabular-nums" textStyle="lg">
                {percent(p.rate)}
              </Text>
              <Text textStyle="xs" color="fg.muted">
                {pointNote(p)}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
        <Removals figures={s} />
      </Card.Body>
    </Card.Root>
  );
}

/** A card's "Quality" button and its dialog. */
export function QualityButton({ campaignId, name }: { campaignId: string; name: string }) {
  return (
    <DialogButton
      buttonProps={{ 'aria-label': `Member quality of ${name}` }}
      dialog={(onClose) => <QualityDialog campaignId={campaignId} name={name} onClose={onClose} />}
    >
      <LuChartColumn /> Quality
    </DialogButton>
  );
}

function QualityDialog({
  campaignId,
  name,
  onClose,
}: {
  campaignId: string;
  name: string;
  onClose: () => void;
}) {
  const { data, isLoading, isError } = useQualityOverview();
  const q: ApiCampaignQuality | undefined = data?.campaigns.find((c) => c.campaignId === campaignId);
  return (
    <DialogShell title={<>Member quality: {name}</>} closeLabel="Close" onClose={onClose}>
      {isLoading ? (
        <Text color="fg.muted">Loading…</Text>
      ) : isError || !q ? (
        <Text color="red.fg">Could not load this campaign’s figures.</Text>
      ) : q.paidMembers === 0 ? (
        <Text color="fg.muted">No member has been paid for yet: figures appear with the first one.</Text>
      ) : (
        <CampaignFigures q={q} campaignId={campaignId} name={name} />
      )}
    </DialogShell>
  );
}

/** One campaign's figures, once it has a paid member: retention, removals, account ages, cost, CSV. */
function CampaignFigures({
  q,
  campaignId,
  name,
}: {
  q: ApiCampaignQuality;
  campaignId: string;
  name: string;
}) {
  return (
    <Stack gap="5">
      {q.tracked ? (
        <Stack gap="1">
          <Text textStyle="sm" color="fg.muted">
            Share of the {q.paidMembers} paid members still in the server after joining.
          </Text>
          <RetentionChart figures={q} label={`Retention of ${name}`} />
          {q.retention.some((p) => p.basis === 'sampled') ? (
            <Text textStyle="xs" color="fg.subtle">
              Lighter bars are estimates from membership checks of a sample of members.
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Text textStyle="sm" color="fg.muted">
          No-bot campaigns are not watched after the join: only who joined is known.
        </Text>
      )}
      {q.tracked ? <Removals figures={q} /> : null}
      <AccountAges q={q} />
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Text textStyle="sm" color="fg.muted">
          Cost per member who stayed:{' '}
          {q.costPerRetained ? <CoinAmount value={q.costPerRetained} size="sm" /> : '—'}
        </Text>
        <Button asChild size="sm" variant="outline">
          <a href={`/api/campaigns/${encodeURIComponent(campaignId)}/quality.csv`} download>
            <LuDownload /> Download CSV
          </a>
        </Button>
      </Flex>
    </Stack>
  );
}

function AccountAges({ q }: { q: ApiCampaignQuality }) {
  return (
    <Stack gap="2">
      <Text textStyle="sm" fontWeight="semibold">
        Account age when they joined
      </Text>
      {q.accountAge.map((a) => (
        <Flex key={a.label} align="center" gap="3" textStyle="sm">
          <Text w="32" flexShrink={0} color="fg.muted">
            {a.label}
          </Text>
          <Box flex="1" bg="bg.subtle" borderRadius="full" h="2" overflow="hidden">
            <Box
              h="full"
              bg="brand.solid"
              w={`${q.paidMembers ? Math.round((a.members / q.paidMembers) * 100) : 0}%`}
            />
          </Box>
          <Text w="8" textAlign="end" fontVariantNumeric="tabular-nums">
            {a.members}
          </Text>
        </Flex>
      ))}
    </Stack>
  );
}
