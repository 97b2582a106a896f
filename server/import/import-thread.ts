import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { ImportReport } from '../../shared/api/import';
import type { ImportFormat } from '../../shared/domain/benchmark-fields';
import { threadPool } from '../jobs/thread-pool';
import type { FolderImportOptions } from './import-folder';
import { ImportSetupError } from './import-split';

export interface ImportThreadJob {
  dbPath: string;
  dir: string;
  options: Omit<FolderImportOptions, 'onProgress'>;
}

/** What the thread gets: the job and the port it tells its progress on. */
export interface ImportThreadTask extends ImportThreadJob {
  progress: MessagePort;
}

export type ImportThreadOutcome = { kind: 'done'; result: { format: ImportFormat; report: ImportReport } } | { kind: 'failed'; setup: boolean; message: string };

/** HQA_IMPORT_THREADS=0 imports on the calling thread (the worker's own function, its own connection). */
const pool = threadPool<ImportThreadTask, ImportThreadOutcome>({
  entry: new URL('./import-worker-entry.cjs', import.meta.url),
  threadsVariable: 'HQA_IMPORT_THREADS',
  inProcess: async (task) => (await import('./import-worker')).default(task),
});

/**
 * `importFolder` on the shared thread pool (import-worker.ts), its progress passed on as it
 * happens: the server keeps answering, and `import.progress` reaches the browser while charts are
 * written. Imports share the pool's one thread: SQLite takes one writer at a time anyway.
 */
export async function importFolderOffThread(job: ImportThreadJob, onProgress: (done: number, total: number) => void): Promise<{ format: ImportFormat; report: ImportReport }> {
  const { port1, port2 } = new MessageChannel();
  // The port and the pool answer on different channels: the progress told is all passed on before the result.
  const told = new Promise<void>((resolve) => {
    port1.on('message', (message: { done: number; total: number } | { end: true }) => {
      if ('end' in message) resolve();
      else onProgress(message.done, message.total);
    });
    port1.once('close', () => resolve());
  });
  try {
    const outcome = await pool.run({ ...job, progress: port2 }, undefined, [port2]);
    await told;
    if (outcome.kind === 'done') return outcome.result;
    throw outcome.setup ? new ImportSetupError(outcome.message) : new Error(`import of ${job.dir} failed: ${outcome.message}`);
  } finally {
    port1.close();
  }
}
