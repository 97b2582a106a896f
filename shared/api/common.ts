import { z } from 'zod';

/** Page query used by every paginated list: 1-based page, bounded page size. */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(25),
});

/**
 * A database id as a path or query string carries it: decimal digits only, no leading zero.
 * (z.coerce.number() also reads "0x10", "0b10000", "1.6e1", " 16 " and "016" as 16, so one
 * item had many URLs.) A number is taken too, for typed clients that build a query object.
 */
export const IdSchema = z
  .union([z.string(), z.number()])
  .transform(String)
  .pipe(z.string().regex(/^[1-9][0-9]*$/, 'must be a decimal id (digits only)'))
  .transform(Number)
  .refine(Number.isSafeInteger, 'is too large to be an id');

/** A route's `:id`. A path whose id this refuses names nothing: parseInput answers 404, not 400. */
export const IdParamSchema = z.object({ id: IdSchema });
