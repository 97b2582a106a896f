import { ChartTypeSchema, type ChartType } from '@shared/domain/chart-types';
import type { ChartListQuery } from '@shared/api/charts';

export const CHART_PAGE_SIZE = 25;

/** The charts list state, kept in the URL so it survives reloads, links and the back button. */
export type ChartListFilters = {
  q: string;
  split: string;
  chartType: ChartType | '';
  page: number;
};

export function readFilters(params: URLSearchParams): ChartListFilters {
  const type = ChartTypeSchema.safeParse(params.get('type'));
  const page = Number(params.get('page') ?? '1');
  return {
    q: params.get('q') ?? '',
    split: params.get('split') ?? '',
    chartType: type.success ? type.data : '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** Applies a change to the URL state; any change other than the page starts again at page 1. */
export function writeFilters(current: ChartListFilters, change: Partial<ChartListFilters>): URLSearchParams {
  const next: ChartListFilters = { ...current, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.q.trim()) params.set('q', next.q.trim());
  if (next.split) params.set('split', next.split);
  if (next.chartType) params.set('type', next.chartType);
  if (next.page > 1) params.set('page', String(next.page));
  return params;
}

export function toListQuery(filters: ChartListFilters): ChartListQuery {
  return {
    page: filters.page,
    page_size: CHART_PAGE_SIZE,
    q: filters.q.trim() || undefined,
    split: filters.split || undefined,
    chart_type: filters.chartType || undefined,
  };
}
