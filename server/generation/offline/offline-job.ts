import { offlineGroupItem, type OfflineGroupItemInput } from './group-item';
import { offlineItem, type OfflineItemInput, type OfflineItemResult } from './offline-item';

/** What the offline pool's threads build: an item over one chart, or over a chart group (`charts` in position order). */
export type OfflineJob = OfflineItemInput | OfflineGroupItemInput;

export function isGroupJob(job: OfflineJob): job is OfflineGroupItemInput {
  return 'charts' in job;
}

export function buildOfflineItem(job: OfflineJob): OfflineItemResult {
  return isGroupJob(job) ? offlineGroupItem(job) : offlineItem(job);
}
