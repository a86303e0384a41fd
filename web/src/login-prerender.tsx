import { ChakraProvider } from '@chakra-ui/react';
import { renderToString } from 'react-dom/server';
import LoginPage from './pages/login-page.tsx';
import { system } from './theme.ts';

export function renderLoginPage(): string {
  return renderToString(
    <ChakraProvider value={system}>
      <LoginPage prerender />
    </ChakraProvider>,
  );
}
