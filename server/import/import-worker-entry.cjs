// The browser import's thread entry, CommonJS for the reason offline-worker-entry.cjs gives: it
// loads tsx and the TypeScript worker on the first import.
'use strict';

let loading = null;

function worker() {
  loading ??= import('tsx/esm/api').then(({ register }) => {
    register();
    return import('./import-worker.ts');
  });
  return loading;
}

module.exports = async function importOnThread(job) {
  return (await worker()).default(job);
};
