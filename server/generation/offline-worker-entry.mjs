// The offline pool's thread entry: plain JavaScript, so the thread can start without a loader,
// then tsx (as `npm start` uses) loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
const { default: build } = await import('./offline-worker.ts');
export default build;
