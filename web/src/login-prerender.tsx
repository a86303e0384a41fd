import { ChakraProvider } from '@chakra-ui/react';
import { renderToString } from 'react-dom/server';
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

export function renderLoginPage(): string {
  return renderToString(
    <ChakraProvider value={system}>
      <LoginPage prerender />
    </ChakraProvider>,
  );
}
