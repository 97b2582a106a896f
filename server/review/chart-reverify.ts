import type { Db } from '../../db/database';
import { verifyChartItemsAgain } from '../items/reverify-items';
import { requeue } from './review-service';

export interface ReverifyCounts {
  reverified: number;
  requeued: number;
}

export const NOTHING_REVERIFIED: ReverifyCounts = { reverified: 0, requeued: 0 };

/**
 * A chart's table or type changed: its items are verified again (`verifyChartItemsAgain`), and
 * each one under review or accepted whose recomputed answer changed goes back to the queue with
 * the reason `table_changed` (reviews retracted, leases dropped, a history entry), so an accepted
 * one leaves the export until it is accepted again. Call it inside the transaction that changed
 * the chart.
 */
export function reverifyChartItems(db: Db, chartId: number): ReverifyCounts {
  const { reverified, changed } = verifyChartItemsAgain(db, chartId);
  const requeued = changed.length === 0 ? 0 : requeue(db, changed, null, 'table_changed').requeued.length;
  return { reverified, requeued };
}
