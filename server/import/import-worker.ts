import { openDatabase } from '../../db/database';
import { importFolder, type FolderImportOptions } from './import-folder';
import { ImportSetupError } from './import-split';
import type { ImportThreadOutcome, ImportThreadTask } from './import-thread';

/**
 * An import on a thread of the pool: the import is synchronous (better-sqlite3), so on the
 * server's event loop it would hold every request, and the progress events, until it ended.
 * Here it has its own connection to the same database file (WAL; the busy timeout orders the
 * writers) and tells its progress on the port the task brought. What failed comes back as an
 * outcome, since an error's class does not cross threads.
 */
export default function importOnThread(task: ImportThreadTask): ImportThreadOutcome {
  const db = openDatabase(task.dbPath);
  try {
    const options: FolderImportOptions = { ...task.options, onProgress: (done, total) => task.progress.postMessage({ done, total }) };
    return { kind: 'done', result: importFolder(db, task.dir, options) };
  } catch (error) {
    return { kind: 'failed', setup: error instanceof ImportSetupError, message: error instanceof Error ? error.message : String(error) };
  } finally {
    db.close();
    // Its last message: the caller waits for it, so no progress arrives after the result.
    task.progress.postMessage({ end: true });
    task.progress.close();
  }
}
