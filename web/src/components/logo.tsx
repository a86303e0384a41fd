import { Box, HStack, Text } from '@chakra-ui/react';
import { PRODUCT_NAME } from '../lib/brand.ts';
import { CoinIcon } from './coin-icon.tsx';

/** Product mark: a blurple tile with a coin, plus the product name. */
export function Logo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const tile = size === 'lg' ? '12' : '9';
  return (
    <HStack gap="2.5">
      <Box
        boxSize={tile}
        borderRadius="xl"
        bgGradient="to-br"
        gradientFrom="brand.400"
        gradientTo="brand.700"
        display="grid"
        placeItems="center"
        boxShadow="0 6px 18px rgba(88,101,242,0.35)"
        fontSize={size === 'lg' ? '2xl' : 'lg'}
        flexShrink={0}
      >
        <CoinIcon />
      </Box>
      <Text
        as="span"
        fontWeight="extrabold"
        letterSpacing="tight"
        textStyle={size === 'lg' ? '2xl' : { base: 'lg', md: 'xl' }}
        color="fg"
      >
        {PRODUCT_NAME}
      </Text>
    </HStack>
  );
}
