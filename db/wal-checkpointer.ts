import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Db } from './database';

const WORKER = fileURLToPath(new URL('./wal-checkpoint-worker.mjs', import.meta.url));

/** SQLite's own default: a commit that leaves this many pages in the WAL checkpoints them itself. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** How often the thread checkpoints: each copies what this many ms of commits appended. */
const DEFAULT_INTERVAL_MS = 250;

export type CheckpointerRequest = { kind: 'add'; id: number; dbPath: string; intervalMs: number } | { kind: 'remove'; id: number };

export type CheckpointerMessage =
  | { kind: 'ready'; id: number }
  | { kind: 'checkpointed'; id: number; log: number; checkpointed: number }
  | { kind: 'failed'; id: number; message: string }
  /** The database is no longer checkpointed by the thread (asked, or its connection could not open: `message`). */
  | { kind: 'removed'; id: number; message?: string };

export interface WalCheckpointer {
  /** The last checkpoint's figures (WAL frames, and how many of them are in the database file), null before the first. */
  readonly last: () => { log: number; checkpointed: number } | null;
  /** Stops checkpointing this database on the thread; its connection checkpoints itself again, as SQLite does by default. */
  readonly stop: () => Promise<void>;
}

/** What the thread reports about one database, and what happens when it stops doing so. */
interface Registration {
  onMessage(message: CheckpointerMessage): void;
  /** The thread failed or exited: the database's connection checkpoints itself again. */
  onThreadGone(): void;
}

/** The process's checkpoint thread, started with the first database and kept while the process runs. */
interface CheckpointThread {
  worker: Worker;
  registrations: Map<number, Registration>;
  /** Stops under way: while any, the thread keeps the process up so each connection is closed. */
  stopping: number;
}

let thread: CheckpointThread | null = null;
let nextId = 1;

function checkpointThread(): CheckpointThread {
  if (thread) return thread;
  const worker = new Worker(WORKER, { execArgv: [] });
  const current: CheckpointThread = { worker, registrations: new Map(), stopping: 0 };
  worker.on('message', (message: CheckpointerMessage) => current.registrations.get(message.id)?.onMessage(message));
  const gone = () => {
    if (thread === current) thread = null;
    for (const registration of current.registrations.values()) registration.onThreadGone();
    current.registrations.clear();
  };
  worker.on('error', gone);
  worker.on('exit', gone);
  // The thread never keeps a finished process alive.
  worker.unref();
  thread = current;
  return current;
}

/** The process's checkpoint thread's id, null before the first database or after the thread went away. */
export function walCheckpointThreadId(): number | null {
  return thread?.worker.threadId ?? null;
}

/**
 * Checkpoints the server's WAL on a thread of its own. By default the commit that takes the WAL
 * past 1,000 pages copies them into the database file and syncs it, on the thread that
 * committed: on the server's event loop that was a stall of up to 150 ms every few hundred
 * writes, which every request in flight waited out (bench/wal-commits.ts). Here the server's
 * connection only appends; the thread copies and syncs. Should the thread fail or exit, the
 * connection checkpoints itself again, so the WAL never grows without bound.
 */
export function startWalCheckpointer(db: Db, dbPath: string, logger: Logger, intervalMs = DEFAULT_INTERVAL_MS): WalCheckpointer {
  const shared = checkpointThread();
  const id = nextId++;
  let last: { log: number; checkpointed: number } | null = null;
  let stopping = false;
  let failing = false;
  let removed: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (removed = resolve));
  const selfCheckpoint = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  };
  const end = () => {
    shared.registrations.delete(id);
    selfCheckpoint();
    removed();
  };
  shared.registrations.set(id, {
    onMessage(message) {
      if (message.kind === 'ready') {
        if (db.open && !stopping) db.pragma('wal_autocheckpoint = 0');
      } else if (message.kind === 'checkpointed') {
        last = { log: message.log, checkpointed: message.checkpointed };
        if (failing) logger.info({ db: dbPath }, 'WAL checkpoints work again');
        failing = false;
      } else if (message.kind === 'removed') {
        if (!stopping) logger.warn({ db: dbPath, error: message.message }, 'WAL checkpoint thread could not open the database; the server checkpoints itself');
        end();
      } else if (!failing) {
        // Once, not every interval: a read-only or full disk fails every try until it is fixed.
        failing = true;
        logger.warn({ db: dbPath, error: message.message }, 'WAL checkpoint failed; the thread keeps trying');
      }
    },
    onThreadGone() {
      if (!stopping) logger.warn({ db: dbPath }, 'WAL checkpoint thread exited; the server checkpoints itself');
      end();
    },
  });
  shared.worker.postMessage({ kind: 'add', id, dbPath, intervalMs } satisfies CheckpointerRequest);
  return {
    last: () => last,
    stop: async () => {
      if (stopping) return done;
      stopping = true;
      if (!shared.registrations.has(id)) return done;
      // Awaited, the thread's answer must keep the process up until it comes.
      if (shared.stopping++ === 0) shared.worker.ref();
      shared.worker.postMessage({ kind: 'remove', id } satisfies CheckpointerRequest);
      try {
        await done;
      } finally {
        if (--shared.stopping === 0) shared.worker.unref();
      }
    },
  };
}
