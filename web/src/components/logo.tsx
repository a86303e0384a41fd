import { Box, HStack, Text } from '@chakra-ui/react';
import { PRODUCT_NAME } from '../lib/brand.ts';
import { CoinIcon } from './coin-icon.tsx';

/** Product mark: a blurple tile with a coin, plus the product name. */
export function Logo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const large = size === 'lg';
  return (
    <HStack gap={{ base: '2', md: '2.5' }} minW="0">
      <Box
        boxSize={large ? '12' : { base: '8', md: '9' }}
        borderRadius="xl"
        bgGradient="to-br"
        gradientFrom="brand.400"
        gradientTo="brand.700"
        display="grid"
        placeItems="center"
        boxShadow="0 6px 18px rgba(88,101,242,0.35)"
        fontSize={large ? '2xl' : { base: 'md', md: 'lg' }}
        flexShrink={0}
      >
        <CoinIcon />
      </Box>
      <Text
        as="span"
        fontWeight="extrabold"
        letterSpacing="tight"
        textStyle={large ? '2xl' : { base: 'md', md: 'xl' }}
        color="fg"
        truncate
      >
        {PRODUCT_NAME}
      </Text>
    </HStack>
  );
}
