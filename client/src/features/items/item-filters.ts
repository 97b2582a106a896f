import {
  BiasFilterSchema,
  FlagFilterSchema,
  ItemSortSchema,
  LintFilterSchema,
  QuestionRelationFilterSchema,
  type BiasFilter,
  type FlagFilter,
  type ItemFilter,
  type ItemListQuery,
  type ItemSort,
  type LintFilter,
  type QuestionRelationFilter,
} from '@shared/api/items';
import { ChartTypeSchema, type ChartType } from '@shared/domain/chart-types';
import { TableStateSchema, type TableState } from '@shared/table-provenance/table-state';
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
  /** Words searched for in question, assumption and answer. */
  q: string;
  lint: LintFilter | '';
  bias: BiasFilter | '';
  /** Sent back to review because the chart's table changed. */
  stale: FlagFilter | '';
  /** The chart's table: `unconfirmed` lists the items marked `unverified: table not confirmed`. */
  table: TableState | '';
  /** Who the items are assigned to: `me`, `none`, `any`, `queue:<name>` or a username (`assigned=` in the URL). */
  assigned: string;
  /** Items of one split (its folder name). */
  split: string;
  /** Retired items only (`true`) or none of them (`false`). */
  retired: FlagFilter | '';
  sort: ItemSort;
  /** The page's cursor (from the previous page's next or prev); none on the first page. */
  cursor: string;
  /** Which page the cursor is at, for "26–50 of 312": counted as the pager turns. */
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
  const lint = LintFilterSchema.safeParse(params.get('lint'));
  const bias = BiasFilterSchema.safeParse(params.get('bias'));
  const sort = ItemSortSchema.safeParse(params.get('sort'));
  const table = TableStateSchema.safeParse(params.get('table'));
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
    q: params.get('q') ?? '',
    lint: lint.success ? lint.data : '',
    bias: bias.success ? bias.data : '',
    stale: flagParam(params.get('stale')),
    table: table.success ? table.data : '',
    assigned: (params.get('assigned') ?? '').trim().slice(0, 80),
    split: (params.get('split') ?? '').trim().slice(0, 200),
    retired: flagParam(params.get('retired')),
    sort: sort.success ? sort.data : 'newest',
    // A page number without its cursor (an old link) cannot be found again: the first page.
    cursor: params.get('cursor') ?? '',
    page: params.get('cursor') ? (parseId(params.get('page')) ?? 1) : 1,
  };
}

/** Applies a change to the URL state; any change other than the page (and its cursor) starts again at page 1. */
export function writeItemFilters(current: ItemListFilters, change: Partial<ItemListFilters>): URLSearchParams {
  const next: ItemListFilters = { ...current, page: 1, cursor: '', ...change };
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
  if (next.q.trim()) params.set('q', next.q.trim());
  if (next.lint) params.set('lint', next.lint);
  if (next.bias) params.set('bias', next.bias);
  if (next.stale) params.set('stale', next.stale);
  if (next.table) params.set('table', next.table);
  if (next.assigned) params.set('assigned', next.assigned);
  if (next.split) params.set('split', next.split);
  if (next.retired) params.set('retired', next.retired);
  if (next.sort !== 'newest') params.set('sort', next.sort);
  if (next.cursor && next.page > 1) {
    params.set('cursor', next.cursor);
    params.set('page', String(next.page));
  }
  return params;
}

/** The filter alone, as a bulk action on the whole filter sends it. */
export function toItemFilter(filters: ItemListFilters): ItemFilter {
  return {
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
    q: filters.q.trim() || undefined,
    lint: filters.lint || undefined,
    bias: filters.bias || undefined,
    stale: filters.stale || undefined,
    table: filters.table || undefined,
    assigned: filters.assigned || undefined,
    split: filters.split || undefined,
    retired: filters.retired || undefined,
  };
}

export function toItemQuery(filters: ItemListFilters): ItemListQuery {
  return {
    ...toItemFilter(filters),
    page: 1,
    page_size: ITEM_PAGE_SIZE,
    sort: filters.sort,
    cursor: filters.cursor || undefined,
  };
}
