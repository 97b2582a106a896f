// The browser import's thread entry: plain JavaScript, so the thread starts without a loader,
// then tsx (as `npm start` uses) loads the TypeScript worker (as render-worker-entry.mjs does).
import { register } from 'tsx/esm/api';

register();
await import('./import-worker.ts');
