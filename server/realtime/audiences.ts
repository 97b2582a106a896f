import { roleAtLeast, type Role } from '../../shared/domain/roles';
import type { ServerEventName, ServerEventPayload } from '../../shared/events';

/**
 * Who gets which version of an event. Review is blind: a reviewer may learn that an item was
 * claimed or how many people are online, not who claimed it or who they are. Curators and
 * admins see everything. Every socket joins the room of its user's role when it connects (a
 * role change closes the user's sockets, so they join again under the new role).
 */
export const STAFF_ROOM = 'audience:staff';
export const REVIEWER_ROOM = 'audience:reviewers';

export function audienceRoom(role: Role): string {
  return roleAtLeast(role, 'curator') ? STAFF_ROOM : REVIEWER_ROOM;
}

/** What a reviewer gets instead of an event: nothing at all. */
export const HIDDEN = 'hidden';

type ReviewerViews = { [E in ServerEventName]?: (payload: ServerEventPayload<E>) => ServerEventPayload<E> | typeof HIDDEN };

/**
 * The events that name people or carry what reviewers may not read, and what reviewers get of
 * them instead. (What only the reviewers whose verdicts an outcome rests on may not read is
 * sealed per event: `publish`'s `sealed`, review-events.ts.)
 */
const REVIEWER_VIEWS: ReviewerViews = {
  'item.claimed': ({ item_id }) => ({ item_id }),
  'presence.changed': ({ online, reviewing }) => ({ online, reviewing }),
  // A reviewer's comment on an undecided item is for curators (item-discussion.ts).
  'comment.created': (payload) => (payload.staff_only ? HIDDEN : payload),
  // Per-status figures are the staff's: moving with each decision and claim, they told a reviewer how an
  // item judged with others settled and that a claim was gold (StatusCountsSchema). The push still says
  // the queue moved, so their "N for you" is fetched again.
  'queue.changed': () => ({ counts: {} }),
};

/** What reviewers get of this event (HIDDEN: nothing); null when everyone gets the same. */
export function reviewerView<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): ServerEventPayload<E> | typeof HIDDEN | null {
  // The map's value type for a generic E cannot be narrowed by indexing: the map is typed per event above.
  const view = REVIEWER_VIEWS[event] as ((payload: ServerEventPayload<E>) => ServerEventPayload<E> | typeof HIDDEN) | undefined;
  return view ? view(payload) : null;
}
