import type { Router } from 'express';
import { reviewApi } from '../../shared/api/review';
import { roleAtLeast } from '../../shared/domain/roles';
import type { AppContext } from '../app-context';
import { getItemDetail, getItemDetailWithGroup } from '../items/item-queries';
import { filteredItemIds } from '../items/item-list-queries';
import { immediateTransaction } from '../../db/transactions';
import { itemsApi } from '../../shared/api/items';
import { notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { getSettings } from '../settings/settings-queries';
import type { ReviewCommands } from './review-commands';
import { mountAssignmentRoutes } from './assignment-routes';
import { mountGoldRoutes } from './gold-routes';
import { answerChoices } from './answer-choices';
import { goldInQueue } from './gold-service';
import { assignedAvailableFor, availableFor, itemsNeedingAdjudication, listAnswerHistory, listItemReviews, nowIso } from './review-queries';
import { shownStatusCounts } from './shown-status-counts';
import { ownStats } from './review-stats';
import type { TeamStatsSource } from './team-stats-thread';

export function reviewRoutes(ctx: AppContext, review: ReviewCommands, team: TeamStatsSource): Router {
  const api = apiRouter(ctx.db);

  // The Items page's bulk re-queue, review's to do. The ids and the re-queue in one transaction: an item that starts to match meanwhile is not missed by the count.
  handle(api, itemsApi.requeue, 'curator', ({ body, user }) => ({
    requeued: immediateTransaction(ctx.db, () => review.requeue(filteredItemIds(ctx.db, body.filter, user.id), user.id)),
  }));
  handle(api, reviewApi.next, 'reviewer', ({ body, user }) => ({ task: review.next(user.id, body) }));
  handle(api, reviewApi.queue, 'reviewer', ({ user }) => {
    const now = nowIso();
    const k = getSettings(ctx.db).reviews_per_item;
    return {
      available: availableFor(ctx.db, user.id, now, k) + goldInQueue(ctx.db, user.id),
      assigned: assignedAvailableFor(ctx.db, user.id, now, k),
      // Per-status figures are the staff's (blind review: StatusCountsSchema).
      counts: roleAtLeast(user.role, 'curator') ? shownStatusCounts(ctx.db, now) : {},
    };
  });
  handle(api, reviewApi.renew, 'reviewer', ({ params: { id }, user }) => ({ lease_expires_at: review.renew(id, user.id) }));
  handle(api, reviewApi.release, 'reviewer', ({ params: { id }, body, user }) => {
    review.release(id, user.id, body?.lease_token);
    return { ok: true };
  });
  handle(api, reviewApi.submit, 'reviewer', ({ params: { id }, body, user }) => review.submit(id, user.id, body));
  handle(api, reviewApi.undo, 'reviewer', ({ params: { id }, user }) => ({ task: review.undo(id, user.id) }));

  handle(api, reviewApi.history, 'curator', ({ params: { id } }) => {
    if (!getItemDetail(ctx.db, id)) throw notFound(`item ${id}`);
    return { reviews: listItemReviews(ctx.db, id, false), answers: listAnswerHistory(ctx.db, id) };
  });
  handle(api, reviewApi.adjudication, 'curator', () => ({
    items: itemsNeedingAdjudication(ctx.db).flatMap((id) => {
      const found = getItemDetailWithGroup(ctx.db, id);
      if (!found) return [];
      const reviews = listItemReviews(ctx.db, id, true);
      return [{ ...found, reviews, answers: answerChoices(found.item, reviews) }];
    }),
  }));
  handle(api, reviewApi.adjudicate, 'curator', ({ params: { id }, body, user }) => ({ item_status: review.adjudicate(id, user.id, body) }));
  handle(api, reviewApi.requeue, 'curator', ({ body, user }) => ({ requeued: review.requeue(body.item_ids, user.id) }));

  handle(api, reviewApi.stats, 'reviewer', async ({ user }) => ({
    me: ownStats(ctx.db, user.id),
    team: roleAtLeast(user.role, 'curator') ? await team.figures() : null,
  }));
  mountGoldRoutes(api, ctx.db);
  mountAssignmentRoutes(api, ctx, review);
  return api.router;
}
