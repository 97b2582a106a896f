import { z } from 'zod';

/** The three criteria of the paper's human-feedback discriminator. */
export const CRITERIA = ['rationality', 'correctness', 'layout'] as const;
export const CriterionSchema = z.enum(CRITERIA);
export type Criterion = z.infer<typeof CriterionSchema>;

export const CRITERION_LABELS: Record<Criterion, string> = {
  rationality: 'Rationality',
  correctness: 'Answer correctness',
  layout: 'Layout consistency',
};

export const DECISIONS = ['accept', 'reject'] as const;
export const DecisionSchema = z.enum(DECISIONS);
export type Decision = z.infer<typeof DecisionSchema>;

export const CONSENSUS_RULES = ['unanimous', 'majority'] as const;
export const ConsensusRuleSchema = z.enum(CONSENSUS_RULES);
export type ConsensusRule = z.infer<typeof ConsensusRuleSchema>;
