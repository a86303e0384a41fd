import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/**
 * Chakra's createSystem builds its global CSS (preflight, globalCss and every token's CSS variable, about
 * a third of its work) when the entry runs, but the app never reads it: the build writes it into
 * index.html and the provider gets `appSystem` without it (web/src/theme.ts, decision 031). This makes
 * `system._global` a getter that builds it on first use. @chakra-ui/react is pinned; if an upgrade changes
 * the code, the build fails here rather than quietly keeping the eager work.
 */
function lazyChakraGlobalCss(): Plugin {
  const eager = 'const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];';
  const field = '    _global,\n';
  return {
    name: 'coinsync:lazy-chakra-global-css',
    apply: 'build',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith('@chakra-ui/react/dist/esm/styled-system/system.js'))
        return null;
      if (!code.includes(eager) || !code.includes(field)) {
        this.error('Chakra createSystem changed: update lazyChakraGlobalCss in vite.config.ts');
      }
      return code
        .replace(eager, 'let _global;')
        .replace(
          field,
          '    get _global() {\n      return _global ??= [getPreflightCss(), getGlobalCss(), getTokenCss()];\n    },\n',
        );
    },
  };
}

// The SPA lives in web/; the server serves the build from dist/web. `vite build --ssr` (npm run build)
// builds the server renderer, web/src/entry-server.tsx, into dist/ssr (decision 031).
export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  plugins: [react(), lazyChakraGlobalCss()],
  // The server renderer bundles its dependencies (React, Chakra, emotion, ...) in their production
  // builds, whatever NODE_ENV the server runs with (the demo runs in development): React's development
  // server renderer takes about three times as long per page. One copy of React, the bundled one.
  ...(isSsrBuild
    ? { ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } }
    : {}),
  resolve: {
    alias: { '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    // The manifest tells scripts/build/pages.ts which files the static login page's script needs.
    manifest: !isSsrBuild,
    // The server renderer needs no icons or robots.txt of its own.
    copyPublicDir: !isSsrBuild,
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('./web/index.html', import.meta.url)),
        'login-static': fileURLToPath(new URL('./web/src/login-static.ts', import.meta.url)),
      },
    },
  },
  // Development: `PUBLIC_URL=http://localhost:5173 npm run dev` beside `npx vite`; the API and, in demo
  // mode, the Discord simulator (with its gateway WebSocket) are proxied to the server on :5000.
  server: {
    proxy: {
      '/api': 'http://localhost:5000',
      '/discord-sim': { target: 'http://localhost:5000', ws: true },
    },
  },
}));
