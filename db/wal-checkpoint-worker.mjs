// The WAL checkpointer's thread (wal-checkpointer.ts). Plain JavaScript on purpose: it needs
// only better-sqlite3, and without a TypeScript loader the thread starts in a few milliseconds.
//
// One thread per process, for every database the process serves (a test process starts and
// stops hundreds of servers; each starting a thread of its own cost ~0.1 s of CPU). For each
// database added ({ kind: 'add', id, dbPath, intervalMs }) it opens its own connection and, every
// `intervalMs`, copies what the WAL holds into the database file (a PASSIVE checkpoint: it never
// waits for, nor blocks, the server's readers and writers), reporting how far it got:
// { kind: 'checkpointed', id, log, checkpointed } or { kind: 'failed', id, message }.
// { kind: 'remove', id } closes that connection and answers { kind: 'removed', id }.
import { clearInterval, setInterval } from 'node:timers';
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';

const send = (message) => parentPort?.postMessage(message);
/** @type {Map<number, { db: import('better-sqlite3').Database, timer: NodeJS.Timeout }>} */
const databases = new Map();

const checkpoint = (id, db) => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    if (row) send({ kind: 'checkpointed', id, log: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    send({ kind: 'failed', id, message: error instanceof Error ? error.message : String(error) });
  }
};

parentPort?.on('message', (message) => {
  if (message.kind === 'add') {
    let db;
    try {
      db = new Database(message.dbPath);
    } catch (error) {
      // The server's connection keeps checkpointing itself.
      send({ kind: 'removed', id: message.id, message: error instanceof Error ? error.message : String(error) });
      return;
    }
    databases.set(message.id, { db, timer: setInterval(() => checkpoint(message.id, db), message.intervalMs) });
    send({ kind: 'ready', id: message.id });
  } else if (message.kind === 'remove') {
    const entry = databases.get(message.id);
    databases.delete(message.id);
    if (entry) {
      clearInterval(entry.timer);
      entry.db.close();
    }
    send({ kind: 'removed', id: message.id });
  }
});
