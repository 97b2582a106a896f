import type { Db } from '../../db/database';
import type { CoverageCell, CoverageResponse } from '../../shared/api/analytics';
import type { ChartType } from '../../shared/domain/chart-types';
import { ANSWER_TYPES } from '../../shared/table/answers';
import { acceptedItems, poolProposals } from './analytics-queries';
import { extractOperation, itemOperation } from './operations';

const cellKey = (c: Omit<CoverageCell, 'count'>) => `${c.verb}|${c.noun}|${c.chart_type}|${c.answer_type}|${c.affects_answer ? 1 : 0}`;

const byKeys = (a: CoverageCell, b: CoverageCell) =>
  a.verb.localeCompare(b.verb) ||
  a.noun.localeCompare(b.noun) ||
  a.chart_type.localeCompare(b.chart_type) ||
  a.answer_type.localeCompare(b.answer_type) ||
  Number(a.affects_answer) - Number(b.affects_answer);

/**
 * GET /api/analytics/coverage: accepted items per operation × chart type × answer type ×
 * whether the assumption changes the answer, and the thinnest cells the active pool could
 * fill — what weighted sampling should steer Stage 1 and Stage 2 towards.
 */
export function coverage(db: Db, limit: number): CoverageResponse {
  const cells = new Map<string, CoverageCell>();
  const accepted = acceptedItems(db);
  let unparsed = 0;
  for (const item of accepted) {
    const op = itemOperation(item.proposal_text, item.assumption);
    if (!op) {
      unparsed++;
      continue;
    }
    const cell = { ...op, chart_type: item.chart_type, answer_type: item.answer_type, affects_answer: item.affects_answer, count: 0 };
    const entry = cells.get(cellKey(cell)) ?? cell;
    entry.count++;
    cells.set(cellKey(cell), entry);
  }

  // What the active pool can produce: its operations per chart type, with the proposals naming them.
  const reachable = new Map<string, { verb: string; noun: string; chart_type: ChartType; proposal_ids: number[] }>();
  for (const proposal of poolProposals(db, ['active'])) {
    const op = extractOperation(proposal.text);
    if (!op) continue;
    const key = `${op.verb}|${op.noun}|${proposal.chart_type}`;
    const entry = reachable.get(key) ?? { ...op, chart_type: proposal.chart_type, proposal_ids: [] };
    entry.proposal_ids.push(proposal.id);
    reachable.set(key, entry);
  }
  const candidates = [...reachable.values()].flatMap(({ proposal_ids, ...op }) => {
    const group = ANSWER_TYPES.flatMap((answer_type) =>
      [false, true].map((affects_answer) => {
        const cell = { ...op, answer_type, affects_answer };
        return { ...cell, count: cells.get(cellKey(cell))?.count ?? 0, proposal_ids };
      }),
    );
    const total = group.reduce((n, c) => n + c.count, 0);
    // Each operation offers its thinnest cell before any offers a second: a list of distinct gaps.
    return group.sort((a, b) => a.count - b.count || byKeys(a, b)).map((cell, rank) => ({ cell, rank, total }));
  });
  const thinnest = candidates
    .sort((a, b) => a.cell.count - b.cell.count || a.rank - b.rank || a.total - b.total || byKeys(a.cell, b.cell))
    .slice(0, limit)
    .map((c) => c.cell);

  return {
    accepted_items: accepted.length,
    unparsed_items: unparsed,
    cells: [...cells.values()].sort((a, b) => b.count - a.count || byKeys(a, b)),
    thinnest,
  };
}
