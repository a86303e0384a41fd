import type { Resource } from 'i18next';
import type { Locale } from '../shared/i18n/index.ts';
import enBot from '../shared/i18n/locales/en/bot.json' with { type: 'json' };
import esBot from '../shared/i18n/locales/es/bot.json' with { type: 'json' };
import ptBRBot from '../shared/i18n/locales/pt-BR/bot.json' with { type: 'json' };
import frBot from '../shared/i18n/locales/fr/bot.json' with { type: 'json' };
import deBot from '../shared/i18n/locales/de/bot.json' with { type: 'json' };
import trBot from '../shared/i18n/locales/tr/bot.json' with { type: 'json' };
import enServer from '../shared/i18n/locales/en/server.json' with { type: 'json' };
import esServer from '../shared/i18n/locales/es/server.json' with { type: 'json' };
import ptBRServer from '../shared/i18n/locales/pt-BR/server.json' with { type: 'json' };
import frServer from '../shared/i18n/locales/fr/server.json' with { type: 'json' };
import deServer from '../shared/i18n/locales/de/server.json' with { type: 'json' };
import trServer from '../shared/i18n/locales/tr/server.json' with { type: 'json' };

// The server's catalogues: imported as JSON modules so the compiled server (dist/server) carries them.

export const SERVER_NAMESPACES = ['bot', 'server'] as const;
export type ServerNamespace = (typeof SERVER_NAMESPACES)[number];

export const CATALOGUES = {
  en: { bot: enBot, server: enServer },
  es: { bot: esBot, server: esServer },
  'pt-BR': { bot: ptBRBot, server: ptBRServer },
  fr: { bot: frBot, server: frServer },
  de: { bot: deBot, server: deServer },
  tr: { bot: trBot, server: trServer },
} satisfies Record<Locale, Record<ServerNamespace, object>> satisfies Resource;
