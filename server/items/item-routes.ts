import type { Router } from 'express';
import { itemsApi } from '../../shared/api/items';
import { roleAtLeast } from '../../shared/domain/roles';
import type { AppContext } from '../app-context';
import { DomainError, notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { blindViewer } from './blind-viewer';
import { writeItem } from './hand-written-item';
import { listItemsPage } from './item-list-queries';
import { getItemDetailWithGroup } from './item-queries';

export function itemRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);

  handle(api, itemsApi.list, 'reviewer', ({ query, user }) => {
    // Blind review: which items someone else reviewed would tell a reviewer how they judged.
    if (query.reviewer_id !== undefined && query.reviewer_id !== user.id && !roleAtLeast(user.role, 'curator')) {
      throw new DomainError('forbidden', 'query.reviewer_id: a reviewer may list only the items they reviewed themselves', 'query.reviewer_id');
    }
    const curator = roleAtLeast(user.role, 'curator');
    // Who else was given which items is the curators' to know; a reviewer may ask for their own (or the unassigned).
    if (!curator && query.assigned !== undefined && query.assigned !== 'me' && query.assigned !== 'none') {
      throw new DomainError('forbidden', "query.assigned: a reviewer may filter only by 'me' or 'none'", 'query.assigned');
    }
    // Blind review: a reviewer reads each item as they are shown it (blind-view-queries.ts), and filters and sorts by that.
    const page = listItemsPage(ctx.db, query, user.id, blindViewer(ctx.db, user));
    return curator ? page : { ...page, assignments: [] };
  });
  handle(api, itemsApi.get, 'reviewer', ({ params: { id }, user }) => {
    const found = getItemDetailWithGroup(ctx.db, id, blindViewer(ctx.db, user));
    if (!found) throw notFound(`item ${id}`);
    return found;
  });
  handle(api, itemsApi.create, 'reviewer', ({ body, user }) => writeItem(ctx, body, user));
  return api.router;
}
