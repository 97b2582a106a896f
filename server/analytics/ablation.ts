import type { Db } from '../../db/database';
import { ABLATION_GROUPS, type AblationGroup, type AblationResponse, type AblationRow } from '../../shared/api/analytics';
import { ablationItems, reflectionCosts, runCosts, type AblationItemRow } from './analytics-queries';
import { itemOperation, operationKey } from './operations';
import { withPassRate } from './pool-analytics';

const MS_PER_HOUR = 3_600_000;

/**
 * The paper's Figure 4 groups: hand-written items; machine-only items from round-0 proposals
 * that are no revision (before any reflection); HAI items from revisions or from proposals of
 * a later round (after reflection fed reviewers' judgements back).
 */
export function ablationGroup(item: Pick<AblationItemRow, 'origin' | 'proposal_origin' | 'proposal_round'>): AblationGroup {
  if (item.origin === 'human') return 'human';
  return item.proposal_origin === 'revised' || (item.proposal_round ?? 0) > 0 ? 'hai' : 'machine';
}

const percentOf = (part: number, whole: number) => (whole === 0 ? null : (part / whole) * 100);

interface CostBasis {
  runs: ReturnType<typeof runCosts>;
  reflections: ReturnType<typeof reflectionCosts>;
  hourlyRate: number;
}

/** One row of the comparison over a group of items. */
export function summarise(items: readonly AblationItemRow[], costs: CostBasis, countReflections: boolean): AblationRow {
  let decided = 0;
  let accepted = 0;
  let reviews = 0;
  let rationality = 0;
  let layout = 0;
  let complexitySum = 0;
  let complexityRated = 0;
  let reviewMs = 0;
  let llmCost = 0;
  const operations = new Set<string>();
  const proposals = new Set<number>();
  for (const item of items) {
    if (item.status === 'accepted' || item.status === 'rejected') decided++;
    if (item.status === 'accepted') accepted++;
    reviews += item.reviews;
    rationality += item.rationality_passed;
    layout += item.layout_passed;
    complexitySum += item.complexity_sum;
    complexityRated += item.complexity_rated;
    reviewMs += item.review_ms;
    const run = item.run_id === null ? undefined : costs.runs.get(item.run_id);
    // A run's cost (Stage 1 and failed calls included) is spread over the items it created.
    if (run && run.items_created > 0) llmCost += run.cost / run.items_created;
    if (item.proposal_id !== null) proposals.add(item.proposal_id);
    const op = itemOperation(item.proposal_text, item.assumption);
    if (op) operations.add(operationKey(op));
  }
  const reflectionCost = countReflections ? [...proposals].reduce((sum, id) => sum + (costs.reflections.get(id) ?? 0), 0) : 0;
  const reviewerHours = reviewMs / MS_PER_HOUR;
  const reviewerCost = reviewerHours * costs.hourlyRate;
  return {
    items: items.length,
    ...withPassRate({ decided, accepted }),
    reviews,
    rationality_pass_rate: percentOf(rationality, reviews),
    layout_pass_rate: percentOf(layout, reviews),
    mean_complexity: complexityRated === 0 ? null : complexitySum / complexityRated,
    operation_diversity: operations.size,
    llm_cost: llmCost,
    reflection_cost: reflectionCost,
    reviewer_hours: reviewerHours,
    reviewer_cost: reviewerCost,
    unit_cost: accepted === 0 ? null : (llmCost + reflectionCost + reviewerCost) / accepted,
  };
}

/** GET /api/analytics/ablation: human vs machine-only vs HAI, live. */
export function ablation(db: Db, hourlyRate: number): AblationResponse {
  const costs: CostBasis = { runs: runCosts(db), reflections: reflectionCosts(db), hourlyRate };
  const byGroup = new Map<AblationGroup, AblationItemRow[]>(ABLATION_GROUPS.map((g) => [g, []]));
  const haiByRound = new Map<number, AblationItemRow[]>();
  for (const item of ablationItems(db)) {
    const group = ablationGroup(item);
    byGroup.get(group)?.push(item);
    if (group === 'hai') {
      const round = item.proposal_round ?? 0;
      const list = haiByRound.get(round) ?? [];
      list.push(item);
      haiByRound.set(round, list);
    }
  }
  return {
    reviewer_hourly_rate: hourlyRate,
    groups: ABLATION_GROUPS.map((group) => ({ group, ...summarise(byGroup.get(group) ?? [], costs, group === 'hai') })),
    hai_by_round: [...haiByRound.entries()].sort(([a], [b]) => a - b).map(([round, items]) => ({ round, ...summarise(items, costs, true) })),
  };
}
