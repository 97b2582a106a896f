import type { Router } from 'express';
import { settingsApi } from '../../shared/api/settings';
import type { Settings } from '../../shared/settings';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import type { ReviewCommands } from '../review/review-commands';
import { updateSettings } from './settings-commands';
import { getSettings } from './settings-queries';

export function settingsRoutes(ctx: AppContext, review: ReviewCommands): Router {
  const api = apiRouter(ctx.db);
  handle(api, settingsApi.get, 'admin', () => ({ settings: getSettings(ctx.db) }));
  // The guidelines are the reviewers' to read; only admins change them (PATCH below).
  handle(api, settingsApi.guidelines, 'reviewer', () => ({ guidelines: getSettings(ctx.db).review_guidelines }));
  handle(api, settingsApi.update, 'admin', ({ body, req, user }) => {
    // The schema fills defaults for keys left out; store only what the admin sent.
    const sent = new Set(Object.keys(req.body as object));
    const patch = Object.fromEntries(Object.entries(body).filter(([key]) => sent.has(key))) as Partial<Settings>;
    return { settings: updateSettings(ctx.db, ctx.events, review, patch, user.id) };
  });
  return api.router;
}
