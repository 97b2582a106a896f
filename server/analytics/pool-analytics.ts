import type { Db } from '../../db/database';
import type { LineageNode, LineageResponse, PassRate, PoolAnalyticsResponse } from '../../shared/api/analytics';
import { PROPOSAL_ORIGINS, type ProposalStatus } from '../../shared/domain/generation';
import type { ChartType } from '../../shared/domain/chart-types';
import {
  lineageIds,
  overallTally,
  parentLinksWithin,
  poolProposals,
  proposalCreationsByDay,
  proposalStatsFor,
  proposalsWithItems,
  tallyByChartType,
  tallyByRound,
  type Tally,
} from './analytics-queries';
import { extractOperation, operationKey } from './operations';

/** Proposals whose operations the sunburst and the diversity count: in the pool now or once. */
export const SUNBURST_STATUSES: readonly ProposalStatus[] = ['active', 'retired'];

/** A tally with its pass rate as a percentage, null with nothing decided (as /api/review/stats). */
export function withPassRate<T extends Tally>(tally: T): T & PassRate {
  return { ...tally, pass_rate: tally.decided === 0 ? null : (tally.accepted / tally.decided) * 100 };
}

/** Cumulative proposals per origin on each day that any entered the pool. */
function poolGrowth(db: Db): PoolAnalyticsResponse['growth'] {
  const rows = proposalCreationsByDay(db);
  const added = new Map(rows.map((r) => [`${r.day}|${r.origin}`, r.count]));
  const days = [...new Set(rows.map((r) => r.day))];
  const running = new Map(PROPOSAL_ORIGINS.map((origin) => [origin, 0]));
  return days.flatMap((day) =>
    PROPOSAL_ORIGINS.map((origin) => {
      const cumulative = (running.get(origin) ?? 0) + (added.get(`${day}|${origin}`) ?? 0);
      running.set(origin, cumulative);
      return { day, origin, cumulative };
    }),
  );
}

function operationsAndDiversity(db: Db): Pick<PoolAnalyticsResponse, 'operations' | 'diversity'> {
  const sunburst = new Map<string, { chart_type: ChartType; noun: string; verb: string; count: number }>();
  const perType = new Map<ChartType, { proposals: number; unparsed: number; keys: Set<string> }>();
  const overall = { proposals: 0, unparsed: 0, keys: new Set<string>() };
  for (const proposal of poolProposals(db, SUNBURST_STATUSES)) {
    const type = perType.get(proposal.chart_type) ?? { proposals: 0, unparsed: 0, keys: new Set<string>() };
    perType.set(proposal.chart_type, type);
    type.proposals++;
    overall.proposals++;
    const op = extractOperation(proposal.text);
    if (!op) {
      type.unparsed++;
      overall.unparsed++;
      continue;
    }
    type.keys.add(operationKey(op));
    overall.keys.add(operationKey(op));
    const cell = `${proposal.chart_type}|${op.noun}|${op.verb}`;
    const entry = sunburst.get(cell) ?? { chart_type: proposal.chart_type, noun: op.noun, verb: op.verb, count: 0 };
    entry.count++;
    sunburst.set(cell, entry);
  }
  const diversity = (d: { proposals: number; unparsed: number; keys: Set<string> }) => ({
    proposals: d.proposals,
    unparsed: d.unparsed,
    distinct_operations: d.keys.size,
  });
  return {
    operations: [...sunburst.values()].sort(
      (a, b) => a.chart_type.localeCompare(b.chart_type) || b.count - a.count || a.noun.localeCompare(b.noun) || a.verb.localeCompare(b.verb),
    ),
    diversity: {
      overall: diversity(overall),
      by_chart_type: [...perType.entries()]
        .map(([chart_type, d]) => ({ chart_type, ...diversity(d) }))
        .sort((a, b) => a.chart_type.localeCompare(b.chart_type)),
    },
  };
}

/** GET /api/analytics/pool: growth, pass rates, the operation sunburst and diversity. */
export function poolAnalytics(db: Db): PoolAnalyticsResponse {
  return {
    growth: poolGrowth(db),
    pass_rate: {
      overall: withPassRate(overallTally(db)),
      by_proposal: proposalsWithItems(db).map(({ id, ...row }) => withPassRate({ proposal_id: id, ...row })),
      by_chart_type: tallyByChartType(db).map(withPassRate),
      by_round: tallyByRound(db).map(withPassRate),
    },
    ...operationsAndDiversity(db),
  };
}

/** GET /api/analytics/lineage/:id: the proposal's ancestors and descendants with their pass rates; null when it does not exist. */
export function proposalLineage(db: Db, proposalId: number): LineageResponse | null {
  const { ancestors, descendants } = lineageIds(db, proposalId);
  const relation = new Map<number, LineageNode['relation']>([
    ...ancestors.map((id) => [id, 'ancestor'] as const),
    ...descendants.map((id) => [id, 'descendant'] as const),
    [proposalId, 'self'],
  ]);
  const rows = proposalStatsFor(db, [...relation.keys()]);
  if (!rows.some((row) => row.id === proposalId)) return null;
  const parents = new Map<number, number[]>();
  for (const link of parentLinksWithin(db, [...relation.keys()])) {
    const list = parents.get(link.proposal_id) ?? [];
    list.push(link.parent_id);
    parents.set(link.proposal_id, list);
  }
  const nodes = rows.map(
    (row): LineageNode =>
      withPassRate({
        id: row.id,
        chart_type: row.chart_type,
        text: row.text,
        origin: row.origin,
        status: row.status,
        round: row.round,
        relation: relation.get(row.id) ?? 'self',
        parent_ids: parents.get(row.id) ?? [],
        operation: extractOperation(row.text),
        decided: row.decided,
        accepted: row.accepted,
      }),
  );
  return { proposal_id: proposalId, root_ids: nodes.filter((n) => n.parent_ids.length === 0).map((n) => n.id), nodes };
}
