import { Field, NativeSelect, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LOCALE_NAMES, SUPPORTED_LOCALES, isLocale, type Locale } from '@shared/i18n/index.ts';
import type { ApiUser } from '@shared/api-types.ts';
import { useTranslation } from 'react-i18next';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { switchLocale, useLocale } from '../../lib/i18n.ts';
import { toast } from '../../lib/toaster.tsx';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';

/**
 * PUT /api/account/locale (decision 050): the chosen language is stored on the account, so it follows
 * the member to other devices and outlives the next sign-in; the app switches as soon as its catalogue
 * is in.
 */
function useChangeLocale() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: async (locale: Locale) => {
      const user = await apiJson<ApiUser>('PUT', '/api/account/locale', { locale });
      await switchLocale(locale);
      return user;
    },
    onSuccess: (user) => queryClient.setQueryData(AUTH_USER_KEY, user),
    onError: (err) =>
      toast({
        title: t('common.error'),
        description: errorMessage(err, t('language.failed')),
        variant: 'destructive',
      }),
  });
}

/** The language switcher (Account page). Each language is named in itself. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const locale = useLocale();
  const change = useChangeLocale();
  return (
    <Field.Root maxW="xs" disabled={change.isPending}>
      <Field.Label>{t('language.label')}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field
          data-testid="language-switcher"
          value={change.isPending && change.variables ? change.variables : locale}
          onChange={(e) => {
            const next = e.currentTarget.value;
            if (isLocale(next) && next !== locale) change.mutate(next);
          }}
        >
          {SUPPORTED_LOCALES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LOCALE_NAMES[code]}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Field.HelperText>
        <Text as="span">{t('language.hint')}</Text>
      </Field.HelperText>
    </Field.Root>
  );
}
