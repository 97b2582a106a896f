import { z } from 'zod';

// GET /api/health
export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  engine: z.enum(['openai', 'offline']),
  charts: z.number().int(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
