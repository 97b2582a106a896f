// The render pool's thread entry. Piscina loads a thread's file with require() first: on Node 20.19+
// that is require(esm), and an ES entry with a top-level await (tsx's loader, then the worker)
// crashed the whole test process once in CI (a fatal error in ModuleJob.runSync). A CommonJS
// entry is required plainly; it loads tsx and the TypeScript worker on the first job.
'use strict';

let loading = null;

function worker() {
  loading ??= import('tsx/esm/api').then(({ register }) => {
    register();
    return import('./render-worker.ts');
  });
  return loading;
}

module.exports = async function render(job) {
  return (await worker()).default(job);
};
// Piscina calls a job kind other than the default by its export's name: the thread's priority, as set when its worker loaded.
module.exports.priority = async function priority() {
  return (await worker()).priority();
};
