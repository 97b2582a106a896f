import type { QueueFilters } from '@shared/api/review';
import { ChartTypeSchema } from '@shared/domain/chart-types';
import { parseId } from '../../ui/parse-id';

/** The review queue's filters, kept in the URL so a reload (or a shared link) keeps them. */
export function readQueueFilters(params: URLSearchParams): QueueFilters {
  const type = ChartTypeSchema.safeParse(params.get('type'));
  return {
    run_id: parseId(params.get('run')) ?? undefined,
    chart_type: type.success ? type.data : undefined,
    proposal_id: parseId(params.get('proposal')) ?? undefined,
    mismatch_first: params.get('mismatch') === '1',
  };
}

export function writeQueueFilters(filters: QueueFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.run_id !== undefined) params.set('run', String(filters.run_id));
  if (filters.chart_type !== undefined) params.set('type', filters.chart_type);
  if (filters.proposal_id !== undefined) params.set('proposal', String(filters.proposal_id));
  if (filters.mismatch_first) params.set('mismatch', '1');
  return params;
}
