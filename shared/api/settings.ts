import { z } from 'zod';
import { ReviewGuidelinesSchema } from '../review/guidelines';
import { SettingsSchema } from '../settings';
import { endpoint } from './endpoint';

// GET /api/settings   (admin)
export const SettingsResponseSchema = z.object({ settings: SettingsSchema });

// PATCH /api/settings   (admin: any subset of the settings)
export const UpdateSettingsRequestSchema = SettingsSchema.partial().strict();
export type UpdateSettingsRequest = z.infer<typeof UpdateSettingsRequestSchema>;

// GET /api/settings/review-guidelines   (reviewers and up: the criteria's guidelines, Markdown)
export const ReviewGuidelinesResponseSchema = z.object({ guidelines: ReviewGuidelinesSchema });

/** Admin only, but for the review guidelines every reviewer reads. */
export const settingsApi = {
  get: endpoint('GET', '/api/settings', { response: SettingsResponseSchema }),
  /** Stores only the keys sent. */
  update: endpoint('PATCH', '/api/settings', { body: UpdateSettingsRequestSchema, response: SettingsResponseSchema }),
  guidelines: endpoint('GET', '/api/settings/review-guidelines', { response: ReviewGuidelinesResponseSchema }),
} as const;
