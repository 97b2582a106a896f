import { z } from 'zod';
import { SettingsSchema } from '../settings';
import { endpoint } from './endpoint';

// GET /api/settings   (admin)
export const SettingsResponseSchema = z.object({ settings: SettingsSchema });

// PATCH /api/settings   (admin: any subset of the settings)
export const UpdateSettingsRequestSchema = SettingsSchema.partial().strict();
export type UpdateSettingsRequest = z.infer<typeof UpdateSettingsRequestSchema>;

/** Admin only. */
export const settingsApi = {
  get: endpoint('GET', '/api/settings', { response: SettingsResponseSchema }),
  /** Stores only the keys sent. */
  update: endpoint('PATCH', '/api/settings', { body: UpdateSettingsRequestSchema, response: SettingsResponseSchema }),
} as const;
