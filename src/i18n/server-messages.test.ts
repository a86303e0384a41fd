import { describe, expect, it } from 'vitest';
import { CAMPAIGN_MESSAGES, insufficientForSubmit } from '../shared/campaign-schemas.ts';
import { JOIN_MESSAGES, accountTooNewMessage, joinPaceMessage } from '../shared/join-constants.ts';
import { INTERNAL_ERROR_MESSAGE } from '../shared/errors.ts';
import { formatWait } from '../rewards/claim-reward.ts';
import { findServerMessage, localizeMessage } from './server-messages.ts';
import { acceptLanguageLocale } from './user-locale.ts';
import { DiscordBusyError } from '../discord/discord-api.ts';

// The API's English sentences, found in the catalogue and said in the reader's language (decision 051).

describe('localizeMessage', () => {
  it('leaves English exactly as the service said it', () => {
    const message = insufficientForSubmit(50, '12.50');
    expect(localizeMessage(message, 'en')).toBe(message);
    expect(localizeMessage(CAMPAIGN_MESSAGES.minimumCoins, 'en')).toBe('Minimum 3 coins required');
  });

  it('translates fixed sentences', () => {
    expect(localizeMessage(JOIN_MESSAGES.noSlots, 'de')).toBe('Dieser Server hat keine freien Plätze mehr');
    expect(localizeMessage(INTERNAL_ERROR_MESSAGE, 'fr')).toBe(
      'Un problème est survenu de notre côté. Veuillez réessayer.',
    );
    expect(localizeMessage(CAMPAIGN_MESSAGES.minimumCoins, 'tr')).toBe('En az 3 coin gerekli');
  });

  it('carries the values over, with coin amounts in the locale’s digits', () => {
    expect(localizeMessage(insufficientForSubmit(50, '1234.50'), 'de')).toBe(
      'Du brauchst 50 Coins, um diesen Server einzureichen. Du hast 1.234,50 Coins.',
    );
    expect(localizeMessage(insufficientForSubmit(50, '12.50'), 'pt-BR')).toBe(
      'Você precisa de 50 moedas para enviar este servidor. Você tem 12,50 moedas.',
    );
    expect(localizeMessage(accountTooNewMessage(7, '2026-12-01'), 'es')).toBe(
      'Tu cuenta de Discord debe tener al menos 7 días para ganar monedas con uniones. Puedes unirte a servidores a partir del 2026-12-01.',
    );
    expect(localizeMessage(joinPaceMessage(45 * 60_000, { perHour: 2, perDay: 24 }, false), 'fr')).toBe(
      'Pour protéger votre compte Discord, vous pouvez rejoindre 2 serveurs par heure. Prochaine adhésion dans 45 min.',
    );
  });

  it('says a cooldown’s wait in the locale’s words and plurals', () => {
    const english = `You can claim your hourly reward again in ${formatWait(61 * 60_000)}.`;
    expect(english).toBe('You can claim your hourly reward again in 1 hour 1 minute.');
    expect(localizeMessage(english, 'de')).toBe(
      'Du kannst deine stündliche Belohnung in 1 Stunde 1 Minute wieder abholen.',
    );
    expect(
      localizeMessage(`You can claim your daily reward again in ${formatWait(23 * 3_600_000)}.`, 'es'),
    ).toBe('Podrás reclamar tu recompensa diaria de nuevo en 23 horas.');
  });

  it('says "Discord is busy" with its wait', () => {
    expect(localizeMessage(new DiscordBusyError(45_000, 'rate-limit').message, 'tr')).toBe(
      'Discord şu anda meşgul; 45 s sonra tekrar dene',
    );
  });

  it('leaves a sentence it does not know in English', () => {
    expect(findServerMessage('Something nobody catalogued')).toBeNull();
    expect(localizeMessage('Something nobody catalogued', 'de')).toBe('Something nobody catalogued');
  });
});

describe('acceptLanguageLocale', () => {
  it('takes the first of our languages by preference', () => {
    expect(acceptLanguageLocale('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(acceptLanguageLocale('ja,pt;q=0.8,en;q=0.5')).toBe('pt-BR');
    expect(acceptLanguageLocale('en;q=0.5,fr;q=0.9')).toBe('fr');
    expect(acceptLanguageLocale('es-419')).toBe('es');
    expect(acceptLanguageLocale('en-US,de;q=0.9')).toBe('en');
    expect(acceptLanguageLocale('*')).toBe('en');
    expect(acceptLanguageLocale('tr;q=0')).toBe('en');
    expect(acceptLanguageLocale(undefined)).toBe('en');
    expect(acceptLanguageLocale('ja')).toBe('en');
  });
});
