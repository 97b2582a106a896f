import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import type { ClientToServerEvents, ServerEventName, ServerEventPayload, ServerToClientEvents } from '../../shared/events';
import { sessionToken } from '../auth/auth-middleware';
import { crossOriginRefusal, type OriginPolicy } from '../http/request-origin';
import { userForToken } from '../auth/sessions';

interface SocketData {
  user: User;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * socket.io on the HTTP server, authenticated by the same session cookie as the API: a
 * connection without a valid session is refused before any event flows.
 */
export function attachRealtime(
  httpServer: HttpServer,
  db: Db,
  reviewingCounts: () => Map<number, number>,
  originPolicy: OriginPolicy,
): {
  io: RealtimeServer;
  publish: <E extends ServerEventName>(event: E, payload: ServerEventPayload<E>) => void;
  publishTo: <E extends ServerEventName>(userId: number, event: E, payload: ServerEventPayload<E>) => void;
  broadcastPresence: () => Promise<void>;
} {
  const io: RealtimeServer = new Server(httpServer, {
    serveClient: false,
    // A page of another origin (another port of the same host is same-site, so the session
    // cookie rides along) must not open a socket as its visitor: the handshake is refused (403).
    allowRequest: (req, callback) => {
      const refusal = crossOriginRefusal(req, originPolicy);
      callback(refusal === null ? null : `bad_origin: ${refusal}`, refusal === null);
    },
  });

  io.use((socket, next) => {
    const user = userForToken(db, sessionToken(socket.handshake.headers.cookie));
    if (!user) return next(new Error('unauthenticated'));
    socket.data.user = user;
    next();
  });

  const broadcastPresence = async () => {
    const sockets = await io.fetchSockets();
    const reviewing = reviewingCounts();
    const seen = new Map<number, { id: number; username: string; role: User['role']; reviewing: number }>();
    for (const s of sockets) {
      const user = s.data.user;
      seen.set(user.id, { id: user.id, username: user.username, role: user.role, reviewing: reviewing.get(user.id) ?? 0 });
    }
    io.emit('presence.changed', { users: [...seen.values()].sort((a, b) => a.username.localeCompare(b.username)) });
  };

  io.on('connection', (socket) => {
    void socket.join(`user:${socket.data.user.id}`);
    void broadcastPresence();
    socket.on('disconnect', () => void broadcastPresence());
  });

  const publish = <E extends ServerEventName>(event: E, payload: ServerEventPayload<E>) => {
    // socket.io's emit typing cannot relate a generic event name to its listener's parameters.
    (io.emit as (event: string, payload: unknown) => boolean)(event, payload);
  };
  const publishTo = <E extends ServerEventName>(userId: number, event: E, payload: ServerEventPayload<E>) => {
    (io.to(`user:${userId}`).emit as (event: string, payload: unknown) => boolean)(event, payload);
  };
  return { io, publish, publishTo, broadcastPresence };
}
