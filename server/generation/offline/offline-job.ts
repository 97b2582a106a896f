import { offlineGroupItem, type OfflineGroupItemInput } from './group-item';
import { offlineItem, type OfflineFailureCause, type OfflineItemInput, type OfflineItemResult } from './offline-item';

/** What the offline pool's threads build: an item over one chart, or over a chart group (`charts` in position order). */
export type OfflineJob = OfflineItemInput | OfflineGroupItemInput;

export function isGroupJob(job: OfflineJob): job is OfflineGroupItemInput {
  return 'charts' in job;
}

export function buildOfflineItem(job: OfflineJob): OfflineItemResult {
  return isGroupJob(job) ? offlineGroupItem(job) : offlineItem(job);
}

/**
 * What the rules decide about a question and its proposals without the item they would write: the
 * proposal whose operation moves (for a control, keeps) the answer, or why there is none.
 */
export type OfflinePairingResult = { ok: true; proposalId: number } | { ok: false; cause: OfflineFailureCause; reason: string; movers?: number[]; countsRows?: true };

/**
 * The pairing job: the rules' own search (the task's proposal, then the alternatives in order),
 * only its decision returned, so a thread sends back a few bytes rather than a draft.
 */
export function pairOffline(job: OfflineJob): OfflinePairingResult {
  const result = isGroupJob(job) ? offlineGroupItem(job) : offlineItem({ ...job, findMovers: true });
  if (result.ok) return { ok: true, proposalId: result.proposalId };
  return { ok: false, cause: result.cause, reason: result.reason, ...(result.movers ? { movers: result.movers } : {}), ...('countsRows' in result && result.countsRows ? { countsRows: true as const } : {}) };
}
