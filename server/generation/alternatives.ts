import type { Db } from '../../db/database';
import type { ProposalScope } from '../../shared/api/pool';
import type { ChartType } from '../../shared/domain/chart-types';
import { activeProposalsByLoad } from '../pool/pool-queries';
import { operationCoverage } from './gap-weights';
import type { RunRecord } from './run-queries';

/** A pool proposal as the pairing and the offline rules read it: over a group, its chart type is the type of the chart it edits. */
export interface PoolProposal {
  id: number;
  text: string;
  chartType: ChartType;
}

/**
 * The pool's other active proposals a task's QA may be paired with instead of its planned one
 * (the offline engine's own search, and a model task's pairing), least used first; over a group,
 * the group proposals of every chart type the group holds. A run weighted to coverage gaps offers
 * none whose operation is better covered than the planned proposal's.
 */
export function alternativesFor(db: Db, run: RunRecord, chartTypes: readonly ChartType[], planned: PoolProposal & { scope: ProposalScope }): PoolProposal[] {
  const pool = chartTypes
    .flatMap((chartType) => activeProposalsByLoad(db, chartType, planned.scope).map((p) => ({ ...p, chartType })))
    .filter((p) => p.id !== planned.id)
    .sort((a, b) => a.items - b.items || a.id - b.id)
    .map(({ id, text, chartType }) => ({ id, text, chartType }));
  if (!run.config.weight_to_gaps) return pool;
  const coverage = new Map(chartTypes.map((chartType) => [chartType, operationCoverage(db, chartType)] as const));
  const gap = (p: PoolProposal) => coverage.get(p.chartType)?.(p.text) ?? 0;
  const limit = gap(planned);
  return pool.filter((p) => gap(p) <= limit).sort((a, b) => gap(a) - gap(b));
}
