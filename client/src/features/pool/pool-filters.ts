import { ProposalScopeSchema, type ProposalListQuery, type ProposalScope } from '@shared/api/pool';
import { ChartTypeSchema, type ChartType } from '@shared/domain/chart-types';
import { ProposalOriginSchema, ProposalStatusSchema, type ProposalOrigin, type ProposalStatus } from '@shared/domain/generation';
import { parseId } from '../../ui/parse-id';

export const POOL_PAGE_SIZE = 50;

/** How a proposal's scope reads on the page: what kind of question it is written for. */
export const SCOPE_LABELS: Record<ProposalScope, string> = { chart: 'Single chart', group: 'Chart group' };

/** The pool list state, kept in the URL so it survives reloads, links and the back button. */
export type PoolFilters = {
  q: string;
  chartType: ChartType | '';
  origin: ProposalOrigin | '';
  status: ProposalStatus | '';
  scope: ProposalScope | '';
  page: number;
};

export function readPoolFilters(params: URLSearchParams): PoolFilters {
  const type = ChartTypeSchema.safeParse(params.get('type'));
  const origin = ProposalOriginSchema.safeParse(params.get('origin'));
  const status = ProposalStatusSchema.safeParse(params.get('status'));
  const scope = ProposalScopeSchema.safeParse(params.get('scope'));
  return {
    q: params.get('q') ?? '',
    chartType: type.success ? type.data : '',
    origin: origin.success ? origin.data : '',
    status: status.success ? status.data : '',
    scope: scope.success ? scope.data : '',
    page: parseId(params.get('page')) ?? 1,
  };
}

/** Applies a change to the URL state; any change other than the page starts again at page 1. */
export function writePoolFilters(current: PoolFilters, change: Partial<PoolFilters>): URLSearchParams {
  const next: PoolFilters = { ...current, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.q.trim()) params.set('q', next.q.trim());
  if (next.chartType) params.set('type', next.chartType);
  if (next.origin) params.set('origin', next.origin);
  if (next.status) params.set('status', next.status);
  if (next.scope) params.set('scope', next.scope);
  if (next.page > 1) params.set('page', String(next.page));
  return params;
}

export function toPoolQuery(filters: PoolFilters): ProposalListQuery {
  return {
    page: filters.page,
    page_size: POOL_PAGE_SIZE,
    q: filters.q.trim() || undefined,
    chart_type: filters.chartType || undefined,
    origin: filters.origin || undefined,
    status: filters.status || undefined,
    scope: filters.scope || undefined,
  };
}
