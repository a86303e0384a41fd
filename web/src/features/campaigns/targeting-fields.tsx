import { Collapsible, Field, Input, NativeSelect, SimpleGrid, Text } from '@chakra-ui/react';
import { TARGET_LANGUAGES, type TargetingInput } from '@shared/targeting.ts';
import { LuChevronDown, LuUsers } from 'react-icons/lu';
import { useTranslation } from 'react-i18next';

// Issue 31 item 2: an optional audience for a campaign (older accounts, one language). It narrows who
// sees and may join; the price and the reward stay the same. The server checks every value.

/** The form's text state → the API's `targeting` (undefined when nothing is asked for). */
export function targetingOf(minAge: string, language: string): TargetingInput | undefined {
  const days = minAge.trim() === '' ? null : Number(minAge);
  const lang = language === '' ? null : language;
  if (days === null && lang === null) return undefined;
  return { minAccountAgeDays: days, language: lang as TargetingInput['language'] };
}

export function TargetingFields({
  idPrefix,
  minAge,
  language,
  onMinAge,
  onLanguage,
}: {
  idPrefix: string;
  minAge: string;
  language: string;
  onMinAge: (v: string) => void;
  onLanguage: (v: string) => void;
}) {
  const { t } = useTranslation();
  const active = minAge.trim() !== '' || language !== '';
  return (
    <Collapsible.Root defaultOpen={active}>
      <Collapsible.Trigger
        display="flex"
        alignItems="center"
        gap="2"
        textStyle="sm"
        color="fg.muted"
        cursor="pointer"
        _hover={{ color: 'fg' }}
      >
        <LuUsers /> {t('submit.targeting.toggle')}
        {active ? ` · ${t('submit.targeting.set')}` : ''} <LuChevronDown />
      </Collapsible.Trigger>
      <Collapsible.Content>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4" pt="3">
          <Field.Root>
            <Field.Label htmlFor={`${idPrefix}-min-age`}>{t('submit.targeting.minAge')}</Field.Label>
            <Input
              id={`${idPrefix}-min-age`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder={t('submit.targeting.any')}
              bg="bg.subtle"
              value={minAge}
              onChange={(e) => onMinAge(e.target.value)}
            />
          </Field.Root>
          <Field.Root>
            <Field.Label htmlFor={`${idPrefix}-language`}>{t('submit.targeting.language')}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                id={`${idPrefix}-language`}
                bg="bg.subtle"
                value={language}
                onChange={(e) => onLanguage(e.target.value)}
              >
                <option value="">{t('submit.targeting.anyLanguage')}</option>
                {Object.entries(TARGET_LANGUAGES).map(([code, label]) => (
                  <option key={code} value={code}>
                    {label}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </SimpleGrid>
        <Text textStyle="xs" color="fg.subtle" pt="2">
          {t('submit.targeting.note')}
        </Text>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
