// The browser import's thread entry: plain JavaScript, so the thread starts without a loader,
// then tsx (as `npm start` uses) loads the TypeScript worker (as the render pool's entry does).
import { register } from 'tsx/esm/api';

register();
await import('./import-worker.ts');
