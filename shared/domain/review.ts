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

/**
 * Why the workbench ended a reviewer's lease before they submitted (issue 35): a change of the
 * reviews per item (k) decided the item from its standing reviews, or took away the slot the
 * lease was on. Their next submit or renewal is refused with code `lease_ended` saying which;
 * `lease.expired` carries it to their open pages.
 */
export const LEASE_END_REASONS = ['decided_by_k_change', 'slot_removed_by_k_change'] as const;
export const LeaseEndReasonSchema = z.enum(LEASE_END_REASONS);
export type LeaseEndReason = z.infer<typeof LeaseEndReasonSchema>;

/** What a reviewer is told of a lease ended for them: the item, why, and what to do next. */
export function leaseEndedMessage(itemId: number, ending: { reason: LeaseEndReason; k_from: number; k_to: number }): string {
  const change = `the reviews per item (k) changed from ${ending.k_from} to ${ending.k_to} while you held it`;
  const what =
    ending.reason === 'decided_by_k_change'
      ? `item ${itemId} was decided without your review: ${change}, and the reviews already standing now decide it`
      : `your lease on item ${itemId} ended: ${change}, and the item's remaining slots went to the reviewers who claimed it before you`;
  return `${what}. Your review was not stored; claim the next item.`;
}
