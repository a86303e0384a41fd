import { ChakraProvider } from '@chakra-ui/react';
import { renderToString } from 'react-dom/server';
import type { Locale } from '@shared/i18n/index.ts';
import { PRODUCT_NAME } from './lib/brand.ts';
import { i18n, loadLocale } from './lib/i18n.ts';
import LoginPage from './pages/login-page.tsx';
import { system } from './theme.ts';

/**
 * Chakra's global CSS (the cascade layers' order, preflight, the tokens' CSS variables, globalCss) as one
 * stylesheet: what ChakraProvider would insert at start. The build puts it into index.html, and the app
 * renders with `appSystem`, which leaves it out (theme.ts).
 */
export function renderGlobalCss(): string {
  const markup = renderToString(<ChakraProvider value={system}>{null}</ChakraProvider>);
  const sheets = [...markup.matchAll(/<style data-emotion="css-global [^"]*"[^>]*>([\s\S]*?)<\/style>/g)];
  if (sheets.length !== 2) throw new Error(`expected 2 global style elements, got ${sheets.length}`);
  return sheets.map((match) => match[1]).join('');
}

export interface PrerenderedLogin {
  markup: string;
  /** The document's <title> and description in the same language. */
  title: string;
  description: string;
}

/** The login page in `locale` (one file per locale at build time; src/auth/spa-pages.ts picks one). */
export async function renderLoginPage(locale: Locale): Promise<PrerenderedLogin> {
  await loadLocale(locale);
  await i18n.changeLanguage(locale);
  const markup = renderToString(
    <ChakraProvider value={system}>
      <LoginPage prerender />
    </ChakraProvider>,
  );
  const t = i18n.getFixedT(locale);
  return {
    markup,
    title: t('login.documentTitle', { product: PRODUCT_NAME }),
    description: t('login.metaDescription', { product: PRODUCT_NAME }),
  };
}
