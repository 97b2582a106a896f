import { FlagFilterSchema, QuestionRelationFilterSchema, type FlagFilter, type ItemListQuery, type QuestionRelationFilter } from '@shared/api/items';
import { ChartTypeSchema, type ChartType } from '@shared/domain/chart-types';
import { ItemOriginSchema, ItemStatusSchema, type ItemOrigin, type ItemStatus } from '@shared/domain/generation';
import { parseId } from '../../ui/parse-id';

export const ITEM_PAGE_SIZE = 25;

/** The items list state, kept in the URL; run, proposal and chart narrow it when linked from those pages. */
export type ItemListFilters = {
  status: ItemStatus | '';
  origin: ItemOrigin | '';
  chartType: ChartType | '';
  run: number | null;
  proposal: number | null;
  chart: number | null;
  /** 'false': only items whose verifier disagreed with their answer. */
  verifier: 'true' | 'false' | '';
  /** Items this user reviewed. */
  reviewer: number | null;
  /** Benchmark validity: the question's relation to the factual one, and the verifier's flags. */
  relation: QuestionRelationFilter | '';
  unchanged: FlagFilter | '';
  consistent: FlagFilter | '';
  control: FlagFilter | '';
  page: number;
};

/** A yes/no filter from the URL; anything else is no filter. */
function flagParam(value: string | null): FlagFilter | '' {
  const parsed = FlagFilterSchema.safeParse(value);
  return parsed.success ? parsed.data : '';
}

export function readItemFilters(params: URLSearchParams): ItemListFilters {
  const status = ItemStatusSchema.safeParse(params.get('status'));
  const origin = ItemOriginSchema.safeParse(params.get('origin'));
  const type = ChartTypeSchema.safeParse(params.get('type'));
  const verifier = params.get('verifier');
  const relation = QuestionRelationFilterSchema.safeParse(params.get('relation'));
  return {
    status: status.success ? status.data : '',
    origin: origin.success ? origin.data : '',
    chartType: type.success ? type.data : '',
    run: parseId(params.get('run')),
    proposal: parseId(params.get('proposal')),
    chart: parseId(params.get('chart')),
    verifier: verifier === 'true' || verifier === 'false' ? verifier : '',
    reviewer: parseId(params.get('reviewer')),
    relation: relation.success ? relation.data : '',
    unchanged: flagParam(params.get('unchanged')),
    consistent: flagParam(params.get('consistent')),
    control: flagParam(params.get('control')),
    page: parseId(params.get('page')) ?? 1,
  };
}

/** Applies a change to the URL state; any change other than the page starts again at page 1. */
export function writeItemFilters(current: ItemListFilters, change: Partial<ItemListFilters>): URLSearchParams {
  const next: ItemListFilters = { ...current, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.status) params.set('status', next.status);
  if (next.origin) params.set('origin', next.origin);
  if (next.chartType) params.set('type', next.chartType);
  if (next.run !== null) params.set('run', String(next.run));
  if (next.proposal !== null) params.set('proposal', String(next.proposal));
  if (next.chart !== null) params.set('chart', String(next.chart));
  if (next.verifier) params.set('verifier', next.verifier);
  if (next.reviewer !== null) params.set('reviewer', String(next.reviewer));
  if (next.relation) params.set('relation', next.relation);
  if (next.unchanged) params.set('unchanged', next.unchanged);
  if (next.consistent) params.set('consistent', next.consistent);
  if (next.control) params.set('control', next.control);
  if (next.page > 1) params.set('page', String(next.page));
  return params;
}

export function toItemQuery(filters: ItemListFilters): ItemListQuery {
  return {
    page: filters.page,
    page_size: ITEM_PAGE_SIZE,
    status: filters.status || undefined,
    origin: filters.origin || undefined,
    chart_type: filters.chartType || undefined,
    run_id: filters.run ?? undefined,
    proposal_id: filters.proposal ?? undefined,
    chart_id: filters.chart ?? undefined,
    verifier_match: filters.verifier || undefined,
    reviewer_id: filters.reviewer ?? undefined,
    question_relation: filters.relation || undefined,
    answer_unchanged: filters.unchanged || undefined,
    proposal_consistent: filters.consistent || undefined,
    is_control: filters.control || undefined,
  };
}
