import { threadPool } from '../jobs/thread-pool';
import { buildOfflineItem, offlineProposals, pairOffline, type OfflineItemResult, type OfflineJob, type OfflinePairingResult, type OfflineProposalsInput } from './offline';

/**
 * The offline rules usually write an item in a few milliseconds, but a question they must try
 * against many proposals and edits takes them a hundred or more, all of it synchronous: on the
 * event loop that stalls every request and socket push while an offline run works. A thread
 * pool builds items off the loop (input and result are plain data, structured-cloned). The
 * rules are seeded by the task id, so a thread writes exactly what the loop would have.
 * Three job kinds: an item (the offline engine's), Stage 1's proposals, and a pairing (a model task's: which proposal
 * the rules would pair the question with, `pairing.ts`). HQA_OFFLINE_THREADS=0 runs them
 * in-process (one-core machines; debugging); the pool is the shared `threadPool`.
 */
type Job = OfflineJob | OfflineProposalsInput;
type JobResult = OfflineItemResult | OfflinePairingResult | string[];

/** Three tasks: an item (the worker's default), a pairing (`pair`) and Stage 1's proposals (`proposals`). */
const pool = threadPool<Job, JobResult>({
  entry: new URL('./offline-worker-entry.cjs', import.meta.url),
  threadsVariable: 'HQA_OFFLINE_THREADS',
  inProcess: (input, task) => (task === 'pair' ? pairOffline(input as OfflineJob) : task === 'proposals' ? offlineProposals(input as OfflineProposalsInput) : buildOfflineItem(input as OfflineJob)),
});

/** An item over one chart or over a chart group (`charts`), built on a thread. */
export async function offlineItemOffThread(input: OfflineJob): Promise<OfflineItemResult> {
  return (await pool.run(input)) as OfflineItemResult;
}

/** The rules' pairing of a question with a proposal (the worker's `pair` export), decided on a thread. */
export async function offlinePairingOffThread(input: OfflineJob): Promise<OfflinePairingResult> {
  return (await pool.run(input, 'pair')) as OfflinePairingResult;
}

/** Stage 1's proposals (the worker's `proposals` export): with questions to grow the pool for, the rules try each. */
export async function offlineProposalsOffThread(input: OfflineProposalsInput): Promise<string[]> {
  return (await pool.run(input, 'proposals')) as string[];
}
