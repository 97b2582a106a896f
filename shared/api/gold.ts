import { z } from 'zod';
import { IdParamSchema } from './common';
import { endpoint } from './endpoint';

/** The gold decision per criterion: what the accepted review said (true = the criterion passed). */
export const GoldVerdictsSchema = z.object({
  rationality: z.boolean(),
  correctness: z.boolean(),
  layout: z.boolean(),
});
export type GoldVerdicts = z.infer<typeof GoldVerdictsSchema>;

/** Whether an item is gold, and its gold decision when it is. Curators only: reviewers never see it. */
export const GoldStateSchema = z.object({
  item_id: z.number().int(),
  gold: z.boolean(),
  verdicts: GoldVerdictsSchema.nullable(),
  marked_by: z.string().nullable(),
  marked_at: z.string().nullable(),
  /** How many gold reviews compared against this item so far. */
  reviews: z.number().int(),
});
export type GoldState = z.infer<typeof GoldStateSchema>;

/** Agreement with gold per criterion: the share of gold reviews whose verdict matched (null: none yet). */
const AgreementSchema = z.object({
  reviews: z.number().int(),
  rationality: z.number().nullable(),
  correctness: z.number().nullable(),
  layout: z.number().nullable(),
});
export type GoldAgreement = z.infer<typeof AgreementSchema>;

export const ReviewerCalibrationSchema = z.object({
  reviewer_id: z.number().int(),
  reviewer: z.string(),
  overall: AgreementSchema,
  /** ISO weeks (`2026-W49`), oldest first. */
  weeks: z.array(AgreementSchema.extend({ week: z.string() })),
  /** Some criterion's overall agreement is under the threshold: shown to curators. */
  flagged: z.boolean(),
});
export type ReviewerCalibration = z.infer<typeof ReviewerCalibrationSchema>;

// GET /api/gold/calibration   (curator) → each reviewer's agreement with gold, overall and per week
export const CalibrationResponseSchema = z.object({
  threshold: z.number(),
  gold_items: z.number().int(),
  reviewers: z.array(ReviewerCalibrationSchema),
});
export type CalibrationResponse = z.infer<typeof CalibrationResponseSchema>;

/** Curators mark accepted items as gold (and unmark them) and read reviewers' calibration. */
export const goldApi = {
  // GET /api/items/:id/gold   (curator)
  get: endpoint('GET', '/api/items/:id/gold', { params: IdParamSchema, response: GoldStateSchema }),
  // PUT /api/items/:id/gold   (curator): an accepted item only (409 otherwise)
  mark: endpoint('PUT', '/api/items/:id/gold', { params: IdParamSchema, response: GoldStateSchema }),
  // DELETE /api/items/:id/gold   (curator): its gold reviews are kept, with the verdicts they were compared with
  unmark: endpoint('DELETE', '/api/items/:id/gold', { params: IdParamSchema, response: GoldStateSchema }),
  calibration: endpoint('GET', '/api/gold/calibration', { response: CalibrationResponseSchema }),
};
