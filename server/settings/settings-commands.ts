import type { Db } from '../../db/database';
import type { Settings } from '../../shared/settings';
import type { DomainEventEmitter } from '../events/event-bus';
import type { ReviewCommands } from '../review/review-commands';
import { getSettings, putSettingsWith } from './settings-queries';

/**
 * An admin's settings change with what it makes follow: a change of the reviews per item (k)
 * decides the items in review whose standing reviews now reach it and ends the leases that no
 * longer have a slot, in the transaction that stores k (an item must never sit in review with
 * enough reviews to be decided); its events tell open pages and lease holders once it commits.
 */
export function updateSettings(db: Db, events: DomainEventEmitter, review: Pick<ReviewCommands, 'settleReviewsPerItem'>, patch: Partial<Settings>, actorId: number | null): Settings {
  const from = getSettings(db).reviews_per_item;
  const { settings } = putSettingsWith(db, events, patch, actorId, () => {
    // Applied even when k is sent unchanged: it finds nothing to do, or repairs items left in review before this rule.
    if (patch.reviews_per_item !== undefined) review.settleReviewsPerItem({ from, to: getSettings(db).reviews_per_item, actorId });
  });
  return settings;
}
