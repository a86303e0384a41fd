import { Box, Card, Flex, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  /** Small text under the value. */
  helpText?: ReactNode;
  accent?: 'brand' | 'gold' | 'green' | 'purple';
}

/** A dashboard number: label, big value, optional icon and help text. */
export function StatCard({ label, value, icon, helpText, accent = 'brand' }: StatCardProps) {
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Body p={{ base: '4', md: '5' }}>
        <Flex justify="space-between" align="flex-start" gap="3">
          {/* Plain text, not <dl>: a card holds one label/value pair plus an icon and help text. */}
          <Box minW="0">
            <Text textStyle="sm" color="fg.muted">
              {label}
            </Text>
            {/* A div: the value may be a block (CoinAmount), which a <p> cannot hold. */}
            <Text as="div" textStyle={{ base: 'xl', md: '2xl' }} fontWeight="bold" mt="1" lineHeight="1.2">
              {value}
            </Text>
            {helpText ? (
              <Text textStyle="xs" color="fg.subtle" mt="1">
                {helpText}
              </Text>
            ) : null}
          </Box>
          {icon ? (
            <Box
              colorPalette={accent}
              bg="colorPalette.subtle"
              color="colorPalette.fg"
              borderRadius="lg"
              p="2.5"
              fontSize="lg"
              flexShrink={0}
            >
              {icon}
            </Box>
          ) : null}
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
