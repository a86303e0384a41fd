import { Box, Card, Flex, Stat } from '@chakra-ui/react';
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
          <Stat.Root>
            <Stat.Label color="fg.muted">{label}</Stat.Label>
            <Stat.ValueText textStyle={{ base: 'xl', md: '2xl' }} fontWeight="bold">
              {value}
            </Stat.ValueText>
            {helpText ? <Stat.HelpText color="fg.subtle">{helpText}</Stat.HelpText> : null}
          </Stat.Root>
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
