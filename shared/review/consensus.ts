import type { ConsensusRule, Decision } from '../domain/review';

export type ConsensusOutcome = 'accepted' | 'rejected' | 'needs_adjudication';

/**
 * What the reviews of an item decide once `k` of them are in (null: not enough yet).
 * - unanimous: all accept → accepted; all reject → rejected; anything mixed → adjudication.
 * - majority: more accepts → accepted; more rejects → rejected; a tie → adjudication.
 */
export function consensus(decisions: readonly Decision[], k: number, rule: ConsensusRule): ConsensusOutcome | null {
  if (decisions.length < k || decisions.length === 0) return null;
  const accepts = decisions.filter((d) => d === 'accept').length;
  const rejects = decisions.length - accepts;
  if (rule === 'unanimous') {
    if (rejects === 0) return 'accepted';
    if (accepts === 0) return 'rejected';
    return 'needs_adjudication';
  }
  if (accepts > rejects) return 'accepted';
  if (rejects > accepts) return 'rejected';
  return 'needs_adjudication';
}
