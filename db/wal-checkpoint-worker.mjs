// The WAL checkpointer's thread (wal-checkpointer.ts). Plain JavaScript on purpose: it needs
// only better-sqlite3, and without a TypeScript loader the thread starts in a few milliseconds
// (every server, and so every integration test's server, starts one).
//
// With its own connection, every `intervalMs` it copies what the WAL holds into the database
// file (a PASSIVE checkpoint: it never waits for, nor blocks, the server's readers and writers)
// and reports how far it got: { kind: 'checkpointed', log, checkpointed } or { kind: 'failed', message }.
import { clearInterval, setInterval } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { dbPath, intervalMs } = workerData;
const send = (message) => parentPort?.postMessage(message);
const db = new Database(dbPath);

const checkpoint = () => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    if (row) send({ kind: 'checkpointed', log: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
};
const timer = setInterval(checkpoint, intervalMs);
parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
send({ kind: 'ready' });
