import type { Db } from '../../db/database';
import type { ChartType } from '../../shared/domain/chart-types';
import { chartTableOfQa, getQaWithChart } from '../charts/chart-queries';
import { activeProposals } from '../pool/pool-queries';
import type { ProposalTarget } from './offline';
import { shuffled, type Rng } from './offline/rng';

/**
 * How many of the run's questions of a chart type a Stage 1 task grows the pool for: enough that
 * the sample holds the questions a pool of one-point changes leaves without an item, few enough
 * that the rules try each candidate on them in about a second.
 */
export const STAGE1_TARGETS = 24;

/**
 * What a Stage 1 task of the offline rules grows the pool toward: a sample of the questions over
 * one chart of the type that the run will ask (`asked`: the run's planned selection, as
 * run-planner draws it; seeded, so a resumed task draws the same), and the texts of the pool's
 * active proposals of that type. A run of six items grows the pool for those six, not the split.
 */
export function stage1Targets(db: Db, asked: readonly { id: number; chart_type: string; group_id: number | null }[], chartType: ChartType, rng: Rng): { targets: ProposalTarget[]; pool: string[] } {
  const single = asked.filter((qa) => qa.group_id === null && qa.chart_type === chartType);
  const targets: ProposalTarget[] = [];
  for (const { id } of shuffled(rng, single)) {
    if (targets.length === STAGE1_TARGETS) break;
    // An image-only chart has no table to change until one is extracted: nothing to grow the pool for.
    if (chartTableOfQa(db, id)?.has_table !== true) continue;
    const source = getQaWithChart(db, id);
    if (!source || source.chart.table.rows.length === 0) continue;
    targets.push({ table: source.chart.table, chartType: source.chart.chart_type, title: source.chart.title ?? '', qa: { query: source.qa.query, label: source.qa.label } });
  }
  return { targets, pool: activeProposals(db, chartType).map((proposal) => proposal.text) };
}
