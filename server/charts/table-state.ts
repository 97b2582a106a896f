import type { Engine } from '../../shared/domain/generation';

/**
 * Why no item can be made on a question's chart, or null when one can. A chart known only by
 * its image (a benchmark import) has no table to compute the answer over; the offline engine's
 * rules also need the table confirmed, since nothing else checks what they compute.
 */
export function noItemsReason(chart: { name: string; has_table: boolean; table_confirmed: boolean } | null, engine: Engine): string | null {
  if (chart === null) return null;
  if (!chart.has_table) return `chart ${chart.name} has no data table (image only): ${engine === 'offline' ? 'the offline engine makes no items for it' : 'no item can be verified on it yet'}`;
  if (engine === 'offline' && !chart.table_confirmed) return `chart ${chart.name} has no confirmed data table: the offline engine makes no items for it`;
  return null;
}
