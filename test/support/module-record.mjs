// Loaded with `node --import` before tsx: appends every module the process resolves — ES
// imports (a resolve hook, on Node's loader thread) and CommonJS requires and require.resolve
// calls — to the file HQA_MODULE_RECORD names, one per line. A test reads what a start loads.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import process from 'node:process';

const out = process.env.HQA_MODULE_RECORD;
if (out) {
  register('./module-record-hooks.mjs', { parentURL: import.meta.url, data: { out } });
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function recorded(...args) {
    const file = resolveFilename.apply(this, args);
    appendFileSync(out, `${file}\n`);
    return file;
  };
}
