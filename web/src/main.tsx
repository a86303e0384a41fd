import './lib/zod-jitless.ts';
import './fonts.css';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadRoutedApp } from './app.tsx';
import { startEarlyData } from './early-data.ts';
import { readBoot } from './lib/boot.ts';
import { queryClient } from './lib/query-client.ts';
import { authKeys } from './lib/query-keys.ts';
import { Toaster } from './lib/toaster.tsx';
import { findRoute } from './routes.ts';
import { system } from './theme.ts';

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing from index.html');

// Longest wait for the signed-in page's code and first data before rendering anyway (with skeletons).
const FIRST_RENDER_WAIT_MS = 3000;

// The server put this visit's user and config into the page: the first render needs no round trip.
// Signed in, the router, the page's chunk and its first data all start downloading now, in parallel,
// and the first render waits for them: the page paints once, complete, instead of a spinner, then
// skeletons, then cards (each a long main-thread task on a phone). The render itself is a transition,
// so React yields to the browser every few milliseconds while building it.
const boot = readBoot();
let ready: Promise<unknown> = Promise.resolve();
if (boot) {
  queryClient.setQueryData(authKeys.user(), boot.user);
  queryClient.setQueryData(authKeys.config(), boot.config);
  if (boot.user || findRoute(window.location.pathname)?.layout === 'bare') {
    ready = Promise.race([
      Promise.all([
        preloadRoutedApp(),
        boot.user ? startEarlyData(queryClient, window.location.pathname) : null,
      ]),
      new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS)),
    ]).catch(() => undefined); // a chunk that failed reaches the error boundary when the page renders
  }
}

void ready.then(() => startTransition(() => render(root)));

function render(root: HTMLElement) {
  createRoot(root).render(
    <StrictMode>
      <ChakraProvider value={system}>
        <QueryClientProvider client={queryClient}>
          <App />
          <Toaster />
        </QueryClientProvider>
      </ChakraProvider>
    </StrictMode>,
  );
}
