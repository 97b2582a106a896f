// module-record.mjs's resolve hook: runs on Node's loader thread, which has no process.env of the main thread's.
import { appendFileSync } from 'node:fs';

let out = null;
export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (out) appendFileSync(out, `${resolved.url}\n`);
  return resolved;
}
