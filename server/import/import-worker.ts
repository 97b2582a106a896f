import { parentPort } from 'node:worker_threads';
import { openDatabase } from '../../db/database';
import { importFolder, type FolderImportOptions } from './import-folder';
import { ImportSetupError } from './import-split';
import type { ImportThreadJob, ImportThreadMessage } from './import-thread';

/**
 * Runs in the import thread: the import is synchronous (better-sqlite3), so on the server's
 * event loop it would hold every request, and the progress events, until it ended. Here each
 * job has its own connection to the same database file (WAL; the busy timeout orders the
 * writers). The thread takes one job after another (import-thread.ts sends the next only once
 * the last has answered), so its start-up is paid once, not for every upload.
 */
const send = (message: ImportThreadMessage) => parentPort?.postMessage(message);

parentPort?.on('message', (job: ImportThreadJob) => {
  let db: ReturnType<typeof openDatabase> | null = null;
  try {
    db = openDatabase(job.dbPath);
    const options: FolderImportOptions = { ...job.options, onProgress: (done, total) => send({ kind: 'progress', done, total }) };
    send({ kind: 'done', result: importFolder(db, job.dir, options) });
  } catch (error) {
    send({ kind: 'failed', setup: error instanceof ImportSetupError, message: error instanceof Error ? error.message : String(error) });
  } finally {
    db?.close();
  }
});
