import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportReport } from '../../shared/api/import';
import type { ImportFormat } from '../../shared/domain/benchmark-fields';
import type { FolderImportOptions } from './import-folder';
import { ImportSetupError } from './import-split';

const WORKER = fileURLToPath(new URL('./import-worker-entry.mjs', import.meta.url));

export interface ImportThreadJob {
  dbPath: string;
  dir: string;
  options: Omit<FolderImportOptions, 'onProgress'>;
}

export type ImportThreadMessage =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'done'; result: { format: ImportFormat; report: ImportReport } }
  | { kind: 'failed'; setup: boolean; message: string };

/**
 * `importFolder` on a worker thread (import-worker.ts), its progress passed on as it happens:
 * the server keeps answering, and `import.progress` reaches the browser while charts are written.
 */
export function importFolderOffThread(job: ImportThreadJob, onProgress: (done: number, total: number) => void): Promise<{ format: ImportFormat; report: ImportReport }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: job });
    let settled = false;
    worker.on('message', (message: ImportThreadMessage) => {
      if (message.kind === 'progress') return onProgress(message.done, message.total);
      settled = true;
      if (message.kind === 'done') resolve(message.result);
      else reject(message.setup ? new ImportSetupError(message.message) : new Error(`import of ${job.dir} failed: ${message.message}`));
    });
    worker.on('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`the import thread of ${job.dir} exited (code ${code}) without a result`));
    });
  });
}
