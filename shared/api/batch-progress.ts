import { z } from 'zod';

/**
 * Where a batch run's latest batch is (OpenAI Batch API), for evaluation and generation runs
 * alike: `submitted`, `in_progress` (`completed` and `failed` of `total` answered there),
 * `downloading` (finished there; results being stored), then `done`, `failed` or `cancelled`.
 */
export const BATCH_PROGRESS_STATES = ['submitted', 'in_progress', 'downloading', 'done', 'failed', 'cancelled'] as const;
export const BatchProgressSchema = z.object({
  state: z.enum(BATCH_PROGRESS_STATES),
  total: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
});
export type BatchProgress = z.infer<typeof BatchProgressSchema>;
