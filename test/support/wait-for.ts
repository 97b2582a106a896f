/** How often a condition is read again: the suite's `expect.poll` interval (vitest.config.ts). */
const POLL_INTERVAL_MS = 50;

/**
 * Reads `read` until `accept` takes what it returned, and returns that; rejects after
 * `timeoutMs` naming `what` it waited for and the last value read. For a state no event
 * announces (a row, a job over the API, a fake's requests); an event is waited on with
 * `nextEvent` (socket-client.ts).
 */
export function waitFor<T, S extends T>(what: string, read: () => T | Promise<T>, accept: (value: T) => value is S, timeoutMs?: number): Promise<S>;
export function waitFor<T>(what: string, read: () => T | Promise<T>, accept?: (value: T) => boolean, timeoutMs?: number): Promise<T>;
export async function waitFor<T>(what: string, read: () => T | Promise<T>, accept: (value: T) => boolean = Boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; last read: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
