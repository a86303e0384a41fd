import { Badge, Box, Button, Card, Flex, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuCrown, LuGem, LuRocket, LuSprout } from 'react-icons/lu';
import { useNavigate } from 'react-router';
import { CoinIcon } from '../../components/coin-icon.tsx';
import { PACK_TEXT, formatPrice, pricePer100, type PackView } from './pack-display.ts';
import { formatCount } from '@shared/i18n/index.ts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../lib/i18n.ts';

const ICONS: Record<PackView['id'], IconType> = {
  small: LuSprout,
  medium: LuRocket,
  large: LuGem,
  xlarge: LuCrown,
};

/**
 * One coin pack: name, coins, bonus, price, price per 100 coins and Purchase Now (disabled, and saying
 * so, when payments are off: no pack is offered that cannot be paid for).
 */
export function PackCard({ pack, unavailable = false }: { pack: PackView; unavailable?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card.Root
      data-testid={`pack-${pack.id}`}
      position="relative"
      bg="bg.panel"
      borderWidth={pack.popular ? '2px' : '1px'}
      borderColor={pack.popular ? 'brand.solid' : 'border'}
      borderRadius="2xl"
      overflow="visible"
      boxShadow={pack.popular ? '0 20px 50px -24px rgba(88,101,242,0.7)' : undefined}
      transition="transform 200ms, border-color 200ms"
      _hover={{
        transform: 'translateY(-3px)',
        borderColor: pack.popular ? 'brand.solid' : 'border.emphasized',
      }}
    >
      {pack.popular ? (
        <Badge
          position="absolute"
          top="-3"
          left="50%"
          transform="translateX(-50%)"
          colorPalette="brand"
          variant="solid"
          borderRadius="full"
          px="3"
          py="1"
          textTransform="uppercase"
          letterSpacing="wider"
          fontSize="2xs"
        >
          {t('buy.popular')}
        </Badge>
      ) : null}
      <Card.Body gap="5" p={{ base: '5', md: '6' }}>
        <Flex justify="space-between" align="center">
          <HStack gap="3">
            <Box
              colorPalette={pack.popular ? 'brand' : 'gold'}
              bg="colorPalette.subtle"
              color="colorPalette.fg"
              borderWidth="1px"
              borderColor="colorPalette.muted"
              borderRadius="xl"
              boxSize="10"
              display="grid"
              placeItems="center"
              fontSize="lg"
            >
              <Icon as={ICONS[pack.id]} />
            </Box>
            <Text as="h3" fontWeight="semibold" textStyle="lg">
              {t(PACK_TEXT[pack.id].nameKey)}
            </Text>
          </HStack>
        </Flex>

        <PackCoinsAndPrice pack={pack} />

        <Button
          colorPalette="brand"
          variant={pack.popular ? 'solid' : 'outline'}
          size="lg"
          borderRadius="xl"
          fontWeight="semibold"
          disabled={unavailable}
          onClick={() => void navigate(`/checkout?package=${pack.id}`)}
          aria-label={`${unavailable ? t('social.unavailable') : t('buy.purchase')}: ${t(PACK_TEXT[pack.id].nameKey)}`}
        >
          {unavailable ? t('social.unavailable') : t('buy.purchase')}
        </Button>
      </Card.Body>
    </Card.Root>
  );
}

/** The coins (and the bonus or "a start"), then the price and the price per 100 coins. */
function PackCoinsAndPrice({ pack }: { pack: PackView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const note = PACK_TEXT[pack.id].noteKey;
  return (
    <>
      <Stack gap="2">
        <HStack gap="2" align="center">
          <CoinIcon boxSize="7" />
          <Text
            textStyle="4xl"
            fontWeight="black"
            letterSpacing="tight"
            lineHeight="1"
            fontVariantNumeric="tabular-nums"
          >
            {formatCount(pack.coins, locale)}
          </Text>
          <Text color="fg.muted" alignSelf="flex-end" pb="0.5">
            {t('common.coinsWord')}
          </Text>
        </HStack>
        <Box minH="6">
          {note ? (
            <Badge colorPalette="green" variant="subtle" borderRadius="full" px="2.5">
              {t(note)}
            </Badge>
          ) : (
            <Text textStyle="sm" color="fg.subtle">
              {t('buy.start')}
            </Text>
          )}
        </Box>
      </Stack>

      <Box borderTopWidth="1px" borderColor="border" pt="4">
        <Text textStyle="3xl" fontWeight="bold" lineHeight="1">
          {formatPrice(pack.priceCents / 100, locale)}
        </Text>
        <Text mt="1.5" textStyle="sm" color="fg.muted">
          {t('buy.per100', { price: pricePer100(pack, locale) })}
        </Text>
      </Box>
    </>
  );
}
