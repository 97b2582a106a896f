import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Server } from 'socket.io';
import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import type { ClientToServerEvents, ServerEventName, ServerEventPayload, ServerToClientEvents } from '../../shared/events';
import type { SocketTarget } from '../app-context';
import { sessionToken } from '../auth/auth-middleware';
import { crossOriginRefusal, type OriginPolicy } from '../http/request-origin';
import { liveSessions, sessionForToken } from '../auth/sessions';
import { audienceRoom, HIDDEN, REVIEWER_ROOM, reviewerView, STAFF_ROOM } from './audiences';

interface SocketData {
  user: User;
  /** The session the socket was opened with: it closes when that session ends. */
  sessionId: string;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** The parts of engine.io's connection and ws's socket this reaches: neither library exports them in its types. */
interface EngineConnection {
  transport?: { name?: string; writable?: boolean; socket?: { _socket?: unknown } };
  flush?: () => void;
}

/**
 * One system call per connection per batch of events, not one per event. engine.io queues a
 * connection's events while its last write is in flight and then writes them together, but
 * as one WebSocket frame each, each its own write(2): a burst of 50 claims to 50 reviewers
 * was 2,500 of them, most of the server's time. Corking the TCP socket while engine.io writes
 * a batch (it emits `flush` just before) makes them one write at the next tick. Only a
 * WebSocket connection has a socket to cork; any other is written as before.
 */
function coalesceSocketWrites(io: RealtimeServer): void {
  io.engine.on('flush', (connection: EngineConnection) => {
    const raw = connection.transport?.socket?._socket;
    if (!(raw instanceof Socket)) return;
    raw.cork();
    // Always paired: whatever engine.io does after this event, the socket is uncorked once this tick ends.
    process.nextTick(() => raw.uncork());
  });
}

/**
 * Runs `send` with every WebSocket connection's transport held, then flushes each once. engine.io
 * writes a connection's first packet at once and queues the rest until that write is done, so
 * a batch of k events went out as two writes per socket (the first event, then the other k-1);
 * held, the k events reach the transport together and coalesceSocketWrites makes them one.
 */
function holdingWrites(io: RealtimeServer, send: () => void): void {
  // engine.io's server keeps its connections in `clients`, which its types mark protected.
  const { clients } = io.engine as unknown as { clients: Record<string, EngineConnection> };
  const held: EngineConnection[] = [];
  for (const connection of Object.values(clients)) {
    const transport = connection.transport;
    if (transport?.name !== 'websocket' || transport.writable !== true) continue;
    transport.writable = false;
    held.push(connection);
  }
  try {
    send();
  } finally {
    for (const connection of held) {
      if (connection.transport) connection.transport.writable = true;
      connection.flush?.();
    }
  }
}

export type Realtime = ReturnType<typeof attachRealtime>;

/**
 * How long an event may wait for others to share its writes: below what a person notices on a
 * live page. Each flush is one write(2) per socket; at 10 ms a busy queue flushed every window
 * and those writes were a sixth of the server's time per claim (bench/review.ts profile).
 */
const BROADCAST_WINDOW_MS = 25;
/**
 * How long a batch may be held past its window while HTTP requests are in flight. Under load
 * the server answers first and writes each socket once per this span instead of once per
 * window: in a burst of 50 claims the broadcasts took a fifth of the thread between the
 * answers (bench/review.ts profile). Still below what a person notices on a live page.
 */
const BUSY_HOLD_MS = 100;

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
  disconnectSockets: (target: SocketTarget) => void;
  sweepSessions: () => Promise<void>;
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

  coalesceSocketWrites(io);

  io.use((socket, next) => {
    const session = sessionForToken(db, sessionToken(socket.handshake.headers.cookie));
    if (!session) return next(new Error('unauthenticated'));
    socket.data.user = session.user;
    socket.data.sessionId = session.id;
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
    const users = [...seen.values()].sort((a, b) => a.username.localeCompare(b.username));
    publish('presence.changed', { online: users.length, reviewing: users.filter((u) => u.reviewing > 0).length, users });
  };

  io.on('connection', (socket) => {
    // A socket that connects while events wait gets only those published after it connected.
    if (outbox.length > 0) latecomers.push({ id: socket.id, after: outbox.length });
    void socket.join([`user:${socket.data.user.id}`, `session:${socket.data.sessionId}`, audienceRoom(socket.data.user.role)]);
    void broadcastPresence();
    socket.on('disconnect', () => void broadcastPresence());
  });

  /**
   * Events wait in order for a short window, then go out together: each costs one socket write
   * per listener (50 reviewers, 50 writes), and the request that caused it should answer
   * first, not after them. A burst of claims is handled over many turns of the event loop; a
   * window of BROADCAST_WINDOW_MS gathers many of their events into one batch, one write per
   * socket (coalesceSocketWrites), where flushing every turn wrote once per claim per socket.
   */
  const outbox: ((except: string[]) => void)[] = [];
  /** Sockets that connected while the outbox held `after` events: those are not theirs. */
  const latecomers: { id: string; after: number }[] = [];
  let flushScheduled = false;
  /** The window of the waiting batch has passed, and it waits for the requests in flight (at most until `holdTimer`). */
  let heldForRequests = false;
  let holdTimer: NodeJS.Timeout | null = null;
  const flushOutbox = () => {
    flushScheduled = false;
    heldForRequests = false;
    if (holdTimer) clearTimeout(holdTimer);
    holdTimer = null;
    const batch = outbox.splice(0);
    const late = latecomers.splice(0);
    if (batch.length === 0) return;
    holdingWrites(io, () => {
      batch.forEach((send, i) => send(late.filter((socket) => i < socket.after).map((socket) => socket.id)));
    });
  };
  const enqueue = (send: (except: string[]) => void) => {
    outbox.push(send);
    if (flushScheduled) return;
    flushScheduled = true;
    // unref: a pending batch never holds a shutting-down process open.
    setTimeout(windowEnded, BROADCAST_WINDOW_MS).unref();
  };
  const windowEnded = () => {
    if (!flushScheduled || heldForRequests) return;
    if (requestsInFlight === 0) return flushOutbox();
    heldForRequests = true;
    holdTimer = setTimeout(flushOutbox, BUSY_HOLD_MS - BROADCAST_WINDOW_MS);
    holdTimer.unref();
  };
  /**
   * The HTTP requests being answered (not socket.io's own): a held batch goes out once the last
   * has answered — on the next turn, so that answer's write goes first.
   */
  let requestsInFlight = 0;
  const socketPath = io.path();
  httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith(socketPath) === true) return;
    requestsInFlight++;
    res.once('close', () => {
      requestsInFlight--;
      if (requestsInFlight === 0 && heldForRequests) setImmediate(() => heldForRequests && flushOutbox());
    });
  });
  // socket.io's emit typing cannot relate a generic event name to its listener's parameters.
  type Emit = (event: string, payload: unknown) => boolean;

  /** To everyone; an event that names people reaches reviewers without them (audiences.ts). */
  function publish<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
    const forReviewers = reviewerView(event, payload);
    enqueue((except) => {
      if (forReviewers === null) return void (io.except(except).emit as Emit)(event, payload);
      (io.to(STAFF_ROOM).except(except).emit as Emit)(event, payload);
      if (forReviewers !== HIDDEN) (io.to(REVIEWER_ROOM).except(except).emit as Emit)(event, forReviewers);
    });
  }
  const publishTo = <E extends ServerEventName>(userId: number, event: E, payload: ServerEventPayload<E>) => {
    enqueue((except) => (io.to(`user:${userId}`).except(except).emit as Emit)(event, payload));
  };
  const disconnectSockets = (target: SocketTarget) => {
    // What was published before the session ended still reaches it; nothing after does, and it closes now, not a turn later.
    flushOutbox();
    const room = 'userId' in target ? `user:${target.userId}` : `session:${target.sessionId}`;
    // Closing the connection (not just the namespace) leaves nothing to send on under the old identity.
    io.in(room).disconnectSockets(true);
  };

  /**
   * Closes every socket whose session is no longer live or whose user's role changed since it
   * connected: for the ends the server does not make itself (idle or absolute expiry, `hqa user
   * disable` in another process). Its own ends close sockets at once (disconnectSockets).
   */
  const sweepSessions = async () => {
    const sockets = await io.fetchSockets();
    if (sockets.length === 0) return;
    const live = liveSessions(db, [...new Set(sockets.map((s) => s.data.sessionId))]);
    for (const s of sockets) {
      const session = live.get(s.data.sessionId);
      if (!session || session.role !== s.data.user.role) s.disconnect(true);
    }
  };
  return { io, publish, publishTo, broadcastPresence, disconnectSockets, sweepSessions };
}
