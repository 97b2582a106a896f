import { z } from 'zod';

export const PROPOSAL_ORIGINS = ['seed', 'generated', 'revised'] as const;
export const ProposalOriginSchema = z.enum(PROPOSAL_ORIGINS);
export type ProposalOrigin = z.infer<typeof ProposalOriginSchema>;

export const PROPOSAL_STATUSES = ['active', 'retired', 'duplicate'] as const;
export const ProposalStatusSchema = z.enum(PROPOSAL_STATUSES);
export type ProposalStatus = z.infer<typeof ProposalStatusSchema>;

export const ENGINES = ['offline', 'openai'] as const;
export const EngineSchema = z.enum(ENGINES);
export type Engine = z.infer<typeof EngineSchema>;

/** What the offline engine calls itself wherever a model name would appear. */
export const OFFLINE_MODEL = 'offline-rules';

export const RUN_STAGES = ['proposals', 'items', 'both'] as const;
export const RunStageSchema = z.enum(RUN_STAGES);
export type RunStage = z.infer<typeof RunStageSchema>;

export const RUN_STATUSES = ['queued', 'running', 'paused', 'cancelled', 'done', 'failed'] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;
/** A run in one of these states will do no more work. */
export const FINISHED_RUN_STATUSES: readonly RunStatus[] = ['cancelled', 'done', 'failed'];

export const ITEM_ORIGINS = ['llm', 'offline', 'human'] as const;
export const ItemOriginSchema = z.enum(ITEM_ORIGINS);
export type ItemOrigin = z.infer<typeof ItemOriginSchema>;

export const ITEM_STATUSES = ['pending', 'in_review', 'accepted', 'rejected', 'needs_adjudication'] as const;
export const ItemStatusSchema = z.enum(ITEM_STATUSES);
export type ItemStatus = z.infer<typeof ItemStatusSchema>;

/**
 * How an item's question relates to its factual question. `same`: the factual question under
 * the assumption, with at most the grammatical change a hypothetical needs ("is" → "would be");
 * `different`: another question, a different task kept out of the decline and bias rates.
 */
export const QUESTION_RELATIONS = ['same', 'different'] as const;
export const QuestionRelationSchema = z.enum(QUESTION_RELATIONS);
export type QuestionRelation = z.infer<typeof QuestionRelationSchema>;

/** Why the system (not a person) sent an item back to review. */
export const REQUEUE_REASONS = ['table_changed'] as const;
export const RequeueReasonSchema = z.enum(REQUEUE_REASONS);
export type RequeueReason = z.infer<typeof RequeueReasonSchema>;
