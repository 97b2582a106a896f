import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/database';
import { importFolder, type FolderImportOptions } from './import-folder';
import { ImportSetupError } from './import-split';
import type { ImportThreadJob, ImportThreadMessage } from './import-thread';

/**
 * Runs in a worker thread: the import is synchronous (better-sqlite3), so on the server's
 * event loop it would hold every request, and the progress events, until it ended. Here it
 * has its own connection to the same database file (WAL; the busy timeout orders the writers).
 */
const job = workerData as ImportThreadJob;
const send = (message: ImportThreadMessage) => parentPort?.postMessage(message);
const db = openDatabase(job.dbPath);
try {
  const options: FolderImportOptions = { ...job.options, onProgress: (done, total) => send({ kind: 'progress', done, total }) };
  send({ kind: 'done', result: importFolder(db, job.dir, options) });
} catch (error) {
  send({ kind: 'failed', setup: error instanceof ImportSetupError, message: error instanceof Error ? error.message : String(error) });
} finally {
  db.close();
}
