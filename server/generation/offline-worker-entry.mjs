// The offline pool's thread entry: plain JavaScript, so the thread can start without a loader,
// then tsx (as `npm start` uses) loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./offline-worker.ts');
export default worker.default;
// Piscina calls a job kind other than the default by its export's name (`run(input, { name })`).
export const pair = worker.pair;
