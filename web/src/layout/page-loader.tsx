import { Center, Spinner, Text, VStack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** Shown while auth loads (spec: the text "Loading..."). */
export function FullPageLoading() {
  const { t } = useTranslation();
  return (
    <Center minH="100dvh">
      <VStack gap="4">
        <Spinner size="lg" color="brand.solid" borderWidth="3px" />
        <Text color="fg.muted">{t('common.loading')}</Text>
      </VStack>
    </Center>
  );
}

/** Suspense fallback while a lazily loaded page downloads. */
export function RouteLoading() {
  const { t } = useTranslation();
  return (
    <Center py="24">
      <Spinner size="lg" color="brand.solid" borderWidth="3px" aria-label={t('common.loadingPage')} />
    </Center>
  );
}
