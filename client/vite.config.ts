import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompress } from './vite-precompress.ts';

const apiTarget = process.env.VITE_API_PROXY ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@common': fileURLToPath(new URL('../common', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The server reads which files each screen needs from it, to announce them in the page's HTML.
    manifest: true,
    // One stylesheet for the whole app (about 23 KB compressed): a page drawn on the server needs
    // its screen's styles before the first paint, and one request beats ten render-blocking ones
    // on a slow phone connection, where each costs a round trip.
    cssCodeSplit: false,
  },
  // One `vite build` makes both: the browser's app (dist) and the server's way into the same
  // screens (dist-ssr/entry-server.js), which renders the listing, car and content pages.
  builder: {},
  environments: {
    ssr: {
      build: {
        outDir: 'dist-ssr',
        emptyOutDir: true,
        sourcemap: false,
        manifest: false,
        copyPublicDir: false,
        rollupOptions: { input: { 'entry-server': 'src/entry-server.tsx' } },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, ws: true },
      '/socket.io': { target: apiTarget, ws: true },
      '/media': { target: apiTarget },
      '/docs': { target: apiTarget },
    },
  },
});
