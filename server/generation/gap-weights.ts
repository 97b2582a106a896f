import type { Db } from '../../db/database';
import type { ChartType } from '../../shared/domain/chart-types';
import { acceptedItems } from '../analytics/analytics-queries';
import { extractOperation, itemOperation, operationKey } from '../analytics/operations';

/**
 * Coverage-steered sampling: how many accepted items each operation (verb–object) already has
 * for a chart type. Runs that weight toward the gaps prefer proposals whose operation has the
 * fewest, so the accepted set grows in diversity rather than only in size.
 */
export function operationCoverage(db: Db, chartType: ChartType): (proposalText: string) => number {
  const counts = new Map<string, number>();
  for (const item of acceptedItems(db)) {
    if (item.chart_type !== chartType) continue;
    const op = itemOperation(item.proposal_text, item.assumption);
    if (op) counts.set(operationKey(op), (counts.get(operationKey(op)) ?? 0) + 1);
  }
  return (text) => {
    const op = extractOperation(text);
    return op ? (counts.get(operationKey(op)) ?? 0) : 0;
  };
}
