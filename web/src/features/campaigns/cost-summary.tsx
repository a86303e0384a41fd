import { Box, Flex, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface SummaryRow {
  label: string;
  value: ReactNode;
}

/** A small "what you get" box under a submit form. */
export function CostSummary({ rows }: { rows: SummaryRow[] }) {
  return (
    <Box bg="bg.subtle" borderWidth="1px" borderColor="border" borderRadius="lg" px="4" py="3">
      {rows.map((row) => (
        <Flex key={row.label} justify="space-between" gap="3" py="1" textStyle="sm">
          <Text color="fg.muted">{row.label}</Text>
          <Box fontWeight="semibold" textAlign="right">
            {row.value}
          </Box>
        </Flex>
      ))}
    </Box>
  );
}
