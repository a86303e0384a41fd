import { Box, Flex, Heading, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface PageHeaderProps {
  title: string;
  subtitle?: ReactNode;
  /** Optional element on the right (buttons, a balance, ...). */
  actions?: ReactNode;
}

/** Page title (h1) with an optional subtitle and actions. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <Flex
      mb={{ base: '6', md: '8' }}
      gap="4"
      direction={{ base: 'column', sm: 'row' }}
      align={{ base: 'stretch', sm: 'flex-end' }}
      justify="space-between"
    >
      <Box minW="0">
        <Heading as="h1" textStyle="pageTitle" tabIndex={-1} outline="none">
          {title}
        </Heading>
        {subtitle ? (
          <Text mt="1.5" color="fg.muted" textStyle={{ base: 'sm', md: 'md' }}>
            {subtitle}
          </Text>
        ) : null}
      </Box>
      {actions ? (
        <Flex gap="2" flexShrink={0}>
          {actions}
        </Flex>
      ) : null}
    </Flex>
  );
}
