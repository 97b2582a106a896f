import { z } from 'zod';
import type { Db } from '../../db/database';
import { whereClause } from '../../db/sql-filters';
import { statement } from '../../db/statements';
import type { FlagFilter, ItemAssignment, ItemFilter, ItemListQuery, ItemSort, ItemSummary } from '../../shared/api/items';
import { ItemSortSchema } from '../../shared/api/items';
import { DomainError } from '../domain-error';
import { NOW_SQL, prefetchOnlySql } from './shown-status-queries';
import { blindParams, blindStatusSql, blindViews, type BlindViewer } from './blind-view-queries';
import { getItemSummary, itemTableStateSql } from './item-queries';

/**
 * The SQL of the Items page's work list: filters (every flag, full-text search) and keyset
 * paging. A deep page under LIMIT/OFFSET walks and drops every row before it; under a cursor
 * (the last row's sort key and id) it seeks straight to its place in an index.
 */

/** Each order's key; ties are broken by id in the same direction, so (key, id) is a total order. */
const SORTS: Record<ItemSort, { key: string; desc: boolean }> = {
  newest: { key: 'i.id', desc: true },
  oldest: { key: 'i.id', desc: false },
  status: { key: 'i.status', desc: false },
  chart: { key: 'i.chart_id', desc: false },
};

/** What a cursor holds: the sort it was made for, the row it stands at, and the way it points. */
const CursorSchema = z.object({
  s: ItemSortSchema,
  k: z.union([z.string(), z.number()]),
  i: z.number().int(),
  d: z.enum(['after', 'before']),
});
type Cursor = z.infer<typeof CursorSchema>;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string, sort: ItemSort): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new DomainError('bad_request', 'query.cursor: not a cursor this list gave out', 'query.cursor');
  }
  const cursor = CursorSchema.safeParse(parsed);
  if (!cursor.success) throw new DomainError('bad_request', 'query.cursor: not a cursor this list gave out', 'query.cursor');
  if (cursor.data.s !== sort) {
    throw new DomainError('bad_request', `query.cursor: made for sort '${cursor.data.s}', not '${sort}'; start again from the first page`, 'query.cursor');
  }
  return cursor.data;
}

/** A yes/no query filter as SQLite stores the flag. */
function flagValue(filter: FlagFilter | undefined): number | undefined {
  return filter === undefined ? undefined : filter === 'true' ? 1 : 0;
}

/**
 * Words typed into the search box as an FTS5 query: each word quoted (so `AND`, `-` or `"` are
 * text, never syntax), all of them required, the last one also as a prefix (a word being typed).
 */
export function ftsQuery(text: string | undefined): string | undefined {
  const words = (text ?? '').match(/[\p{L}\p{N}]+/gu);
  if (!words) return undefined;
  return words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`).join(' ');
}

const LINT_FINDINGS = "json_each(i.verifier, '$.lint')";

/**
 * The `assigned` filter (migration 021) as one condition: `me` (the viewer), `none`, `any`,
 * `queue:<name>` or a reviewer's username. Only the condition of the kind given has a value.
 */
function assignedConditions(assigned: string | undefined, viewerId: number | undefined): { sql: string; param: string; value: string | number | undefined }[] {
  const kind = assigned === undefined ? null : assigned === 'me' || assigned === 'none' || assigned === 'any' ? assigned : assigned.startsWith('queue:') ? 'queue' : 'user';
  if (kind === 'me' && viewerId === undefined) throw new DomainError('bad_request', "assigned: 'me' needs a signed-in user", 'assigned');
  return [
    { sql: 'i.id IN (SELECT a.item_id FROM item_assignments a WHERE a.reviewer_id = @assigned_me)', param: 'assigned_me', value: kind === 'me' ? viewerId : undefined },
    { sql: 'NOT EXISTS (SELECT 1 FROM item_assignments a WHERE a.item_id = i.id) AND @assigned_none = 1', param: 'assigned_none', value: kind === 'none' ? 1 : undefined },
    { sql: 'EXISTS (SELECT 1 FROM item_assignments a WHERE a.item_id = i.id) AND @assigned_any = 1', param: 'assigned_any', value: kind === 'any' ? 1 : undefined },
    {
      sql: 'i.id IN (SELECT a.item_id FROM item_assignments a JOIN review_queues q ON q.id = a.queue_id WHERE q.name = @assigned_queue)',
      param: 'assigned_queue',
      value: kind === 'queue' ? assigned?.slice('queue:'.length).trim() : undefined,
    },
    {
      sql: 'i.id IN (SELECT a.item_id FROM item_assignments a JOIN users u ON u.id = a.reviewer_id WHERE u.username = @assigned_user)',
      param: 'assigned_user',
      value: kind === 'user' ? assigned : undefined,
    },
  ];
}

/**
 * The status filter: by the status rows show. A prefetch-only item is listed as pending, so it
 * is found as pending; a reviewer (`blind`) finds each item by the status they are shown of it.
 */
function statusCondition(status: ItemFilter['status'], blind: BlindViewer | null): string {
  if (blind !== null) return `${blindStatusSql('i')} = @status`;
  if (status === 'pending') return `(i.status = @status OR ${prefetchOnlySql('i', NOW_SQL)})`;
  if (status === 'in_review') return `i.status = @status AND NOT ${prefetchOnlySql('i', NOW_SQL)}`;
  return 'i.status = @status';
}

/**
 * The WHERE clause of a filter; `q` with no word in it (only punctuation) filters nothing.
 * `viewerId` is who `assigned=me` means; `blind`, a reviewer reading blind (its parameters are
 * bound with the filter's).
 */
function filterWhere(filter: ItemFilter, viewerId?: number, blind: BlindViewer | null = null): { sql: string; params: Record<string, string | number> } {
  const stale = flagValue(filter.stale);
  const retired = flagValue(filter.retired);
  const where = whereClause([
    ...assignedConditions(filter.assigned, viewerId),
    { sql: 'i.chart_id IN (SELECT id FROM charts WHERE split = @split)', param: 'split', value: filter.split },
    {
      sql: retired === 1 ? 'i.id IN (SELECT item_id FROM retired_items) AND @retired = 1' : 'i.id NOT IN (SELECT item_id FROM retired_items) AND @retired = 0',
      param: 'retired',
      value: retired,
    },
    { sql: statusCondition(filter.status, blind), param: 'status', value: filter.status },
    ...(['run_id', 'chart_id', 'proposal_id', 'origin'] as const).map((key) => ({ sql: `i.${key} = @${key}`, param: key, value: filter[key] })),
    // A subquery, not a join: the list reads hqa_items alone, so its count and its pages use its indexes.
    { sql: 'i.chart_id IN (SELECT id FROM charts WHERE chart_type = @chart_type)', param: 'chart_type', value: filter.chart_type },
    { sql: `${itemTableStateSql('i')} = @table`, param: 'table', value: filter.table },
    { sql: 'i.verifier_match = @verifier_match', param: 'verifier_match', value: flagValue(filter.verifier_match) },
    {
      // A reviewer's own gold reviews count too: their gold items are listed as any item they reviewed (blind review).
      sql:
        blind === null
          ? 'EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = i.id AND r.reviewer_id = @reviewer_id)'
          : `(EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = i.id AND r.reviewer_id = @reviewer_id)
              OR EXISTS (SELECT 1 FROM gold_reviews gr WHERE gr.item_id = i.id AND gr.reviewer_id = @reviewer_id))`,
      param: 'reviewer_id',
      value: filter.reviewer_id,
    },
    // NULL is "not classified yet", which the filter names 'unclassified'.
    { sql: "COALESCE(i.question_relation, 'unclassified') = @question_relation", param: 'question_relation', value: filter.question_relation },
    // Unknown (NULL) flags match neither true nor false.
    ...(['answer_unchanged', 'proposal_consistent', 'is_control'] as const).map((key) => ({ sql: `i.${key} = @${key}`, param: key, value: flagValue(filter[key]) })),
    // hqa_items_fts is kept by triggers on hqa_items (015_create_item_search.sql): a migration that
    // rebuilds hqa_items must create them again, or search silently stops finding new items.
    { sql: 'i.id IN (SELECT rowid FROM hqa_items_fts WHERE hqa_items_fts MATCH @q)', param: 'q', value: ftsQuery(filter.q) },
    {
      sql:
        filter.lint === 'none'
          ? `NOT EXISTS (SELECT 1 FROM ${LINT_FINDINGS} WHERE @lint = 'none')`
          : `EXISTS (SELECT 1 FROM ${LINT_FINDINGS} WHERE @lint = 'any' OR json_extract(value, '$.severity') = @lint)`,
      param: 'lint',
      value: filter.lint,
    },
    {
      sql:
        filter.bias === 'none'
          ? "i.bias_flags = '[]' AND @bias = 'none'"
          : filter.bias === 'any'
            ? "i.bias_flags != '[]' AND @bias = 'any'"
            : 'EXISTS (SELECT 1 FROM json_each(i.bias_flags) WHERE value = @bias)',
      param: 'bias',
      value: filter.bias,
    },
    {
      sql: stale === 1 ? "i.requeue_reason = 'table_changed' AND @stale = 1" : "i.requeue_reason IS NOT 'table_changed' AND @stale = 0",
      param: 'stale',
      value: stale,
    },
  ]);
  return blind === null ? where : { sql: where.sql, params: { ...where.params, ...blindParams(blind) } };
}

const FROM = 'FROM hqa_items i';

/** The page's items; to a reviewer (`blind`), each with the status they are shown of it. */
function summaries(db: Db, ids: readonly number[], blind: BlindViewer | null): ItemSummary[] {
  const shown = blind === null ? null : blindViews(db, blind, ids);
  return ids.flatMap((id) => {
    const item = getItemSummary(db, id);
    if (!item) return [];
    const status = shown?.get(id)?.status;
    return [status === undefined ? item : { ...item, status }];
  });
}

export interface ItemListPage {
  items: ItemSummary[];
  assignments: ItemAssignment[];
  total: number;
  next_cursor: string | null;
  prev_cursor: string | null;
}

/**
 * One page of the list. With a cursor, the rows after (or before) the cursor's row in the sort's
 * order; without one, page `page` by offset (short scoped lists, and the first page). One row
 * more than the page is read to know whether a page follows. `blind`: a reviewer, who reads,
 * filters and sorts each item by the status they are shown of it (blind-view-queries.ts).
 */
export function listItemsPage(db: Db, query: ItemListQuery, viewerId?: number, blind: BlindViewer | null = null): ItemListPage {
  const sort = query.sort ?? 'newest';
  const { desc } = SORTS[sort];
  const key = sort === 'status' && blind !== null ? blindStatusSql('i') : SORTS[sort].key;
  const { sql: whereSql, params } = filterWhere(query, viewerId, blind);
  const total = (statement(db, `SELECT COUNT(*) AS n ${FROM} ${whereSql}`).get(params) as { n: number }).n;
  const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor, sort);
  const backwards = cursor?.d === 'before';
  // Reading backwards is reading the reversed order forwards, then turning the rows round.
  const descending = desc !== backwards;
  const order = `ORDER BY ${key} ${descending ? 'DESC' : 'ASC'}, i.id ${descending ? 'DESC' : 'ASC'}`;
  const seek = cursor === null ? '' : `(${key}, i.id) ${descending ? '<' : '>'} (@cursor_key, @cursor_id)`;
  const where = seek === '' ? whereSql : whereSql === '' ? `WHERE ${seek}` : `${whereSql} AND ${seek}`;
  const rows = statement(db, `SELECT i.id, ${key} AS sort_key ${FROM} ${where} ${order} LIMIT @limit OFFSET @offset`).all({
    ...params,
    ...(cursor && { cursor_key: cursor.k, cursor_id: cursor.i }),
    limit: query.page_size + 1,
    offset: cursor === null ? (query.page - 1) * query.page_size : 0,
  }) as { id: number; sort_key: string | number }[];
  const more = rows.length > query.page_size;
  const page = rows.slice(0, query.page_size);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const at = (row: { id: number; sort_key: string | number }, d: Cursor['d']) => encodeCursor({ s: sort, k: row.sort_key, i: row.id, d });
  // Forwards, a page follows when an extra row was read; backwards, the cursor's own row follows.
  const hasNext = backwards ? true : more;
  const hasPrev = backwards ? more : cursor !== null || query.page > 1;
  return {
    items: summaries(db, page.map((row) => row.id), blind),
    assignments: assignmentsOf(db, page.map((row) => row.id)),
    total,
    next_cursor: hasNext && last ? at(last, 'after') : null,
    prev_cursor: hasPrev && first ? at(first, 'before') : null,
  };
}

/** Every item the filter matches, in id order: the ids a bulk action on the whole filter acts on. */
export function filteredItemIds(db: Db, filter: ItemFilter, viewerId?: number): number[] {
  const { sql: whereSql, params } = filterWhere(filter, viewerId);
  return (statement(db, `SELECT i.id ${FROM} ${whereSql} ORDER BY i.id`).all(params) as { id: number }[]).map((row) => row.id);
}

/** The assignment and retirement of those of these items that have either (review's tables, read for the list's Assigned column). */
export function assignmentsOf(db: Db, itemIds: readonly number[]): ItemAssignment[] {
  if (itemIds.length === 0) return [];
  const rows = statement(db,
    `SELECT ids.value AS item_id, u.username AS reviewer, q.name AS queue, EXISTS (SELECT 1 FROM retired_items ri WHERE ri.item_id = ids.value) AS retired
       FROM json_each(?) ids
       LEFT JOIN item_assignments a ON a.item_id = ids.value
       LEFT JOIN users u ON u.id = a.reviewer_id
       LEFT JOIN review_queues q ON q.id = a.queue_id
      WHERE a.item_id IS NOT NULL OR EXISTS (SELECT 1 FROM retired_items ri WHERE ri.item_id = ids.value)
      ORDER BY ids.value`,
  ).all(JSON.stringify(itemIds)) as { item_id: number; reviewer: string | null; queue: string | null; retired: number }[];
  return rows.map((row) => ({ ...row, retired: row.retired === 1 }));
}
