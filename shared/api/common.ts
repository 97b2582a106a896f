import { z } from 'zod';

/** Page query used by every paginated list: 1-based page, bounded page size. */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(25),
});

export const IdParamSchema = z.object({ id: z.coerce.number().int().positive() });
