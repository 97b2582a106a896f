import { z } from 'zod';
import { SettingsSchema } from '../settings';

// GET /api/settings   (admin)
export const SettingsResponseSchema = z.object({ settings: SettingsSchema });

// PATCH /api/settings   (admin: any subset of the settings)
export const UpdateSettingsRequestSchema = SettingsSchema.partial().strict();
export type UpdateSettingsRequest = z.infer<typeof UpdateSettingsRequestSchema>;
