import { Center, Spinner, Text, VStack } from '@chakra-ui/react';

/** Shown while auth loads (spec: the text "Loading..."). */
export function FullPageLoading() {
  return (
    <Center minH="100dvh">
      <VStack gap="4">
        <Spinner size="lg" color="brand.solid" borderWidth="3px" />
        <Text color="fg.muted">Loading...</Text>
      </VStack>
    </Center>
  );
}

/** Suspense fallback while a lazily loaded page downloads. */
export function RouteLoading() {
  return (
    <Center py="24">
      <Spinner size="lg" color="brand.solid" borderWidth="3px" aria-label="Loading page" />
    </Center>
  );
}
