import { z } from 'zod';
import { DrawingStyleSchema } from '../chart-spec/drawing-style';
import { ChartTypeSchema } from '../domain/chart-types';
import { ItemStatusSchema } from '../domain/generation';
import { DecisionSchema } from '../domain/review';
import { freeText } from '../domain/text-input';
import { AnswerCheckSchema } from '../review/answer-checks';
import { DataTableSchema } from '../table/model';
import { IdParamSchema } from './common';
import { endpoint } from './endpoint';
import { ItemGroupSchema } from './item-group';
import { ItemDetailSchema } from './items';

/** One criterion's verdict with an optional note. */
export const CriterionVerdictSchema = z.object({
  pass: z.boolean(),
  note: freeText().trim().max(2000).default(''),
});

export const ReviewCriteriaSchema = z.object({
  rationality: CriterionVerdictSchema,
  correctness: CriterionVerdictSchema,
  layout: CriterionVerdictSchema,
});
export type ReviewCriteria = z.infer<typeof ReviewCriteriaSchema>;

/**
 * What a reviewer claims: the item with everything the judgement needs, and its lease. Blind: no
 * other review — only the answers earlier reviewers proposed (`proposed_answers`, whoever gave
 * them and whatever they decided), each with the verifier's checks, so that a correction can be
 * agreed on. For an item over a chart group, `chart` is the chart the assumption edits (chart 1
 * when the edit cannot be read), so the original-vs-counterfactual pane shows that one, and
 * `group` lists every chart of the group; `group` is null for an item over one chart.
 */
export const ReviewTaskSchema = z.object({
  item: ItemDetailSchema,
  chart: z.object({
    id: z.number().int(),
    imgname: z.string(),
    title: z.string().nullable(),
    chart_type: ChartTypeSchema,
    data_table: DataTableSchema,
    /** False: the chart shown is drawn from the table (and says so). */
    has_image: z.boolean(),
    /** The annotation's colours and series order, which the counterfactual chart is drawn in too. */
    drawing_style: DrawingStyleSchema.nullable(),
  }),
  group: ItemGroupSchema.nullable().default(null),
  /** Corrected answers of the item's standing reviews, anonymous, each checked like an item's answer. */
  proposed_answers: z.array(AnswerCheckSchema).default([]),
  lease_expires_at: z.string(),
  /** Names the lease this task was served under: a release that carries it ends that lease only (migration 024). */
  lease_token: z.string(),
});
export type ReviewTask = z.infer<typeof ReviewTaskSchema>;

export const QueueFiltersSchema = z.object({
  run_id: z.number().int().positive().optional(),
  chart_type: ChartTypeSchema.optional(),
  proposal_id: z.number().int().positive().optional(),
  /** Items whose verifier disagreed with their answer first. */
  mismatch_first: z.boolean().default(false),
});
export type QueueFilters = z.infer<typeof QueueFiltersSchema>;

// POST /api/review/next   (reviewer) → { task } or { task: null } when the queue is empty for the caller.
// The caller's own unexpired leases come back first (oldest first), except the ones in
// exclude_item_ids (the item on screen, when prefetching); then a new item is claimed, up to
// two leases per reviewer.
export const NextRequestSchema = QueueFiltersSchema.extend({
  exclude_item_ids: z.array(z.number().int().positive()).max(10).default([]),
});
export const NextResponseSchema = z.object({ task: ReviewTaskSchema.nullable() });

// POST /api/review/leases/:id/renew   → { lease_expires_at }
export const RenewResponseSchema = z.object({ lease_expires_at: z.string() });
// POST /api/review/leases/:id/release → { ok: true }
export const ReleaseResponseSchema = z.object({ ok: z.literal(true) });
/**
 * The task's `lease_token`: the release ends the lease only if it is still that one, so a release
 * sent for an earlier claim of the item never ends a lease made since (an undo's, a new claim's).
 * Without it (older clients), the caller's lease on the item ends whatever it is.
 */
export const ReleaseRequestSchema = z.object({ lease_token: z.string().max(64).optional() }).optional();

// POST /api/review/items/:id   (reviewer, holding the lease): submit a review
export const SubmitReviewRequestSchema = z
  .object({
    decision: DecisionSchema,
    criteria: ReviewCriteriaSchema,
    feedback: freeText().trim().max(4000).default(''),
    corrected_answer: freeText().trim().min(1).max(200).optional(),
    corrected_question: freeText().trim().min(1).max(1000).optional(),
    complexity: z.number().int().min(1).max(5).optional(),
    time_spent_ms: z.number().int().min(0).max(24 * 3600 * 1000),
  })
  .superRefine((body, ctx) => {
    const failed = Object.values(body.criteria).some((c) => !c.pass);
    if (body.decision === 'reject') {
      if (!failed) ctx.addIssue({ code: 'custom', path: ['criteria'], message: 'a rejection needs at least one failed criterion' });
      if (body.feedback === '') ctx.addIssue({ code: 'custom', path: ['feedback'], message: 'a rejection needs written feedback' });
    } else {
      if (!body.criteria.rationality.pass || !body.criteria.layout.pass) {
        ctx.addIssue({ code: 'custom', path: ['criteria'], message: 'accept needs rationality and layout consistency to pass; reject instead' });
      }
      if (!body.criteria.correctness.pass && body.corrected_answer === undefined) {
        ctx.addIssue({ code: 'custom', path: ['corrected_answer'], message: 'accepting with a failed correctness needs the corrected answer' });
      }
    }
  });
export type SubmitReviewRequest = z.input<typeof SubmitReviewRequestSchema>;
/** A review as the server stores it, after parsing (defaults filled). */
export type SubmittedReview = z.output<typeof SubmitReviewRequestSchema>;
/**
 * What a reviewer is told of the item after their review (blind review): its outcome only when
 * their review alone decided it (k = 1: `accepted` or `rejected`); `submitted` whenever the
 * outcome depends on other reviewers' verdicts too (k ≥ 2, or a gold item's), decided or not.
 */
export const SubmittedStatusSchema = z.enum(['accepted', 'rejected', 'submitted']);
export type SubmittedStatus = z.infer<typeof SubmittedStatusSchema>;
export const SubmitReviewResponseSchema = z.object({
  review_id: z.number().int(),
  item_status: SubmittedStatusSchema,
  /**
   * Until then the reviewer may undo this decision; null when it cannot be undone: it decided
   * the item together with other reviewers' reviews.
   */
  undo_until: z.string().nullable(),
});
export type SubmitReviewResponse = z.infer<typeof SubmitReviewResponseSchema>;

// POST /api/review/reviews/:id/undo   (the reviewer who made it, within the window) → the task again
export const UndoResponseSchema = z.object({ task: ReviewTaskSchema });

export const ReviewRecordSchema = z.object({
  id: z.number().int(),
  item_id: z.number().int(),
  reviewer_id: z.number().int(),
  reviewer: z.string(),
  decision: DecisionSchema,
  criteria: ReviewCriteriaSchema,
  feedback: z.string(),
  corrected_answer: z.string().nullable(),
  corrected_question: z.string().nullable(),
  complexity: z.number().int().nullable(),
  time_spent_ms: z.number().int(),
  created_at: z.string(),
  retracted_at: z.string().nullable(),
  retract_reason: z.string().nullable(),
});
export type ReviewRecord = z.infer<typeof ReviewRecordSchema>;

export const AnswerHistoryEntrySchema = z.object({
  answer: z.string(),
  question: z.string(),
  source: z.enum(['model', 'review', 'adjudication', 'undo', 'requeue']),
  user: z.string().nullable(),
  created_at: z.string(),
});

// GET /api/review/items/:id/history   (curator) → every review (retracted ones too) and the answer history
export const ItemHistoryResponseSchema = z.object({
  reviews: z.array(ReviewRecordSchema),
  answers: z.array(AnswerHistoryEntrySchema),
});

/** An answer the adjudicator may choose: the item's own (the model's or writer's) or a reviewer's correction, with who proposed it. */
export const AnswerChoiceSchema = AnswerCheckSchema.extend({
  source: z.enum(['item', 'review']),
  /** The reviewers whose standing review gives this answer (a correction, or accepting the item's as it is). */
  reviewers: z.array(z.string()),
});
export type AnswerChoice = z.infer<typeof AnswerChoiceSchema>;

// GET /api/review/adjudication   (curator) → items needing adjudication with their reviews side by side,
// and every answer proposed for each (the reviewers' corrections beside the item's own), checked.
export const AdjudicationListResponseSchema = z.object({
  items: z.array(
    z.object({
      item: ItemDetailSchema,
      reviews: z.array(ReviewRecordSchema),
      group: ItemGroupSchema.nullable().default(null),
      answers: z.array(AnswerChoiceSchema).default([]),
    }),
  ),
});

// POST /api/review/items/:id/adjudicate   (curator)
export const AdjudicateRequestSchema = z.object({
  decision: DecisionSchema,
  final_answer: freeText().trim().min(1).max(200).optional(),
  final_question: freeText().trim().min(1).max(1000).optional(),
  note: freeText().trim().max(4000).default(''),
});
/** An adjudication as the server stores it, after parsing. */
export type Adjudication = z.output<typeof AdjudicateRequestSchema>;
export const AdjudicateResponseSchema = z.object({ item_status: ItemStatusSchema });

// POST /api/review/requeue   (curator): send items back to the queue; their reviews are kept, retracted
export const RequeueRequestSchema = z.object({ item_ids: z.array(z.number().int().positive()).min(1).max(1000) });
export const RequeueResponseSchema = z.object({ requeued: z.number().int() });

/**
 * Items per status. Curators and admins get every status; reviewers none (`{}`): the figures
 * moved with each decision and claim, and so told a reviewer how the item they had just judged
 * with others settled (needs adjudication +1) and that the item they claimed was gold (no item
 * went into review).
 */
export const StatusCountsSchema = z.partialRecord(ItemStatusSchema, z.number().int());

// GET /api/review/queue   → queue size for the caller and counts per status (staff only, see StatusCountsSchema)
export const QueueResponseSchema = z.object({
  available: z.number().int(),
  /** Of `available`, the items assigned to the caller or to a named queue they are in (claimed first). */
  assigned: z.number().int().default(0),
  counts: StatusCountsSchema,
});

const RateSchema = z.object({ key: z.string(), reviewed: z.number().int(), accepted: z.number().int(), pass_rate: z.number().nullable() });
const CriterionAgreementSchema = z.object({ items: z.number().int(), percent_agreement: z.number().nullable(), fleiss_kappa: z.number().nullable() });

// GET /api/review/stats   → own figures for everyone; team figures for curators
export const ReviewStatsResponseSchema = z.object({
  me: z.object({
    reviews: z.number().int(),
    accepted: z.number().int(),
    rejected: z.number().int(),
    today: z.number().int(),
    median_seconds: z.number().nullable(),
  }),
  team: z
    .object({
      pass_rate: z.number().nullable(),
      decided: z.number().int(),
      by_chart_type: z.array(RateSchema),
      by_proposal: z.array(RateSchema),
      agreement: z.object({ rationality: CriterionAgreementSchema, correctness: CriterionAgreementSchema, layout: CriterionAgreementSchema }),
      throughput: z.array(z.object({ day: z.string(), reviews: z.number().int() })),
      by_reviewer: z.array(z.object({ reviewer: z.string(), reviews: z.number().int(), median_seconds: z.number().nullable() })),
    })
    .nullable(),
});
export type ReviewStatsResponse = z.infer<typeof ReviewStatsResponseSchema>;

/** Reviewers claim, submit and undo; curators read histories, adjudicate and re-queue. */
export const reviewApi = {
  next: endpoint('POST', '/api/review/next', { body: NextRequestSchema, response: NextResponseSchema }),
  queue: endpoint('GET', '/api/review/queue', { response: QueueResponseSchema }),
  renew: endpoint('POST', '/api/review/leases/:id/renew', { params: IdParamSchema, response: RenewResponseSchema }),
  release: endpoint('POST', '/api/review/leases/:id/release', { params: IdParamSchema, body: ReleaseRequestSchema, response: ReleaseResponseSchema }),
  submit: endpoint('POST', '/api/review/items/:id', { params: IdParamSchema, body: SubmitReviewRequestSchema, response: SubmitReviewResponseSchema, status: 201 }),
  undo: endpoint('POST', '/api/review/reviews/:id/undo', { params: IdParamSchema, response: UndoResponseSchema }),
  history: endpoint('GET', '/api/review/items/:id/history', { params: IdParamSchema, response: ItemHistoryResponseSchema }),
  adjudication: endpoint('GET', '/api/review/adjudication', { response: AdjudicationListResponseSchema }),
  adjudicate: endpoint('POST', '/api/review/items/:id/adjudicate', { params: IdParamSchema, body: AdjudicateRequestSchema, response: AdjudicateResponseSchema }),
  requeue: endpoint('POST', '/api/review/requeue', { body: RequeueRequestSchema, response: RequeueResponseSchema }),
  stats: endpoint('GET', '/api/review/stats', { response: ReviewStatsResponseSchema }),
} as const;
