import { CAMPAIGN_MESSAGES, MAX_CAMPAIGN_COINS } from '@shared/campaign-schemas.ts';
import { NOTIFICATION_MESSAGES } from '@shared/notification-schemas.ts';
import { MAX_TARGET_ACCOUNT_AGE_DAYS, TARGETING_MESSAGES } from '@shared/targeting.ts';
import { i18n } from '../../lib/i18n.ts';

interface SafeParser {
  safeParse(
    v: unknown,
  ): { success: true } | { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } };
}

/**
 * The shared schemas' sentences (English: the server's words, what the API answers) in the member's
 * language. The English catalogue says the same words (validate.test.ts), so English stays word for word.
 */
const PROBLEM_TEXTS: ReadonlyMap<string, () => string> = new Map([
  [CAMPAIGN_MESSAGES.nameRequired, () => i18n.t('submit.problems.nameRequired')],
  [CAMPAIGN_MESSAGES.nameTooShort, () => i18n.t('submit.problems.nameTooShort')],
  [CAMPAIGN_MESSAGES.nameTooLong, () => i18n.t('submit.problems.nameTooLong')],
  [CAMPAIGN_MESSAGES.nameInvalid, () => i18n.t('submit.problems.nameInvalid')],
  [CAMPAIGN_MESSAGES.inviteRequired, () => i18n.t('submit.problems.inviteRequired')],
  [CAMPAIGN_MESSAGES.inviteInvalid, () => i18n.t('submit.problems.inviteInvalid')],
  [CAMPAIGN_MESSAGES.minimumCoins, () => i18n.t('submit.problems.minimumCoins')],
  [CAMPAIGN_MESSAGES.maximumCoins, () => i18n.t('submit.problems.maximumCoins', { max: MAX_CAMPAIGN_COINS })],
  [CAMPAIGN_MESSAGES.memberCount, () => i18n.t('submit.problems.memberCount')],
  [TARGETING_MESSAGES.language, () => i18n.t('submit.problems.targetLanguage')],
  [
    TARGETING_MESSAGES.accountAge,
    () => i18n.t('submit.problems.targetAccountAge', { max: MAX_TARGET_ACCOUNT_AGE_DAYS }),
  ],
  [
    NOTIFICATION_MESSAGES.discordWebhookInvalid,
    () => i18n.t('campaigns.notifications.problems.discordWebhookInvalid'),
  ],
  [NOTIFICATION_MESSAGES.endpointInvalid, () => i18n.t('campaigns.notifications.problems.endpointInvalid')],
  [
    NOTIFICATION_MESSAGES.endpointCredentials,
    () => i18n.t('campaigns.notifications.problems.endpointCredentials'),
  ],
]);

/** A schema's sentence in the member's language; one with no translation (zod's own) as it is. */
export function translateSchemaProblem(message: string): string {
  return PROBLEM_TEXTS.get(message)?.() ?? message;
}

/** The schema's first problem (docs/spec/product-spec.md §5: "the first schema error is shown"), with the field it concerns. */
export function firstSchemaProblem(
  schema: SafeParser,
  value: unknown,
): { field: string | null; message: string } | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  return {
    field: typeof field === 'string' ? field : null,
    message: issue ? translateSchemaProblem(issue.message) : i18n.t('common.required'),
  };
}
