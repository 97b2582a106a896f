import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportReport } from '../../shared/api/import';
import type { ImportFormat } from '../../shared/domain/benchmark-fields';
import type { FolderImportOptions } from './import-folder';
import { ImportSetupError } from './import-split';

const WORKER = fileURLToPath(new URL('./import-worker-entry.mjs', import.meta.url));
/** An idle import thread ends after this long: the next import starts another. */
const IDLE_TIMEOUT_MS = 10_000;

export interface ImportThreadJob {
  dbPath: string;
  dir: string;
  options: Omit<FolderImportOptions, 'onProgress'>;
}

export type ImportThreadMessage =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'done'; result: { format: ImportFormat; report: ImportReport } }
  | { kind: 'failed'; setup: boolean; message: string };

type ImportResult = { format: ImportFormat; report: ImportReport };

interface Job {
  job: ImportThreadJob;
  onProgress: (done: number, total: number) => void;
  resolve: (result: ImportResult) => void;
  reject: (error: unknown) => void;
}

/** The import thread while it lives, and the job it works on (one at a time). */
let thread: { worker: Worker; current: Job | null; idle: NodeJS.Timeout | null } | null = null;
/** Jobs wait for the one before them: the thread imports one at a time. */
let queue: Promise<unknown> = Promise.resolve();

function startThread(): NonNullable<typeof thread> {
  const worker = new Worker(WORKER);
  const started: NonNullable<typeof thread> = { worker, current: null, idle: null };
  const settle = (outcome: { result: ImportResult } | { error: unknown }) => {
    const job = started.current;
    started.current = null;
    if (!job) return;
    if ('result' in outcome) job.resolve(outcome.result);
    else job.reject(outcome.error);
  };
  worker.on('message', (message: ImportThreadMessage) => {
    const job = started.current;
    if (!job) return;
    if (message.kind === 'progress') return job.onProgress(message.done, message.total);
    if (message.kind === 'done') return settle({ result: message.result });
    settle({ error: message.setup ? new ImportSetupError(message.message) : new Error(`import of ${job.job.dir} failed: ${message.message}`) });
  });
  worker.on('error', (error) => {
    if (thread === started) thread = null;
    settle({ error });
  });
  worker.on('exit', (code) => {
    if (thread === started) thread = null;
    if (started.idle) clearTimeout(started.idle);
    const job = started.current;
    if (job) settle({ error: new Error(`the import thread of ${job.job.dir} exited (code ${code}) without a result`) });
  });
  return started;
}

function runOnThread(job: ImportThreadJob, onProgress: (done: number, total: number) => void): Promise<ImportResult> {
  const current = thread ?? startThread();
  thread = current;
  if (current.idle) clearTimeout(current.idle);
  current.idle = null;
  current.worker.ref();
  const result = new Promise<ImportResult>((resolve, reject) => {
    current.current = { job, onProgress, resolve, reject };
    current.worker.postMessage(job);
  });
  return result.finally(() => {
    if (thread !== current) return;
    // Idle, it keeps no process alive, and ends after a while.
    current.worker.unref();
    current.idle = setTimeout(() => {
      // Forgotten first: a job arriving while it ends starts a thread of its own.
      if (thread === current) thread = null;
      void current.worker.terminate();
    }, IDLE_TIMEOUT_MS);
    current.idle.unref();
  });
}

/**
 * `importFolder` on the import thread (import-worker.ts), its progress passed on as it happens:
 * the server keeps answering, and `import.progress` reaches the browser while charts are written.
 * The thread lives on between imports for a while: starting one (tsx, the importers' modules)
 * took longer than importing a small split, and every browser upload paid it.
 */
export function importFolderOffThread(job: ImportThreadJob, onProgress: (done: number, total: number) => void): Promise<ImportResult> {
  const run = queue.then(() => runOnThread(job, onProgress));
  queue = run.catch(() => undefined);
  return run;
}
