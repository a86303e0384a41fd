import { chakra } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** First tab stop of every page: jumps past the header and navigation to the main content. */
export function SkipLink({ targetId }: { targetId: string }) {
  const { t } = useTranslation();
  return (
    <chakra.a
      href={`#${targetId}`}
      position="fixed"
      top="3"
      left="3"
      zIndex="skipLink"
      px="4"
      py="2.5"
      borderRadius="lg"
      bg="brand.solid"
      color="brand.contrast"
      fontWeight="semibold"
      textStyle="sm"
      transform="translateY(-200%)"
      _focusVisible={{ transform: 'none', outline: '2px solid', outlineColor: 'fg', outlineOffset: '2px' }}
    >
      {t('nav.skip')}
    </chakra.a>
  );
}
