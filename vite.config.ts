import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The client is built into dist/client and served by the Express server on HQA_PORT;
// `vite dev` proxies the API and socket.io to a server started separately.
export default defineConfig({
  root: 'client',
  plugins: [react()],
  resolve: {
    alias: [
      // zod without its `new Function` probe, which the CSP reports on every page (see the file).
      { find: /^zod$/, replacement: fileURLToPath(new URL('./client/src/zod-csp.ts', import.meta.url)) },
      // The client's name for shared/ (tsconfig.json `paths`).
      { find: /^@shared\//, replacement: fileURLToPath(new URL('./shared/', import.meta.url)) },
    ],
  },
  build: { outDir: '../dist/client', emptyOutDir: true },
  server: {
    proxy: {
      '/api': 'http://localhost:5174',
      '/socket.io': { target: 'ws://localhost:5174', ws: true },
    },
  },
});
