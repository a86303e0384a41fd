import { afterAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_MESSAGES, submitNoBotSchema, submitServerSchema } from '@shared/campaign-schemas.ts';
import { NOTIFICATION_MESSAGES, notificationSettingsSchema } from '@shared/notification-schemas.ts';
import { TARGETING_MESSAGES } from '@shared/targeting.ts';
import { switchLocale } from '../../lib/i18n.ts';
import { firstSchemaProblem, translateSchemaProblem } from './validate.ts';

// The shared schemas' sentences a form can show before sending (decision 050): the member's language,
// and in English the server's words exactly.

/** Sentences only a service says (after sending: the API's message, decision 051), never a schema. */
const SERVICE_ONLY: (keyof typeof CAMPAIGN_MESSAGES)[] = ['missingInformation', 'promoteCost'];
const SCHEMA_SENTENCES = [
  ...Object.entries(CAMPAIGN_MESSAGES)
    .filter(([key]) => !SERVICE_ONLY.includes(key as keyof typeof CAMPAIGN_MESSAGES))
    .map(([, text]) => text),
  TARGETING_MESSAGES.language,
  TARGETING_MESSAGES.accountAge,
  NOTIFICATION_MESSAGES.discordWebhookInvalid,
  NOTIFICATION_MESSAGES.endpointInvalid,
  NOTIFICATION_MESSAGES.endpointCredentials,
];

afterAll(async () => {
  await switchLocale('en');
});

describe('the forms’ first schema problem', () => {
  it('says every schema sentence word for word in English', async () => {
    await switchLocale('en');
    for (const sentence of SCHEMA_SENTENCES) expect(translateSchemaProblem(sentence)).toBe(sentence);
  });

  it('says each of them in German, with the rule’s numbers', async () => {
    await switchLocale('de');
    for (const sentence of SCHEMA_SENTENCES)
      expect(translateSchemaProblem(sentence), sentence).not.toBe(sentence);
    expect(firstSchemaProblem(submitServerSchema, { name: '', inviteLink: '', coinReward: '5' })).toEqual({
      field: 'name',
      message: 'Servername ist erforderlich',
    });
    expect(
      firstSchemaProblem(submitServerSchema, {
        name: 'My Server',
        inviteLink: 'https://discord.gg/abc',
        coinReward: '100000000',
      }),
    ).toEqual({ field: 'coinReward', message: 'Bitte gib höchstens 99999999 Coins ein' });
    expect(
      firstSchemaProblem(submitNoBotSchema, {
        name: 'My Server',
        inviteLink: 'https://example.com/abc',
        memberCount: '5',
      })?.message,
    ).toMatch(/^Bitte gib einen gültigen Discord-Einladungslink ein/);
    expect(
      firstSchemaProblem(notificationSettingsSchema, { endpointUrl: 'ftp://example.com/hook', events: [] })
        ?.message,
    ).toBe('Bitte gib eine https://-URL für deinen Endpunkt ein.');
  });

  it('leaves a sentence it has no translation for as it is', async () => {
    await switchLocale('tr');
    expect(translateSchemaProblem('Invalid input')).toBe('Invalid input');
  });
});
