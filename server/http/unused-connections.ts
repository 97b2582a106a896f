import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The connections of `server` that have carried no request yet. Browsers open such connections
 * ahead of need (Chromium preconnects to an origin it expects to load from); Node counts one as
 * busy, not idle, so `closeIdleConnections` leaves it and `close` waits for it until the headers
 * timeout (a minute). Nothing was asked on one, so closing it cuts nothing short.
 */
export function unusedConnections(server: Server): { destroyAll(): void } {
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  // A request or a WebSocket upgrade (socket.io) puts it to use: from then on it is idle or busy as Node counts it.
  const used = (req: { socket: Socket }) => unused.delete(req.socket);
  server.on('request', used);
  server.on('upgrade', used);
  return {
    destroyAll() {
      for (const socket of unused) socket.destroy();
      unused.clear();
    },
  };
}
