// The team figures' thread entry: plain JavaScript, so the thread starts without a loader, then
// tsx (as `npm start` uses) loads the TypeScript worker (as import-worker-entry.mjs does).
import { register } from 'tsx/esm/api';

register();
await import('./team-stats-worker.ts');
