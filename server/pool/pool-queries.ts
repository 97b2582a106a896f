import type { Db } from '../../db/database';
import { containsPattern, whereClause } from '../../db/sql-filters';
import { statement } from '../../db/statements';
import { ProposalScopeSchema, type Proposal, type ProposalListQuery, type ProposalScope } from '../../shared/api/pool';
import { ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import {
  ProposalOriginSchema,
  ProposalStatusSchema,
  type ProposalOrigin,
  type ProposalStatus,
} from '../../shared/domain/generation';

import { proposalOperation } from '../../shared/generation/proposal-consistency';
import { extractOperation } from '../analytics/operations';

/** All SQL of the proposal pool. */

interface ProposalRow {
  id: number;
  chart_type: string;
  scope: string;
  text: string;
  origin: string;
  status: string;
  duplicate_of: number | null;
  similarity: number | null;
  run_id: number | null;
  round: number;
  parent_ids: string | null;
  child_ids: string | null;
  item_count: number;
  accepted_count: number;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `p.id, p.chart_type, p.scope, p.text, p.origin, p.status, p.duplicate_of, p.similarity, p.run_id, p.round, p.created_at, p.updated_at,
  (SELECT group_concat(parent_id) FROM proposal_parents WHERE proposal_id = p.id) AS parent_ids,
  (SELECT group_concat(proposal_id) FROM proposal_parents WHERE parent_id = p.id) AS child_ids,
  (SELECT COUNT(*) FROM hqa_items i WHERE i.proposal_id = p.id) AS item_count,
  (SELECT COUNT(*) FROM hqa_items i WHERE i.proposal_id = p.id AND i.status = 'accepted') AS accepted_count`;

const ids = (list: string | null): number[] => (list ? list.split(',').map(Number).sort((a, b) => a - b) : []);

function toProposal(row: ProposalRow): Proposal {
  return {
    id: row.id,
    chart_type: ChartTypeSchema.parse(row.chart_type),
    scope: ProposalScopeSchema.parse(row.scope),
    text: row.text,
    origin: ProposalOriginSchema.parse(row.origin),
    status: ProposalStatusSchema.parse(row.status),
    duplicate_of: row.duplicate_of,
    similarity: row.similarity,
    run_id: row.run_id,
    round: row.round,
    parent_ids: ids(row.parent_ids),
    child_ids: ids(row.child_ids),
    item_count: row.item_count,
    accepted_count: row.accepted_count,
    operation: { ...proposalOperation(row.text), verb_object: extractOperation(row.text) },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function getProposal(db: Db, id: number): Proposal | null {
  const row = statement(db, `SELECT ${COLUMNS} FROM proposals p WHERE p.id = ?`).get(id) as ProposalRow | undefined;
  return row ? toProposal(row) : null;
}

export function listProposals(db: Db, query: ProposalListQuery): { proposals: Proposal[]; total: number } {
  const { sql: whereSql, params } = whereClause([
    { sql: 'p.chart_type = @chart_type', param: 'chart_type', value: query.chart_type },
    { sql: 'p.origin = @origin', param: 'origin', value: query.origin },
    { sql: 'p.status = @status', param: 'status', value: query.status },
    { sql: 'p.scope = @scope', param: 'scope', value: query.scope },
    { sql: "p.text LIKE @q ESCAPE '\\'", param: 'q', value: containsPattern(query.q) },
  ]);
  const total = (statement(db, `SELECT COUNT(*) AS n FROM proposals p ${whereSql}`).get(params) as { n: number }).n;
  const rows = statement(db, `SELECT ${COLUMNS} FROM proposals p ${whereSql} ORDER BY p.chart_type, p.id LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: query.page_size, offset: (query.page - 1) * query.page_size }) as ProposalRow[];
  return { proposals: rows.map(toProposal), total };
}

export function proposalCounts(db: Db): { chart_type: ChartType; status: ProposalStatus; count: number }[] {
  const rows = statement(db, 'SELECT chart_type, status, COUNT(*) AS count FROM proposals GROUP BY chart_type, status ORDER BY chart_type, status').all() as {
    chart_type: string;
    status: string;
    count: number;
  }[];
  return rows.map((r) => ({ chart_type: ChartTypeSchema.parse(r.chart_type), status: ProposalStatusSchema.parse(r.status), count: r.count }));
}

/**
 * The proposals a new one is compared with for duplicates: everything of its chart type and
 * scope not itself a duplicate (a group proposal may say what a single-chart one says of one
 * chart: they pair with different questions, so neither stands in for the other).
 */
export function poolTexts(db: Db, chartType: ChartType, scope: ProposalScope = 'chart'): { id: number; text: string }[] {
  return statement(db, "SELECT id, text FROM proposals WHERE chart_type = ? AND scope = ? AND status != 'duplicate' ORDER BY id").all(chartType, scope) as {
    id: number;
    text: string;
  }[];
}

/** Active proposals of a chart type and scope (single-chart by default: what every caller meant before scopes). */
export function activeProposals(db: Db, chartType: ChartType, scope: ProposalScope = 'chart'): { id: number; text: string; origin: ProposalOrigin; round: number }[] {
  return (
    statement(db, "SELECT id, text, origin, round FROM proposals WHERE chart_type = ? AND scope = ? AND status = 'active' ORDER BY id").all(chartType, scope) as {
      id: number;
      text: string;
      origin: string;
      round: number;
    }[]
  ).map((r) => ({ ...r, origin: ProposalOriginSchema.parse(r.origin) }));
}

/** Active proposals of a chart type and scope, those with the fewest items first (the pool used evenly). */
export function activeProposalsByLoad(db: Db, chartType: ChartType, scope: ProposalScope = 'chart'): { id: number; text: string; items: number }[] {
  return statement(db,
      `SELECT p.id, p.text, (SELECT COUNT(*) FROM hqa_items i WHERE i.proposal_id = p.id) AS items
       FROM proposals p WHERE p.chart_type = ? AND p.scope = ? AND p.status = 'active' ORDER BY items, p.id`,
    )
    .all(chartType, scope) as { id: number; text: string; items: number }[];
}

export function countSeeds(db: Db, chartType: ChartType, scope: ProposalScope = 'chart'): number {
  return (statement(db, "SELECT COUNT(*) AS n FROM proposals WHERE chart_type = ? AND scope = ? AND origin = 'seed'").get(chartType, scope) as { n: number }).n;
}

/** The distinct chart types of every chart group's members: the types group seeds are entered for. */
export function groupMemberChartTypes(db: Db): string[] {
  return (statement(db, 'SELECT DISTINCT c.chart_type FROM chart_group_members m JOIN charts c ON c.id = m.chart_id ORDER BY c.chart_type').all() as { chart_type: string }[]).map((row) => row.chart_type);
}

export function maxPoolRound(db: Db): number {
  return (statement(db, "SELECT COALESCE(MAX(round), 0) AS r FROM proposals WHERE status = 'active'").get() as { r: number }).r;
}

export interface ProposalInsert {
  chart_type: ChartType;
  /** 'chart' when left out. */
  scope?: ProposalScope;
  text: string;
  origin: ProposalOrigin;
  status: ProposalStatus;
  duplicate_of?: number | null;
  similarity?: number | null;
  run_id?: number | null;
  round?: number;
  created_by?: number | null;
  parent_ids?: number[];
}

export function insertProposal(db: Db, p: ProposalInsert): number {
  const id = Number(
    statement(db,
        `INSERT INTO proposals (chart_type, scope, text, origin, status, duplicate_of, similarity, run_id, round, created_by)
         VALUES (@chart_type, @scope, @text, @origin, @status, @duplicate_of, @similarity, @run_id, @round, @created_by)`,
      )
      .run({
        chart_type: p.chart_type,
        scope: p.scope ?? 'chart',
        text: p.text,
        origin: p.origin,
        status: p.status,
        duplicate_of: p.duplicate_of ?? null,
        similarity: p.similarity ?? null,
        run_id: p.run_id ?? null,
        round: p.round ?? 0,
        created_by: p.created_by ?? null,
      }).lastInsertRowid,
  );
  const link = statement(db, 'INSERT OR IGNORE INTO proposal_parents (proposal_id, parent_id) VALUES (?, ?)');
  for (const parent of p.parent_ids ?? []) link.run(id, parent);
  return id;
}

export function updateProposal(db: Db, id: number, change: { text?: string; status?: ProposalStatus }): boolean {
  const result = statement(db,
      `UPDATE proposals SET text = COALESCE(@text, text), status = COALESCE(@status, status),
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = @id`,
    )
    .run({ id, text: change.text ?? null, status: change.status ?? null });
  return result.changes > 0;
}
