import { HStack, Text, type StackProps } from '@chakra-ui/react';
import { formatCoins } from '@shared/money.ts';
import { formatMoneyText } from '@shared/i18n/index.ts';
import { useLocale } from '../lib/i18n.ts';
import { CoinIcon } from './coin-icon.tsx';

export interface CoinAmountProps extends Omit<StackProps, 'children'> {
  /** A "12.50"-style string (as on the wire) or a number of coins. */
  value: string | number | null | undefined;
  /** Prefix "+" for positive amounts, e.g. rewards ("+0.50"). */
  showPlus?: boolean;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** Text after the amount, e.g. "coins". */
  suffix?: string;
}

const textStyles = { sm: 'sm', md: 'md', lg: 'xl', xl: '3xl' } as const;

/** Gold coin icon followed by the amount with 2 decimals, e.g. ● 12.50 */
export function CoinAmount({ value, showPlus = false, size = 'md', suffix, ...rest }: CoinAmountProps) {
  const locale = useLocale();
  const text = formatMoneyText(formatCoins(typeof value === 'number' ? value.toFixed(2) : value), locale);
  const sign = showPlus && !text.startsWith('-') ? '+' : '';
  return (
    <HStack
      gap="1.5"
      display="inline-flex"
      verticalAlign="middle"
      color="gold.fg"
      fontWeight="semibold"
      {...rest}
    >
      <CoinIcon />
      <Text as="span" textStyle={textStyles[size]} fontVariantNumeric="tabular-nums" lineHeight="1">
        {sign}
        {text}
        {suffix ? ` ${suffix}` : null}
      </Text>
    </HStack>
  );
}
