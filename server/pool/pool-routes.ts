import type { Router } from 'express';
import { poolApi } from '../../shared/api/pool';
import type { AppContext } from '../app-context';
import { notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { addSeedProposal, changeProposal } from './pool-commands';
import { getProposal, listProposals, proposalCounts } from './pool-queries';

export function poolRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);

  handle(api, poolApi.list, 'reviewer', ({ query }) => {
    const { proposals, total } = listProposals(ctx.db, query);
    return { proposals, total, page: query.page, page_size: query.page_size, counts: proposalCounts(ctx.db) };
  });
  handle(api, poolApi.get, 'reviewer', ({ params: { id } }) => {
    const proposal = getProposal(ctx.db, id);
    if (!proposal) throw notFound(`proposal ${id}`);
    return { proposal };
  });
  handle(api, poolApi.create, 'curator', ({ body, user }) => ({ proposal: addSeedProposal(ctx, body, user.id) }));
  handle(api, poolApi.update, 'curator', ({ params: { id }, body }) => ({ proposal: changeProposal(ctx, id, body) }));
  return api.router;
}
