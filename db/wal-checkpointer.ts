import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Db } from './database';

const WORKER = fileURLToPath(new URL('./wal-checkpoint-worker.mjs', import.meta.url));

/** SQLite's own default: a commit that leaves this many pages in the WAL checkpoints them itself. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** How often the thread checkpoints: each copies what this many ms of commits appended. */
const DEFAULT_INTERVAL_MS = 250;

export interface CheckpointerJob {
  dbPath: string;
  intervalMs: number;
}

export type CheckpointerMessage =
  | { kind: 'ready' }
  | { kind: 'checkpointed'; log: number; checkpointed: number }
  | { kind: 'failed'; message: string };

export interface WalCheckpointer {
  /** The last checkpoint's figures (WAL frames, and how many of them are in the database file), null before the first. */
  readonly last: () => { log: number; checkpointed: number } | null;
  /** Stops the thread; the connection checkpoints itself again, as SQLite does by default. */
  readonly stop: () => Promise<void>;
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
  const worker = new Worker(WORKER, { workerData: { dbPath, intervalMs } satisfies CheckpointerJob });
  let last: { log: number; checkpointed: number } | null = null;
  let stopping = false;
  let failing = false;
  const selfCheckpoint = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  };
  worker.on('message', (message: CheckpointerMessage) => {
    if (message.kind === 'ready') {
      if (db.open && !stopping) db.pragma('wal_autocheckpoint = 0');
    }
    else if (message.kind === 'checkpointed') {
      last = { log: message.log, checkpointed: message.checkpointed };
      if (failing) logger.info({ db: dbPath }, 'WAL checkpoints work again');
      failing = false;
    } else if (!failing) {
      // Once, not every interval: a read-only or full disk fails every try until it is fixed.
      failing = true;
      logger.warn({ db: dbPath, error: message.message }, 'WAL checkpoint failed; the thread keeps trying');
    }
  });
  worker.on('error', (error) => logger.warn({ err: error, db: dbPath }, 'WAL checkpoint thread failed; the server checkpoints itself'));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      selfCheckpoint();
      if (!stopping) logger.warn({ code, db: dbPath }, 'WAL checkpoint thread exited; the server checkpoints itself');
      resolve();
    }),
  );
  // The thread never keeps a finished process alive.
  worker.unref();
  return {
    last: () => last,
    stop: async () => {
      stopping = true;
      // Awaited, its exit must keep the process up until it comes.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
