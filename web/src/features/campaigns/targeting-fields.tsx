import { Collapsible, Field, Input, NativeSelect, SimpleGrid, Text } from '@chakra-ui/react';
import { TARGET_LANGUAGES, type TargetingInput } from '@shared/targeting.ts';
import { LuChevronDown, LuUsers } from 'react-icons/lu';

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
        <LuUsers /> Audience (optional){active ? ' · set' : ''} <LuChevronDown />
      </Collapsible.Trigger>
      <Collapsible.Content>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4" pt="3">
          <Field.Root>
            <Field.Label htmlFor={`${idPrefix}-min-age`}>Minimum account age (days)</Field.Label>
            <Input
              id={`${idPrefix}-min-age`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder="Any"
              bg="bg.subtle"
              value={minAge}
              onChange={(e) => onMinAge(e.target.value)}
            />
          </Field.Root>
          <Field.Root>
            <Field.Label htmlFor={`${idPrefix}-language`}>Member language</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                id={`${idPrefix}-language`}
                bg="bg.subtle"
                value={language}
                onChange={(e) => onLanguage(e.target.value)}
              >
                <option value="">Any language</option>
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
          Only members whose Discord account is old enough and whose Discord language matches see and can join
          this campaign. The price per member stays the same.
        </Text>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
