import { Router } from 'express';
import { IdParamSchema } from '../../shared/api/common';
import { AdjudicateRequestSchema, NextRequestSchema, RequeueRequestSchema, SubmitReviewRequestSchema } from '../../shared/api/review';
import { roleAtLeast } from '../../shared/domain/roles';
import type { AppContext } from '../app-context';
import { currentUser, requireRole } from '../auth/auth-middleware';
import { getItemDetail } from '../items/item-queries';
import { notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import { getSettings } from '../settings/settings-queries';
import type { FeedbackLoop } from '../reflection/reflection-service';
import type { ReviewEvents } from './review-events';
import { availableFor, itemsNeedingAdjudication, listAnswerHistory, listItemReviews, nowIso, statusCounts } from './review-queries';
import { adjudicate, claimNext, release, renew, requeue, submitReview, undoReview } from './review-service';
import { ownStats, teamStats } from './review-stats';

export function reviewRoutes(ctx: AppContext, events: ReviewEvents, loop: FeedbackLoop): Router {
  const router = Router();
  const reviewer = requireRole(ctx.db, 'reviewer');
  const curator = requireRole(ctx.db, 'curator');

  router.post('/next', reviewer, (req, res) => {
    const filters = parseInput(NextRequestSchema, req.body, 'body');
    const me = currentUser(req).id;
    const { task, claimed, expired } = claimNext(ctx.db, me, filters);
    events.expired(expired);
    if (claimed !== null) events.claimed(claimed, me);
    res.json({ task });
  });

  router.get('/queue', reviewer, (req, res) => {
    const k = getSettings(ctx.db).reviews_per_item;
    res.json({ available: availableFor(ctx.db, currentUser(req).id, nowIso(), k), counts: statusCounts(ctx.db) });
  });

  router.post('/leases/:id/renew', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    res.json({ lease_expires_at: renew(ctx.db, id, currentUser(req).id) });
  });

  router.post('/leases/:id/release', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    if (release(ctx.db, id, currentUser(req).id)) events.released(id);
    res.json({ ok: true });
  });

  router.post('/items/:id', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const body = parseInput(SubmitReviewRequestSchema, req.body, 'body');
    const result = submitReview(ctx.db, id, currentUser(req).id, body);
    events.decided(id, result.item_status);
    if (result.item_status === 'accepted' || result.item_status === 'rejected') loop.itemDecided(id);
    res.status(201).json(result);
  });

  router.post('/reviews/:id/undo', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const me = currentUser(req).id;
    const { task, itemId, status } = undoReview(ctx.db, id, me);
    events.decided(itemId, status);
    events.claimed(itemId, me);
    res.json({ task });
  });

  router.get('/items/:id/history', curator, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    if (!getItemDetail(ctx.db, id)) throw notFound(`item ${id}`);
    res.json({ reviews: listItemReviews(ctx.db, id, false), answers: listAnswerHistory(ctx.db, id) });
  });

  router.get('/adjudication', curator, (_req, res) => {
    const items = itemsNeedingAdjudication(ctx.db).flatMap((id) => {
      const item = getItemDetail(ctx.db, id);
      return item ? [{ item, reviews: listItemReviews(ctx.db, id, true) }] : [];
    });
    res.json({ items });
  });

  router.post('/items/:id/adjudicate', curator, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const body = parseInput(AdjudicateRequestSchema, req.body, 'body');
    const status = adjudicate(ctx.db, id, currentUser(req).id, body);
    events.decided(id, status);
    loop.itemDecided(id);
    res.json({ item_status: status });
  });

  router.post('/requeue', curator, (req, res) => {
    const { item_ids } = parseInput(RequeueRequestSchema, req.body, 'body');
    const { requeued, releasedLeases } = requeue(ctx.db, item_ids, currentUser(req).id);
    events.expired(releasedLeases);
    for (const id of requeued) events.decided(id, 'pending');
    res.json({ requeued: requeued.length });
  });

  router.get('/stats', reviewer, (req, res) => {
    const user = currentUser(req);
    res.json({ me: ownStats(ctx.db, user.id), team: roleAtLeast(user.role, 'curator') ? teamStats(ctx.db) : null });
  });
  return router;
}
