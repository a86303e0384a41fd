import './lib/zod-jitless.ts';
import './fonts.css';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, preloadRoutedApp } from './app.tsx';
import { startEarlyData } from './early-data.ts';
import { readBoot, seedBoot } from './lib/boot.ts';
import { switchLocale } from './lib/i18n.ts';
import { queryClient } from './lib/query-client.ts';
import { Toaster } from './lib/toaster.tsx';
import { findRoute } from './routes.ts';
import { appSystem, system } from './theme.ts';

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
// The member's language (decision 050; signed out on Terms or Privacy, the visitor's: decision 061): its
// catalogue chunk loads beside the page's, before the one paint.
const localeReady = switchLocale(boot?.user?.locale ?? boot?.locale ?? 'en').catch(() => undefined);
let ready: Promise<unknown> = Promise.resolve();
if (boot?.rendered) {
  // The server rendered this page (decision 031): it is on screen already. Hydrate it once the router and
  // the page's chunks (preloaded by the HTML) are in, from the same data the server rendered it with.
  seedBoot(queryClient, boot);
  ready = preloadRoutedApp().catch(() => undefined);
} else if (boot) {
  seedBoot(queryClient, boot);
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

void Promise.all([ready, localeReady]).then(() => startTransition(() => render(root)));

function render(root: HTMLElement) {
  const app = (
    <StrictMode>
      <ChakraProvider value={import.meta.env.DEV ? system : appSystem}>
        <QueryClientProvider client={queryClient}>
          <App />
          <Toaster />
        </QueryClientProvider>
      </ChakraProvider>
    </StrictMode>
  );
  // Inside the transition, hydration yields to the browser every few milliseconds as a render does.
  if (boot?.rendered) hydrateRoot(root, app);
  else createRoot(root).render(app);
}
