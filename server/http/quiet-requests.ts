import type { IncomingMessage } from 'node:http';

/**
 * Requests the server makes to itself (the start-up warm-up): the request log leaves them out,
 * so its lines stay what clients asked. Marked by the object, which no client can reach.
 */
const quiet = new WeakSet<IncomingMessage>();

export function markQuiet(req: IncomingMessage): void {
  quiet.add(req);
}

export function isQuiet(req: IncomingMessage): boolean {
  return quiet.has(req);
}
