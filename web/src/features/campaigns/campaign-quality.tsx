import { Badge, Box, Button, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type {
  ApiCampaignQuality,
  ApiQualityFigures,
  ApiQualityOverview,
  ApiRetentionPoint,
} from '@shared/quality.ts';
import { useQuery } from '@tanstack/react-query';
import type { Locale } from '@shared/i18n/index.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LuChartColumn, LuDownload } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { DialogButton, DialogShell } from '../../components/dialog-shell.tsx';
import { formatWhole } from '../../lib/format.ts';
import { useLocale } from '../../lib/i18n.ts';
import { campaignKeys } from '../../lib/query-keys.ts';
import { accountAgeLabel, retentionPointLabel } from './quality-labels.ts';

// Issue 31 item 1: what became of the members an owner paid for. The summary sits on My Campaigns;
// each card's "Quality" opens the campaign's chart, removals, account ages and its CSV export.

export function useQualityOverview() {
  return useQuery<ApiQualityOverview>({ queryKey: campaignKeys.quality(), staleTime: 60_000 });
}

/** A share as the locale writes a percentage ("42%", "42 %", "%42"); "—" while nobody counts yet. */
function percent(rate: number | null, locale: Locale): string {
  if (rate === null) return '—';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(rate);
}

function pointNote(p: ApiRetentionPoint, t: TFunction, locale: Locale): string {
  if (p.eligible === 0) return t('campaigns.quality.noMembersYet');
  const values = {
    retained: formatWhole(p.retained, locale),
    eligible: formatWhole(p.eligible, locale),
    checked: formatWhole(p.sampleSize, locale),
  };
  return p.basis === 'sampled'
    ? t('campaigns.quality.pointEstimate', values)
    : t('campaigns.quality.pointNote', values);
}

/** Retention as bars: one per point, the height its share of members still there. */
function RetentionChart({ figures, label }: { figures: ApiQualityFigures; label: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Flex gap={{ base: '2', sm: '4' }} align="flex-end" h="40" role="img" aria-label={label} pt="2">
      {figures.retention.map((p) => (
        <Stack key={p.key} flex="1" gap="1.5" align="center" h="full" justify="flex-end" minW="0">
          <Text textStyle="sm" fontWeight="semibold" fontVariantNumeric="tabular-nums">
            {percent(p.rate, locale)}
          </Text>
          <Box
            w="full"
            maxW="16"
            h={`${Math.max(4, Math.round((p.rate ?? 0) * 100))}%`}
            bg={p.rate === null ? 'bg.emphasized' : p.basis === 'sampled' ? 'brand.muted' : 'brand.solid'}
            borderTopRadius="md"
            title={pointNote(p, t, locale)}
          />
          <Text textStyle="xs" color="fg.muted" textAlign="center" lineHeight="short" minH="8">
            {retentionPointLabel(p, t)}
          </Text>
        </Stack>
      ))}
    </Flex>
  );
}

function Removals({ figures }: { figures: ApiQualityFigures }) {
  const r = figures.removals;
  const { t } = useTranslation();
  const locale = useLocale();
  const value = (n: number) => ({ value: formatWhole(n, locale) });
  return (
    <Flex gap="2" wrap="wrap">
      <Badge variant="subtle" colorPalette="orange">
        {t('campaigns.quality.earlyLeaves', value(r.earlyLeaves))}
      </Badge>
      <Badge variant="subtle" colorPalette="red">
        {t('campaigns.quality.kicks', value(r.kicks))}
      </Badge>
      <Badge variant="subtle" colorPalette="red">
        {t('campaigns.quality.bans', value(r.bans))}
      </Badge>
      <Badge variant="subtle" colorPalette="gray">
        {t('campaigns.quality.laterLeaves', value(r.laterLeaves))}
      </Badge>
    </Flex>
  );
}

/** My Campaigns' summary over every campaign; nothing until a member has been paid for. */
export function QualitySummary() {
  const { data } = useQualityOverview();
  const { t } = useTranslation();
  const locale = useLocale();
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
              {t('campaigns.quality.title')}
            </Heading>
            <Text textStyle="sm" color="fg.muted">
              {t('campaigns.quality.summaryText', {
                count: s.paidMembers,
                members: formatWhole(s.paidMembers, locale),
              })}
            </Text>
          </Stack>
          <Stack gap="0" align={{ base: 'flex-start', sm: 'flex-end' }}>
            <Text textStyle="xs" color="fg.subtle">
              {t('campaigns.quality.costPerStayed')}
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
                {t('campaigns.quality.stillThereAt', { point: retentionPointLabel(p, t) })}
              </Text>
              <Text fontWeight="semibold" fontVariantNumeric="tabular-nums" textStyle="lg">
                {percent(p.rate, locale)}
              </Text>
              <Text textStyle="xs" color="fg.muted">
                {pointNote(p, t, locale)}
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
  const { t } = useTranslation();
  return (
    <DialogButton
      buttonProps={{ 'aria-label': t('campaigns.quality.buttonLabel', { name }) }}
      dialog={(onClose) => <QualityDialog campaignId={campaignId} name={name} onClose={onClose} />}
    >
      <LuChartColumn /> {t('campaigns.quality.button')}
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
  const { t } = useTranslation();
  return (
    <DialogShell
      title={t('campaigns.quality.dialogTitle', { name })}
      closeLabel={t('common.close')}
      onClose={onClose}
    >
      {isLoading ? (
        <Text color="fg.muted">{t('common.loading')}</Text>
      ) : isError || !q ? (
        <Text color="red.fg">{t('campaigns.quality.loadFailed')}</Text>
      ) : q.paidMembers === 0 ? (
        <Text color="fg.muted">{t('campaigns.quality.noneYet')}</Text>
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
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Stack gap="5">
      {q.tracked ? (
        <Stack gap="1">
          <Text textStyle="sm" color="fg.muted">
            {t('campaigns.quality.share', {
              count: q.paidMembers,
              members: formatWhole(q.paidMembers, locale),
            })}
          </Text>
          <RetentionChart figures={q} label={t('campaigns.quality.retentionLabel', { name })} />
          {q.retention.some((p) => p.basis === 'sampled') ? (
            <Text textStyle="xs" color="fg.subtle">
              {t('campaigns.quality.estimates')}
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Text textStyle="sm" color="fg.muted">
          {t('campaigns.quality.untracked')}
        </Text>
      )}
      {q.tracked ? <Removals figures={q} /> : null}
      <AccountAges q={q} />
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Text textStyle="sm" color="fg.muted">
          {t('campaigns.quality.costLabel')}{' '}
          {q.costPerRetained ? <CoinAmount value={q.costPerRetained} size="sm" /> : '—'}
        </Text>
        <Button asChild size="sm" variant="outline">
          <a href={`/api/campaigns/${encodeURIComponent(campaignId)}/quality.csv`} download>
            <LuDownload /> {t('campaigns.quality.downloadCsv')}
          </a>
        </Button>
      </Flex>
    </Stack>
  );
}

function AccountAges({ q }: { q: ApiCampaignQuality }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Stack gap="2">
      <Text textStyle="sm" fontWeight="semibold">
        {t('campaigns.quality.accountAge')}
      </Text>
      {q.accountAge.map((a) => (
        <Flex key={a.label} align="center" gap="3" textStyle="sm">
          <Text w="32" flexShrink={0} color="fg.muted">
            {accountAgeLabel(a.label, t)}
          </Text>
          <Box flex="1" bg="bg.subtle" borderRadius="full" h="2" overflow="hidden">
            <Box
              h="full"
              bg="brand.solid"
              w={`${q.paidMembers ? Math.round((a.members / q.paidMembers) * 100) : 0}%`}
            />
          </Box>
          <Text w="8" textAlign="end" fontVariantNumeric="tabular-nums">
            {formatWhole(a.members, locale)}
          </Text>
        </Flex>
      ))}
    </Stack>
  );
}
