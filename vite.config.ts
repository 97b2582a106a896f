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
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Vega, Vega-Lite and their d3 parts (one 800 kB chunk otherwise) load together, only when a
        // chart is drawn: split by package so that no chunk passes the 500 kB warning and each caches
        // apart from the app's code. The pages are lazy routes already (client/src/app/pages.ts).
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            { name: 'vega-lite', test: /node_modules[\\/]vega-lite[\\/]/ },
            { name: 'vega', test: /node_modules[\\/]vega(-[a-z-]+)?[\\/]/ },
            { name: 'd3', test: /node_modules[\\/](d3-[a-z-]+|topojson-client|internmap|delaunator|robust-predicates)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:5174',
      '/socket.io': { target: 'ws://localhost:5174', ws: true },
    },
  },
});
