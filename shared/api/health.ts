import { z } from 'zod';
import { endpoint } from './endpoint';

// GET /api/health
export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  engine: z.enum(['openai', 'offline']),
  charts: z.number().int(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

export const healthApi = {
  get: endpoint('GET', '/api/health', { response: HealthResponseSchema }),
} as const;
