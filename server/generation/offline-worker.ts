import { offlineItem, type OfflineItemInput, type OfflineItemResult } from './offline';

/** Runs in a thread of the offline pool: the rules' search for an item happens here. */
export default function build(input: OfflineItemInput): OfflineItemResult {
  return offlineItem(input);
}
