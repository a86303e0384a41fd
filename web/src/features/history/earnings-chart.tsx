import { Box, Flex, Text } from '@chakra-ui/react';
import type { EarningsDay } from '@shared/history-schemas.ts';
import { formatCoins, parseMoney } from '@shared/money.ts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../lib/i18n.ts';
import { formatMoney, formatMoneyText, type Locale } from '@shared/i18n/index.ts';

const WIDTH = 300;
const HEIGHT = 80;
const GAP = 2;

function shortDate(date: string, locale: Locale): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(locale, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * A small bar chart in plain SVG (no chart library): one bar per day. Screen readers get one sentence
 * with the total and the best day instead of 30 bars.
 */
export function EarningsChart({ days }: { days: EarningsDay[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const coins = (value: string | null | undefined) => formatMoneyText(formatCoins(value), locale);
  const cents = days.map((d) => parseMoney(d.earned) ?? 0);
  const max = Math.max(...cents, 1);
  const total = cents.reduce((a, b) => a + b, 0);
  const bestIndex = cents.indexOf(Math.max(...cents));
  const best = days[bestIndex];
  const barWidth = (WIDTH - GAP * (days.length - 1)) / Math.max(days.length, 1);
  const summary =
    total === 0
      ? t('history.chart.none', { count: days.length })
      : t('history.chart.summary', {
          count: days.length,
          total: formatMoney(total, locale),
          day: best ? shortDate(best.date, locale) : '',
          best: coins(best?.earned),
        });

  return (
    <Box>
      <Flex justify="space-between" align="baseline" mb="3" gap="3" wrap="wrap">
        <Text textStyle="sm" color="fg.muted">
          {t('history.chart.last', { count: days.length })}
        </Text>
        <Text textStyle="sm" fontWeight="semibold" color="gold.fg" fontVariantNumeric="tabular-nums">
          {t('history.chart.total', { total: formatMoney(total, locale) })}
        </Text>
      </Flex>
      <Box as="figure" m="0">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width="100%"
          height="96"
          preserveAspectRatio="none"
          role="img"
          aria-label={summary}
          style={{ display: 'block' }}
        >
          <line
            x1="0"
            y1={HEIGHT - 0.5}
            x2={WIDTH}
            y2={HEIGHT - 0.5}
            stroke="var(--chakra-colors-border)"
            strokeWidth="1"
          />
          {cents.map((value, i) => {
            const h = value === 0 ? 1.5 : Math.max(3, (value / max) * (HEIGHT - 4));
            return (
              <rect
                key={days[i]?.date ?? i}
                x={i * (barWidth + GAP)}
                y={HEIGHT - h}
                width={barWidth}
                height={h}
                rx="1.5"
                fill={
                  value === 0 ? 'var(--chakra-colors-border-emphasized)' : 'var(--chakra-colors-gold-solid)'
                }
              >
                <title>
                  {t('history.chart.bar', {
                    day: shortDate(days[i]?.date ?? '', locale),
                    coins: coins(days[i]?.earned),
                  })}
                </title>
              </rect>
            );
          })}
        </svg>
        <Flex as="figcaption" justify="space-between" mt="2" textStyle="xs" color="fg.subtle" aria-hidden>
          <span>{days[0] ? shortDate(days[0].date, locale) : ''}</span>
          <span>{t('history.chart.today')}</span>
        </Flex>
      </Box>
    </Box>
  );
}
