import { Button, Heading, Text, VStack } from '@chakra-ui/react';
import { LuHouse } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';

export default function NotFoundPage() {
  return (
    <VStack gap="5" py={{ base: '12', md: '20' }} textAlign="center">
      <Text
        fontSize={{ base: '6xl', md: '8xl' }}
        fontWeight="black"
        lineHeight="1"
        bgGradient="to-r"
        gradientFrom="brand.400"
        gradientTo="gold.400"
        bgClip="text"
        aria-hidden="true"
      >
        404
      </Text>
      <Heading as="h1" textStyle={{ base: '2xl', md: '3xl' }}>
        404 - Page Not Found
      </Heading>
      <Text color="fg.muted" maxW="md">
        The page you're looking for doesn't exist or has been moved.
      </Text>
      <Button asChild colorPalette="brand" size="lg" mt="2">
        <RouterLink to="/">
          <LuHouse />
          Go Back Home
        </RouterLink>
      </Button>
    </VStack>
  );
}
