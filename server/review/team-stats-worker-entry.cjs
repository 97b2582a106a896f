// The team figures' thread entry, CommonJS for the reason offline-worker-entry.cjs gives: it
// loads tsx and the TypeScript worker on the first count.
'use strict';

let loading = null;

function worker() {
  loading ??= import('tsx/esm/api').then(({ register }) => {
    register();
    return import('./team-stats-worker.ts');
  });
  return loading;
}

module.exports = async function figures(job) {
  return (await worker()).default(job);
};
