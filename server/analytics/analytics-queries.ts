import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import { ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import {
  ItemOriginSchema,
  ProposalOriginSchema,
  ProposalStatusSchema,
  type ItemOrigin,
  type ProposalOrigin,
  type ProposalStatus,
} from '../../shared/domain/generation';
import { AnswerTypeSchema, type AnswerType } from '../../shared/table/answers';
import { speaksForProposal } from '../items/item-queries';

/** All SQL of the analytics domain: read-only aggregates over the pool, items, reviews and costs. */

/** Decided and accepted counts, as every pass-rate query selects them. */
const TALLY = `SUM(i.status IN ('accepted', 'rejected')) AS decided, SUM(i.status = 'accepted') AS accepted`;
/**
 * A proposal's pass rate counts only the items that speak for it: ones that did what it says
 * (an item whose edit performs another operation judges that operation, not the proposal) and
 * that are not a reviewer's own.
 */
const PROPOSAL_TALLY = `SUM(i.status IN ('accepted', 'rejected') AND ${speaksForProposal('i')}) AS decided,
  SUM(i.status = 'accepted' AND ${speaksForProposal('i')}) AS accepted`;

export interface Tally {
  decided: number;
  accepted: number;
}

/** SUM over no rows is NULL in SQLite. */
const tally = (row: { decided: number | null; accepted: number | null }): Tally => ({ decided: row.decided ?? 0, accepted: row.accepted ?? 0 });

export function proposalCreationsByDay(db: Db): { day: string; origin: ProposalOrigin; count: number }[] {
  const rows = statement(db,
      `SELECT substr(created_at, 1, 10) AS day, origin, COUNT(*) AS count FROM proposals
       WHERE status != 'duplicate' GROUP BY day, origin ORDER BY day, origin`,
    )
    .all() as { day: string; origin: string; count: number }[];
  return rows.map((r) => ({ ...r, origin: ProposalOriginSchema.parse(r.origin) }));
}

export function overallTally(db: Db): Tally {
  return tally(statement(db, `SELECT ${TALLY} FROM hqa_items i`).get() as { decided: number | null; accepted: number | null });
}

export function tallyByChartType(db: Db): (Tally & { chart_type: ChartType })[] {
  const rows = statement(db, `SELECT c.chart_type, ${TALLY} FROM hqa_items i JOIN charts c ON c.id = i.chart_id GROUP BY c.chart_type ORDER BY c.chart_type`)
    .all() as { chart_type: string; decided: number | null; accepted: number | null }[];
  return rows.map((r) => ({ chart_type: ChartTypeSchema.parse(r.chart_type), ...tally(r) }));
}

export function tallyByRound(db: Db): (Tally & { round: number })[] {
  const rows = statement(db, `SELECT p.round, ${PROPOSAL_TALLY} FROM hqa_items i JOIN proposals p ON p.id = i.proposal_id GROUP BY p.round ORDER BY p.round`)
    .all() as { round: number; decided: number | null; accepted: number | null }[];
  return rows.map((r) => ({ round: r.round, ...tally(r) }));
}

export interface ProposalStatsRow extends Tally {
  id: number;
  chart_type: ChartType;
  text: string;
  origin: ProposalOrigin;
  status: ProposalStatus;
  round: number;
  items: number;
}

interface RawProposalStats {
  id: number;
  chart_type: string;
  text: string;
  origin: string;
  status: string;
  round: number;
  items: number;
  decided: number | null;
  accepted: number | null;
}

const toProposalStats = (r: RawProposalStats): ProposalStatsRow => ({
  id: r.id,
  chart_type: ChartTypeSchema.parse(r.chart_type),
  text: r.text,
  origin: ProposalOriginSchema.parse(r.origin),
  status: ProposalStatusSchema.parse(r.status),
  round: r.round,
  items: r.items,
  ...tally(r),
});

const PROPOSAL_STATS = `SELECT p.id, p.chart_type, p.text, p.origin, p.status, p.round, COUNT(i.id) AS items, ${PROPOSAL_TALLY}
  FROM proposals p LEFT JOIN hqa_items i ON i.proposal_id = p.id`;

/** Proposals that have items, with their items' tally. */
export function proposalsWithItems(db: Db): ProposalStatsRow[] {
  return (statement(db, `${PROPOSAL_STATS} GROUP BY p.id HAVING COUNT(i.id) > 0 ORDER BY p.id`).all() as RawProposalStats[]).map(toProposalStats);
}

/** Proposals in the pool or once in it: what operation diversity counts. */
export function poolProposals(db: Db, statuses: readonly ProposalStatus[]): { id: number; chart_type: ChartType; text: string }[] {
  const rows = statement(db, 'SELECT id, chart_type, text FROM proposals WHERE status IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify(statuses)) as { id: number; chart_type: string; text: string }[];
  return rows.map((r) => ({ ...r, chart_type: ChartTypeSchema.parse(r.chart_type) }));
}

/** A proposal's ancestors (up to the roots) and descendants, each set without the proposal itself. */
export function lineageIds(db: Db, proposalId: number): { ancestors: number[]; descendants: number[] } {
  const ids = (sql: string) => (statement(db, sql).all(proposalId) as { id: number }[]).map((r) => r.id);
  return {
    ancestors: ids(`WITH RECURSIVE up(id) AS (
        SELECT parent_id FROM proposal_parents WHERE proposal_id = ?
        UNION SELECT pp.parent_id FROM proposal_parents pp JOIN up ON pp.proposal_id = up.id)
      SELECT id FROM up ORDER BY id`),
    descendants: ids(`WITH RECURSIVE down(id) AS (
        SELECT proposal_id FROM proposal_parents WHERE parent_id = ?
        UNION SELECT pp.proposal_id FROM proposal_parents pp JOIN down ON pp.parent_id = down.id)
      SELECT id FROM down ORDER BY id`),
  };
}

export function proposalStatsFor(db: Db, ids: readonly number[]): ProposalStatsRow[] {
  return (
    statement(db, `${PROPOSAL_STATS} WHERE p.id IN (SELECT value FROM json_each(?)) GROUP BY p.id ORDER BY p.id`).all(JSON.stringify(ids)) as RawProposalStats[]
  ).map(toProposalStats);
}

/** Parent links with both ends among `ids`. */
export function parentLinksWithin(db: Db, ids: readonly number[]): { proposal_id: number; parent_id: number }[] {
  const list = JSON.stringify(ids);
  return statement(db,
      `SELECT proposal_id, parent_id FROM proposal_parents
       WHERE proposal_id IN (SELECT value FROM json_each(@list)) AND parent_id IN (SELECT value FROM json_each(@list))
       ORDER BY proposal_id, parent_id`,
    )
    .all({ list }) as { proposal_id: number; parent_id: number }[];
}

/** One item with what the ablation needs: its origin, proposal, decision and its reviews' sums. */
export interface AblationItemRow {
  id: number;
  origin: ItemOrigin;
  status: string;
  run_id: number | null;
  assumption: string;
  proposal_id: number | null;
  proposal_text: string | null;
  proposal_origin: ProposalOrigin | null;
  proposal_round: number | null;
  /** Standing reviews and how many passed each criterion. */
  reviews: number;
  rationality_passed: number;
  layout_passed: number;
  complexity_sum: number;
  complexity_rated: number;
  /** Time of every review, retracted ones included. */
  review_ms: number;
}

export function ablationItems(db: Db): AblationItemRow[] {
  const rows = statement(db,
      `SELECT i.id, i.origin, i.status, i.run_id, i.assumption, i.proposal_id, p.text AS proposal_text, p.origin AS proposal_origin,
         p.round AS proposal_round, COALESCE(r.reviews, 0) AS reviews, COALESCE(r.rationality, 0) AS rationality_passed,
         COALESCE(r.layout, 0) AS layout_passed, COALESCE(r.complexity_sum, 0) AS complexity_sum, COALESCE(r.complexity_rated, 0) AS complexity_rated,
         COALESCE(t.ms, 0) AS review_ms
       FROM hqa_items i
       LEFT JOIN proposals p ON p.id = i.proposal_id
       LEFT JOIN (SELECT item_id, COUNT(*) AS reviews, SUM(rationality) AS rationality, SUM(layout) AS layout,
           SUM(complexity) AS complexity_sum, COUNT(complexity) AS complexity_rated
         FROM reviews WHERE retracted_at IS NULL GROUP BY item_id) r ON r.item_id = i.id
       LEFT JOIN (SELECT item_id, SUM(time_spent_ms) AS ms FROM reviews GROUP BY item_id) t ON t.item_id = i.id
       ORDER BY i.id`,
    )
    .all() as (Omit<AblationItemRow, 'origin' | 'proposal_origin'> & { origin: string; proposal_origin: string | null })[];
  return rows.map((r) => ({
    ...r,
    origin: ItemOriginSchema.parse(r.origin),
    proposal_origin: r.proposal_origin === null ? null : ProposalOriginSchema.parse(r.proposal_origin),
  }));
}

/** Per run: the LLM cost its call records add up to, and how many items it created. */
export function runCosts(db: Db): Map<number, { cost: number; items_created: number }> {
  const rows = statement(db,
      `SELECT r.id, r.items_created, COALESCE((SELECT SUM(l.cost) FROM llm_calls l WHERE l.run_id = r.id), 0) AS cost FROM runs r`,
    )
    .all() as { id: number; items_created: number; cost: number }[];
  return new Map(rows.map((r) => [r.id, { cost: r.cost, items_created: r.items_created }]));
}

/** Per revised proposal: the cost of the reflection calls that wrote it. */
export function reflectionCosts(db: Db): Map<number, number> {
  const rows = statement(db, 'SELECT revised_proposal_id AS id, SUM(cost) AS cost FROM reflections WHERE revised_proposal_id IS NOT NULL GROUP BY revised_proposal_id')
    .all() as { id: number; cost: number }[];
  return new Map(rows.map((r) => [r.id, r.cost]));
}

export interface AcceptedItemRow {
  chart_type: ChartType;
  answer_type: AnswerType;
  affects_answer: boolean;
  proposal_text: string | null;
  assumption: string;
}

export function acceptedItems(db: Db): AcceptedItemRow[] {
  const rows = statement(db,
      `SELECT c.chart_type, i.answer_type, i.affects_answer, p.text AS proposal_text, i.assumption
       FROM hqa_items i JOIN charts c ON c.id = i.chart_id LEFT JOIN proposals p ON p.id = i.proposal_id
       WHERE i.status = 'accepted' ORDER BY i.id`,
    )
    .all() as { chart_type: string; answer_type: string; affects_answer: number; proposal_text: string | null; assumption: string }[];
  return rows.map((r) => ({
    chart_type: ChartTypeSchema.parse(r.chart_type),
    answer_type: AnswerTypeSchema.parse(r.answer_type),
    affects_answer: r.affects_answer === 1,
    proposal_text: r.proposal_text,
    assumption: r.assumption,
  }));
}
