import { Box, Card, Heading, Text, VStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuSparkles } from 'react-icons/lu';
import { PageHeader } from './page-header.tsx';

export interface ComingSoonProps {
  title: string;
  subtitle?: string;
  icon?: ReactNode;
}

/** Placeholder page body used until a feature page lands. */
export function ComingSoon({ title, subtitle, icon }: ComingSoonProps) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <Card.Root variant="outline" bg="bg.panel" borderRadius="2xl" overflow="hidden">
        <Box h="1" bgGradient="to-r" gradientFrom="brand.500" gradientTo="gold.500" />
        <Card.Body py={{ base: '10', md: '14' }}>
          <VStack gap="3" textAlign="center">
            <Box bg="brand.subtle" color="brand.fg" borderRadius="full" p="4" fontSize="2xl">
              {icon ?? <LuSparkles />}
            </Box>
            <Heading as="h2" textStyle="lg">
              {title} is coming soon
            </Heading>
            <Text color="fg.muted" maxW="md">
              We're putting the finishing touches on this page. Check back shortly!
            </Text>
          </VStack>
        </Card.Body>
      </Card.Root>
    </>
  );
}
