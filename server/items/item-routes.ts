import type { Router } from 'express';
import { itemsApi } from '../../shared/api/items';
import { roleAtLeast } from '../../shared/domain/roles';
import type { AppContext } from '../app-context';
import { HttpError, notFound } from '../http/http-error';
import { apiRouter, handle } from '../http/handle';
import { writeItem } from './hand-written-item';
import { getItemDetail, listItems } from './item-queries';

export function itemRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);

  handle(api, itemsApi.list, 'reviewer', ({ query, user }) => {
    // Blind review: which items someone else reviewed would tell a reviewer how they judged.
    if (query.reviewer_id !== undefined && query.reviewer_id !== user.id && !roleAtLeast(user.role, 'curator')) {
      throw new HttpError('forbidden', 'query.reviewer_id: a reviewer may list only the items they reviewed themselves', 'query.reviewer_id');
    }
    return listItems(ctx.db, query);
  });
  handle(api, itemsApi.get, 'reviewer', ({ params: { id } }) => {
    const item = getItemDetail(ctx.db, id);
    if (!item) throw notFound(`item ${id}`);
    return { item };
  });
  handle(api, itemsApi.create, 'reviewer', ({ body, user }) => ({ item: writeItem(ctx, body, user) }));
  return api.router;
}
