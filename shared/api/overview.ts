import { z } from 'zod';
import { endpoint } from './endpoint';

// GET /api/overview   (curator) → the project at a glance: what waits for review, how much passes,
// what is being generated and what waits for a curator's decision. Each figure is a count the
// server keeps cheaply (status counts kept by triggers, the few unfinished runs).
export const OverviewResponseSchema = z.object({
  /**
   * How far the loop got, for the next step a first overview names (import → run → review →
   * export): charts and factual questions imported, generation runs started, items made.
   */
  setup: z.object({ charts: z.number().int(), questions: z.number().int(), runs: z.number().int(), items: z.number().int() }),
  queue: z.object({
    /** Items no reviewer has taken yet; an item held only as someone's prefetched next item counts here. */
    pending: z.number().int(),
    /** Items someone is reviewing or has reviewed short of consensus. */
    in_review: z.number().int(),
    /** pending + in_review: what the reviewers still have to do. */
    total: z.number().int(),
  }),
  decided: z.object({ accepted: z.number().int(), rejected: z.number().int() }),
  /** Accepted share of decided (accepted or rejected) items, in percent; null before the first decision. */
  pass_rate: z.number().nullable(),
  /** Generation runs queued or running. */
  runs_in_progress: z.number().int(),
  /** Generation runs paused (by a curator, the budget or transport failures): unfinished, not moving. */
  runs_paused: z.number().int(),
  /** Items whose reviewers disagreed: a curator decides them on the Adjudication page. */
  awaiting_adjudication: z.number().int(),
});
export type OverviewResponse = z.infer<typeof OverviewResponseSchema>;

export const overviewApi = {
  get: endpoint('GET', '/api/overview', { response: OverviewResponseSchema }),
} as const;
