import { Box, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { LuFlame, LuTrophy } from 'react-icons/lu';
import { useTranslation } from 'react-i18next';

/**
 * The member's daily streak (issue 32 item 3), for showing only: counted on the server, a daily claim
 * continues it when it comes within 48 hours of the previous one (decision 045).
 */
export function DailyStreak({ current, best }: { current: number; best: number }) {
  const { t } = useTranslation();
  const hint = current === 0 ? t('streak.start') : t('streak.keep');
  return (
    <Box
      bg="bg.panel"
      borderWidth="1px"
      borderColor="border"
      borderRadius="2xl"
      px={{ base: '4', md: '6' }}
      py={{ base: '4', md: '5' }}
      data-testid="daily-streak"
    >
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" gap={{ base: '3', sm: '6' }}>
        <HStack gap="3" align="center">
          <Box
            bg="orange.subtle"
            color="orange.fg"
            borderRadius="xl"
            p="2.5"
            display="flex"
            alignItems="center"
            justifyContent="center"
          >
            <Icon as={LuFlame} boxSize="6" aria-hidden />
          </Box>
          <Box>
            <Text fontSize="sm" color="fg.muted">
              {t('streak.current')}
            </Text>
            <Text fontSize="xl" fontWeight="bold" data-testid="daily-streak-current">
              {t('streak.days', { count: current })}
            </Text>
          </Box>
        </HStack>
        <HStack gap="3" align="center">
          <Icon as={LuTrophy} boxSize="5" color="gold.fg" aria-hidden />
          <Box>
            <Text fontSize="sm" color="fg.muted">
              {t('streak.best')}
            </Text>
            <Text fontSize="md" fontWeight="semibold" data-testid="daily-streak-best">
              {t('streak.days', { count: best })}
            </Text>
          </Box>
        </HStack>
      </Stack>
      <Text fontSize="sm" color="fg.muted" mt="3">
        {hint}
      </Text>
    </Box>
  );
}
