import { io as connectSocket, type Socket } from 'socket.io-client';
import type { ServerEventName, ServerToClientEvents } from '../../shared/events';
import type { TestClient } from './http-client';

export type TestSocket = Socket<ServerToClientEvents>;

/** A real socket.io client signed in as `client`'s session; resolves once connected. */
export async function connectAs(url: string, client: TestClient): Promise<TestSocket> {
  const socket: TestSocket = connectSocket(url, { extraHeaders: { cookie: client.cookie }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** socket.io's typed `on` cannot take a generic event name; payloads are kept exactly as they arrived. */
function onRaw(socket: TestSocket, event: ServerEventName, listener: (payload: unknown) => void): () => void {
  const untyped = socket as unknown as Socket;
  untyped.on(event, listener);
  return () => void untyped.off(event, listener);
}

/** Every payload of `event` this socket receives from now on, as sent (not parsed: a test may look for keys a schema would drop). */
export function recordEvents(socket: TestSocket, event: ServerEventName): unknown[] {
  const seen: unknown[] = [];
  onRaw(socket, event, (payload) => seen.push(payload));
  return seen;
}

/** The first payload of `event` from now on that `match` accepts; rejects after `timeoutMs`. */
export function nextEvent(socket: TestSocket, event: ServerEventName, match: (payload: unknown) => boolean = () => true, timeoutMs = 5_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching "${event}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = onRaw(socket, event, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}
