import { io as connectSocket, type Socket } from 'socket.io-client';
import { onServerEvent, ServerEventSchemas, type ServerEventName, type ServerEventPayload, type ServerToClientEvents } from '../../shared/events';
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

/**
 * Every `event` the socket receives, alone or in a batch (shared/events.ts); payloads are kept
 * exactly as they arrived. socket.io's typed `on` cannot take a generic event name.
 */
export function onRaw(socket: TestSocket, event: ServerEventName, listener: (payload: unknown) => void): () => void {
  return onServerEvent(socket as unknown as Socket, event, listener);
}

/** Calls `listener` with every `event` the socket receives, parsed with its schema; returns the function that stops it. */
export function onEvent<E extends ServerEventName>(socket: TestSocket, event: E, listener: (payload: ServerEventPayload<E>) => void): () => void {
  return onRaw(socket, event, (payload) => listener(ServerEventSchemas[event].parse(payload) as ServerEventPayload<E>));
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
