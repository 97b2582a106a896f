import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { buildOfflineItem, offlineProposals, pairOffline, type OfflineItemResult, type OfflineJob, type OfflinePairingResult, type OfflineProposalsInput } from './offline';

/**
 * The offline rules usually write an item in a few milliseconds, but a question they must try
 * against many proposals and edits takes them a hundred or more, all of it synchronous: on the
 * event loop that stalls every request and socket push while an offline run works. A thread
 * pool builds items off the loop (input and result are plain data, structured-cloned). The
 * rules are seeded by the task id, so a thread writes exactly what the loop would have.
 * Three job kinds: an item (the offline engine's), Stage 1's proposals, and a pairing (a model task's: which proposal
 * the rules would pair the question with, `pairing.ts`). HQA_OFFLINE_THREADS=0 runs them
 * in-process (one-core machines; debugging).
 */
const WORKER = fileURLToPath(new URL('./offline-worker-entry.cjs', import.meta.url));
/** Idle threads exit, so a CLI command or a test does not linger on them. */
const IDLE_TIMEOUT_MS = 10_000;

type Job = OfflineJob | OfflineProposalsInput;
type JobResult = OfflineItemResult | OfflinePairingResult | string[];

let pool: Piscina<Job, JobResult> | null = null;

function threads(): number {
  const value = Number(process.env.HQA_OFFLINE_THREADS ?? 1);
  return Number.isInteger(value) && value >= 0 ? value : 1;
}

function threadPool(count: number): Piscina<Job, JobResult> {
  pool ??= new Piscina<Job, JobResult>({ filename: WORKER, maxThreads: count, minThreads: 0, idleTimeout: IDLE_TIMEOUT_MS });
  return pool;
}

/** An item over one chart or over a chart group (`charts`), built on a thread. */
export async function offlineItemOffThread(input: OfflineJob): Promise<OfflineItemResult> {
  const count = threads();
  if (count === 0) return buildOfflineItem(input);
  return (await threadPool(count).run(input)) as OfflineItemResult;
}

/** The rules' pairing of a question with a proposal (the worker's `pair` export), decided on a thread. */
export async function offlinePairingOffThread(input: OfflineJob): Promise<OfflinePairingResult> {
  const count = threads();
  if (count === 0) return pairOffline(input);
  return (await threadPool(count).run(input, { name: 'pair' })) as OfflinePairingResult;
}

/** Stage 1's proposals (the worker's `proposals` export): with questions to grow the pool for, the rules try each. */
export async function offlineProposalsOffThread(input: OfflineProposalsInput): Promise<string[]> {
  const count = threads();
  if (count === 0) return offlineProposals(input);
  return (await threadPool(count).run(input, { name: 'proposals' })) as string[];
}

/** Ends the offline threads (server shutdown, end of a CLI command). */
export async function closeOfflinePool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
