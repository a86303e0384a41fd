import { Button, Heading, Text, VStack } from '@chakra-ui/react';
import { LuHouse } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function NotFoundPage() {
  const { t } = useTranslation();
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
        {t('notFound.title')}
      </Heading>
      <Text color="fg.muted" maxW="md">
        {t('notFound.text')}
      </Text>
      <Button asChild colorPalette="brand" size="lg" mt="2">
        <RouterLink to="/">
          <LuHouse />
          {t('notFound.home')}
        </RouterLink>
      </Button>
    </VStack>
  );
}
