import { Router } from 'express';
import { UpdateSettingsRequestSchema } from '../../shared/api/settings';
import type { Settings } from '../../shared/settings';
import type { AppContext } from '../app-context';
import { requireRole } from '../auth/auth-middleware';
import { parseInput } from '../http/validate';
import { getSettings, putSettings } from './settings-queries';

export function settingsRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(requireRole(ctx.db, 'admin'));

  router.get('/', (_req, res) => {
    res.json({ settings: getSettings(ctx.db) });
  });

  router.patch('/', (req, res) => {
    const parsed = parseInput(UpdateSettingsRequestSchema, req.body, 'body');
    // The schema fills defaults for keys left out; store only what the admin sent.
    const sent = new Set(Object.keys(req.body as object));
    const patch = Object.fromEntries(Object.entries(parsed).filter(([key]) => sent.has(key))) as Partial<Settings>;
    res.json({ settings: putSettings(ctx.db, patch) });
  });
  return router;
}
