import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { Server } from 'socket.io';
import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import { BATCH_EVENT, type BatchedEvent, type ClientToServerEvents, type ServerEventName, type ServerEventPayload, type ServerToClientEvents } from '../../shared/events';
import type { SealedView, SocketTarget } from '../app-context';
import { sessionCookieName, sessionToken } from '../auth/session-cookie';
import { hostChecker, type HostPolicy } from '../http/allowed-hosts';
import { crossOriginRefusal, type OriginPolicy } from '../http/request-origin';
import { liveSessions, sessionForToken } from '../auth/sessions';
import { audienceRoom, HIDDEN, reviewerView, STAFF_ROOM } from './audiences';

interface SocketData {
  user: User;
  /** The session the socket was opened with: it closes when that session ends. */
  sessionId: string;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * An event waiting in the outbox: what staff and reviewers get of it, and whose it is (null:
 * everyone's). `sealed`: what the reviewers among some users get instead (blind review: those
 * whose verdicts an outcome rests on). `superseded`: a later event of the same state in the
 * same batch says it all.
 */
type Outgoing = {
  [E in ServerEventName]: {
    event: E;
    payload: ServerEventPayload<E>;
    forReviewers: ServerEventPayload<E> | typeof HIDDEN;
    userId: number | null;
    sealed?: { users: ReadonlySet<number>; payload: ServerEventPayload<E> | typeof HIDDEN };
    superseded?: boolean;
  };
}[ServerEventName];

/**
 * Events that carry a whole state (who is online, the queue's counts): a client needs only the
 * latest of a batch. 50 reviewers opening their pages made 50 presence events, each sent to
 * every socket in one batch — 2,500 encoded payloads where 50 say the same.
 */
const LATEST_WINS: ReadonlySet<ServerEventName> = new Set(['presence.changed', 'queue.changed']);

/**
 * The events of `batch` one socket gets, in order: its audience's version (a sealed one for a
 * reviewer it is sealed from), its user's own, none from before it connected. `userId` is the
 * socket's user when the batch holds events of theirs (targeted or sealed), else null.
 */
function eventsFor(batch: readonly Outgoing[], staff: boolean, userId: number | null, after: number): BatchedEvent[] {
  const events: BatchedEvent[] = [];
  batch.forEach((outgoing, i) => {
    if (i < after || outgoing.superseded === true || (outgoing.userId !== null && outgoing.userId !== userId)) return;
    const sealed = !staff && userId !== null && outgoing.sealed?.users.has(userId) === true;
    const payload = staff ? outgoing.payload : sealed ? (outgoing.sealed?.payload ?? HIDDEN) : outgoing.forReviewers;
    if (payload !== HIDDEN) events.push([outgoing.event, payload] as BatchedEvent);
  });
  return events;
}

/**
 * Sends a batch: sockets that get the same events (same audience; the same user when the batch
 * holds events for one user; connected at the same point) share one encoding and one emit.
 */
function sendBatch(io: RealtimeServer, batch: readonly Outgoing[], lateAfter: ReadonlyMap<string, number>): void {
  const users = new Set(batch.flatMap((outgoing) => [...(outgoing.userId === null ? [] : [outgoing.userId]), ...(outgoing.sealed?.users ?? [])]));
  const groups = new Map<string, { ids: string[]; events: BatchedEvent[] }>();
  for (const socket of io.of('/').sockets.values()) {
    const staff = audienceRoom(socket.data.user.role) === STAFF_ROOM;
    const userId = users.has(socket.data.user.id) ? socket.data.user.id : null;
    const after = lateAfter.get(socket.id) ?? 0;
    const key = `${staff ? 'staff' : 'reviewer'}:${userId ?? ''}:${after}`;
    let group = groups.get(key);
    if (!group) {
      group = { ids: [], events: eventsFor(batch, staff, userId, after) };
      groups.set(key, group);
    }
    group.ids.push(socket.id);
  }
  // socket.io's emit typing cannot relate a generic event name to its listener's parameters.
  type Emit = (event: string, payload: unknown) => boolean;
  for (const { ids, events } of groups.values()) {
    const [only] = events;
    if (!only) continue;
    const target = io.to(ids);
    if (events.length === 1) (target.emit as Emit)(only[0], only[1]);
    else (target.emit as Emit)(BATCH_EVENT, events);
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
  originPolicy: OriginPolicy & HostPolicy,
): {
  io: RealtimeServer;
  publish: <E extends ServerEventName>(event: E, payload: ServerEventPayload<E>, sealed?: SealedView<E>) => void;
  publishTo: <E extends ServerEventName>(userId: number, event: E, payload: ServerEventPayload<E>) => void;
  broadcastPresence: () => Promise<void>;
  disconnectSockets: (target: SocketTarget) => void;
  sweepSessions: () => Promise<void>;
} {
  const hostRefusal = hostChecker(originPolicy);
  const io: RealtimeServer = new Server(httpServer, {
    serveClient: false,
    // A page of another origin (another port of the same host is same-site, so the session
    // cookie rides along) must not open a socket as its visitor, nor a page under a name
    // re-pointed at this machine: the handshake is refused (403), as HTTP requests are.
    allowRequest: (req, callback) => {
      const host = hostRefusal(req);
      if (host !== null) return callback(`bad_host: ${host}`, false);
      const refusal = crossOriginRefusal(req, originPolicy);
      callback(refusal === null ? null : `bad_origin: ${refusal}`, refusal === null);
    },
  });

  const cookieName = sessionCookieName(originPolicy.cookieSecure);
  io.use((socket, next) => {
    // Several session cookies name no session (auth/session-cookie.ts); the page's next API call clears them.
    const session = sessionForToken(db, sessionToken(socket.handshake.headers.cookie, cookieName));
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
   * Events wait in order for a short window, then go out together: each socket gets one frame
   * per batch (its events alone, or several as one BATCH_EVENT), so 50 reviewers cost 50
   * writes per batch, not 50 per event, and the request that caused an event answers first.
   * A burst of claims is handled over many turns of the event loop; the window gathers many
   * of their events into one batch.
   */
  const outbox: Outgoing[] = [];
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
    sendBatch(io, batch, new Map(late.map((socket) => [socket.id, socket.after])));
  };
  const enqueue = (outgoing: Outgoing) => {
    // Marked, not removed: latecomers count positions in the outbox. A socket that connected
    // after the earlier one still gets this later one, which is the state it needs.
    if (LATEST_WINS.has(outgoing.event)) {
      for (const earlier of outbox) if (earlier.event === outgoing.event && earlier.userId === outgoing.userId) earlier.superseded = true;
    }
    outbox.push(outgoing);
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
  /**
   * To everyone; an event that names people reaches reviewers without them (audiences.ts), and
   * the reviewers an event is `sealed` from get its sealed payload, or nothing.
   */
  function publish<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>, sealed?: SealedView<E>): void {
    const forReviewers = reviewerView(event, payload);
    const sealedView = sealed && sealed.users.length > 0 ? { users: new Set(sealed.users), payload: sealed.payload ?? HIDDEN } : undefined;
    enqueue({ event, payload, forReviewers: forReviewers ?? payload, userId: null, ...(sealedView && { sealed: sealedView }) } as Outgoing);
  }
  const publishTo = <E extends ServerEventName>(userId: number, event: E, payload: ServerEventPayload<E>) => {
    enqueue({ event, payload, forReviewers: payload, userId } as Outgoing);
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
