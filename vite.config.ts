import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The SPA lives in web/; the server serves the build from dist/web. `vite build --ssr` (npm run build)
// builds the server renderer, web/src/entry-server.tsx, into dist/ssr (decision 031).
export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: { '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    // The manifest tells scripts/prerender-login.ts which files the static login page's script needs.
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
