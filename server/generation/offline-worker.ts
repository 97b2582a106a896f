import { setPriority } from 'node:os';
import { buildOfflineItem, offlineProposals, pairOffline, type OfflineItemResult, type OfflineJob, type OfflinePairingResult, type OfflineProposalsInput } from './offline';

/**
 * Niceness of an offline thread. On Linux a nice value belongs to a thread, not the process, so
 * the server's event loop gets a core first when both want one (on a busy 2-core machine
 * /api/health p50 fell from ~6-10 ms to ~3 ms during a 5,000-item run). Mild on purpose: at 10
 * the thread crawled beside other work. Elsewhere a nice value would slow the whole process.
 */
const OFFLINE_THREAD_NICENESS = 5;
if (process.platform === 'linux') setPriority(OFFLINE_THREAD_NICENESS);

/** Runs in a thread of the offline pool: the rules' search for an item happens here. */
export default function build(input: OfflineJob): OfflineItemResult {
  return buildOfflineItem(input);
}

/** The pairing job (piscina's `name: 'pair'`): the same search, only its decision sent back. */
export function pair(input: OfflineJob): OfflinePairingResult {
  return pairOffline(input);
}

/** Stage 1 (`name: 'proposals'`): with targets it runs the rules over each question, a second or so. */
export function proposals(input: OfflineProposalsInput): string[] {
  return offlineProposals(input);
}
