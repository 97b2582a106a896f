import type { Router } from 'express';
import { reflectionApi } from '../../shared/api/reflection';
import type { AppContext } from '../app-context';
import { notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { getProposal } from '../pool/pool-queries';
import { listReflections, proposalFeedback } from './reflection-queries';
import type { ReflectionBatches } from './reflection-batches';
import { reflectionsForReviewer } from './reflection-view';
import { blindViewer } from '../items/blind-viewer';
import type { FeedbackLoop } from './reflection-service';

export function reflectionRoutes(ctx: AppContext, loop: FeedbackLoop, batches: ReflectionBatches): Router {
  const api = apiRouter(ctx.db);

  handle(api, reflectionApi.list, 'reviewer', ({ params: { id }, user }) => {
    if (!getProposal(ctx.db, id)) throw notFound(`proposal ${id}`);
    const reflections = listReflections(ctx.db, id);
    const viewer = blindViewer(ctx.db, user);
    const seen = viewer === null ? reflections : reflectionsForReviewer(ctx.db, viewer, reflections);
    return { reflections: seen, feedback: proposalFeedback(ctx.db, id, viewer) };
  });
  handle(api, reflectionApi.reflect, 'curator', ({ params: { id }, user }) => loop.reflect(id, 'manual', user.id));
  handle(api, reflectionApi.batches, 'reviewer', () => ({ batches: batches.list() }));
  handle(api, reflectionApi.startBatch, 'curator', ({ body, user }) => ({ batch: batches.start(body.chart_type, user.id) }));
  return api.router;
}
