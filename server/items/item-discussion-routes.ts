import type { Router } from 'express';
import { itemDiscussionApi } from '../../shared/api/item-discussion';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { editItem, itemComments, itemEdits, postComment } from './item-discussion';

/** An item's thread (reviewers and curators) and curators' direct edits with their history. */
export function itemDiscussionRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, itemDiscussionApi.comments, 'reviewer', ({ params: { id }, user }) => ({ comments: itemComments(ctx, id, user) }));
  handle(api, itemDiscussionApi.postComment, 'reviewer', ({ params: { id }, body, user }) => ({ comment: postComment(ctx, id, user, body.body) }));
  handle(api, itemDiscussionApi.edits, 'reviewer', ({ params: { id }, user }) => ({ edits: itemEdits(ctx, id, user) }));
  handle(api, itemDiscussionApi.edit, 'curator', ({ params: { id }, body, user }) => editItem(ctx, id, user, body));
  return api.router;
}
