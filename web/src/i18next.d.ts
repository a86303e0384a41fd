import 'i18next';
import type en from '@shared/i18n/locales/en/web.json';

// Keys are checked at compile time against the English catalogue (decision 050).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'web';
    resources: { web: typeof en };
  }
}
