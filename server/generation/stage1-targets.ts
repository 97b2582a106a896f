import type { Db } from '../../db/database';
import type { ChartType } from '../../shared/domain/chart-types';
import { getQaWithChart } from '../charts/chart-queries';
import { activeProposals } from '../pool/pool-queries';
import type { ProposalTarget } from './offline';
import { shuffled, type Rng } from './offline/rng';
import type { RunConfig } from '../../shared/api/runs';
import { eligibleQaIds } from './run-queries';

/**
 * How many of the run's questions of a chart type a Stage 1 task grows the pool for: enough that
 * the sample holds the questions a pool of one-point changes leaves without an item, few enough
 * that the rules try each candidate on them in about a second.
 */
export const STAGE1_TARGETS = 16;

/**
 * What a Stage 1 task of the offline rules grows the pool toward: a sample of the questions over
 * one chart of the type the run may ask (its split and filters; seeded, so a resumed task draws
 * the same), and the texts of the pool's active proposals of that type.
 */
export function stage1Targets(db: Db, config: Pick<RunConfig, 'split' | 'only_new_qas' | 'confirmed_types_only'>, chartType: ChartType, rng: Rng): { targets: ProposalTarget[]; pool: string[] } {
  const filters = { split: config.split, chartType, onlyNew: config.only_new_qas, confirmedTypesOnly: config.confirmed_types_only };
  const single = eligibleQaIds(db, filters).filter((qa) => qa.groupId === null);
  const targets: ProposalTarget[] = [];
  for (const { id } of shuffled(rng, single)) {
    if (targets.length === STAGE1_TARGETS) break;
    const source = getQaWithChart(db, id);
    if (!source || source.chart.table.rows.length === 0) continue;
    targets.push({ table: source.chart.table, chartType: source.chart.chart_type, title: source.chart.title ?? '', qa: { query: source.qa.query, label: source.qa.label } });
  }
  return { targets, pool: activeProposals(db, chartType).map((proposal) => proposal.text) };
}
