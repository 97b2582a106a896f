import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

/** Idle threads exit after this long (HQA_THREAD_IDLE_MS), giving back the memory of the libraries they loaded. */
const IDLE_TIMEOUT_MS = 10_000;

/** The integer environment variable `name` when it is one of at least `min`, else `fallback`. */
function integerSetting(name: string, fallback: number, min: number): number {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= min ? value : fallback;
}

/**
 * HQA_THREAD_IDLE_MS, else IDLE_TIMEOUT_MS. A thread's start is ~1–2 s of CPU (its libraries
 * under tsx: Vega for drawing, the offline rules); the test suite, whose servers come and go
 * within one process, keeps threads for its whole run (81 starts a run before, a few now).
 */
const idleTimeoutMs = (): number => integerSetting('HQA_THREAD_IDLE_MS', IDLE_TIMEOUT_MS, 1);

export interface ThreadPoolOptions<I, O> {
  /**
   * The thread's entry: a CommonJS file that loads tsx and the TypeScript worker on the first
   * task. Piscina requires a thread's file first; on Node 20.19+ that is require(esm), and an ES
   * entry with a top-level await (tsx's loader) once crashed the whole test process in CI.
   */
  entry: URL;
  /** The environment variable giving the pool's threads (default 1); 0 runs every task in-process (one-core machines, debugging). */
  threadsVariable: string;
  /** The same work on the calling thread, for 0 threads: `task` names the worker's export (undefined: its default). */
  inProcess: (input: I, task: string | undefined) => O | Promise<O>;
  /** Tasks a thread holds at once (default 1): more where a task waits on libuv's pool part of its time. */
  tasksPerThread?: number;
}

export interface ThreadPool<I, O> {
  /**
   * `input` worked on a thread (the worker's `task` export, else its default), structured-cloned
   * both ways; `transfer` moves what `input` holds instead (a MessagePort the task reports progress on).
   */
  run(input: I, task?: string, transfer?: Transferable[]): Promise<O>;
  /** Ends its threads (they start again on the next task). */
  close(): Promise<void>;
  /** Threads alive now (started, not yet ended by idleness or close): diagnostics and the tests. */
  threadCount(): number;
}

const open = new Set<ThreadPool<unknown, unknown>>();

/**
 * The one way CPU work leaves the event loop (drawing charts, the offline rules): a pool of
 * threads started on the first task, ended when idle, and closed together when the process ends
 * (`closeThreadPools`: the server's shutdown, the CLI's entry after its command).
 */
export function threadPool<I, O>(options: ThreadPoolOptions<I, O>): ThreadPool<I, O> {
  let piscina: Piscina<I, O> | null = null;
  const threads = (): number => integerSetting(options.threadsVariable, 1, 0);
  const pool: ThreadPool<I, O> = {
    async run(input, task, transfer) {
      const count = threads();
      if (count === 0) return options.inProcess(input, task);
      piscina ??= new Piscina<I, O>({ filename: fileURLToPath(options.entry), maxThreads: count, minThreads: 0, idleTimeout: idleTimeoutMs(), concurrentTasksPerWorker: options.tasksPerThread ?? 1 });
      return piscina.run(input, { ...(task === undefined ? {} : { name: task }), ...(transfer === undefined ? {} : { transferList: transfer as never }) });
    },
    async close() {
      const closing = piscina;
      piscina = null;
      await closing?.destroy();
    },
    threadCount: () => piscina?.threads.length ?? 0,
  };
  open.add(pool as ThreadPool<unknown, unknown>);
  return pool;
}

/** Ends the threads of every pool (server shutdown, the end of a CLI process). */
export async function closeThreadPools(): Promise<void> {
  await Promise.all([...open].map((pool) => pool.close()));
}

/** Threads alive now across every pool: diagnostics and the tests. */
export function liveThreadCount(): number {
  return [...open].reduce((count, pool) => count + pool.threadCount(), 0);
}
