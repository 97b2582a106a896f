import { z } from 'zod';
import type { Db } from '../../db/database';
import { parseJsonColumn } from '../../db/json-column';
import { statement } from '../../db/statements';
import { FeedbackEntrySchema, type FeedbackEntry, type Reflection } from '../../shared/api/reflection';
import type { Criterion } from '../../shared/domain/review';
import { speaksForProposal } from '../items/item-queries';
import { blindParams, notBlindSql, type BlindViewer } from '../items/blind-view-queries';

/** All SQL of reflection: the feedback a proposal gathered, and the reflections made from it. */

interface FeedbackRow {
  item_id: number;
  question: string;
  decision: 'accept' | 'reject';
  rationality: number;
  correctness: number;
  layout: number;
  rationality_note: string;
  correctness_note: string;
  layout_note: string;
  feedback: string;
  corrected_answer: string | null;
}

/** Items whose reviews are settled: until then they stay blind to other reviewers, and are no decision to reflect on. */
const DECIDED = "('accepted', 'rejected')";

/**
 * Every standing review of the proposal's decided items that speak for it (an item performing
 * another operation says nothing about this one; a reviewer's own items do not count): what
 * reflection answers. Items still in review are left out: their reviews are not a decision yet,
 * and whatever a reflection quotes, every reviewer may read. To a reviewer (`viewer`), the items
 * blind to them are left out too: those decided with their verdict and others', and gold items
 * (whose accepted review is the gold verdict they would be calibrated against).
 */
export function proposalFeedback(db: Db, proposalId: number, viewer: BlindViewer | null = null, limit = 40): FeedbackEntry[] {
  const rows = statement(db,
      `SELECT i.id AS item_id, i.question, r.decision, r.rationality, r.correctness, r.layout, r.rationality_note, r.correctness_note,
        r.layout_note, r.feedback, r.corrected_answer
       FROM reviews r JOIN hqa_items i ON i.id = r.item_id
       WHERE i.proposal_id = @proposal AND r.retracted_at IS NULL AND i.status IN ${DECIDED} AND ${speaksForProposal('i')}
         ${viewer === null ? '' : `AND ${notBlindSql('i')}`}
       ORDER BY r.id DESC LIMIT @limit`,
    )
    .all({ proposal: proposalId, limit, ...(viewer === null ? {} : blindParams(viewer)) }) as FeedbackRow[];
  return rows.map((row) => {
    const failed = (['rationality', 'correctness', 'layout'] as Criterion[]).filter((c) => row[c] === 0);
    const notes = [row.rationality_note, row.correctness_note, row.layout_note].filter((n) => n.trim() !== '').join('; ');
    return {
      item_id: row.item_id,
      question: row.question,
      decision: row.decision,
      failed,
      notes,
      comment: row.feedback,
      correction: row.corrected_answer ?? '',
    };
  });
}

export function decisionCounts(db: Db, proposalId: number): { decided: number; accepted: number; reflected: number } {
  return statement(db,
      `SELECT (SELECT COUNT(*) FROM hqa_items i WHERE i.proposal_id = @id AND i.status IN ${DECIDED} AND ${speaksForProposal('i')}) AS decided,
        (SELECT COUNT(*) FROM hqa_items i WHERE i.proposal_id = @id AND i.status = 'accepted' AND ${speaksForProposal('i')}) AS accepted,
        (SELECT reflected_decisions FROM proposals WHERE id = @id) AS reflected`,
    )
    .get({ id: proposalId }) as { decided: number; accepted: number; reflected: number };
}

/** The proposal the item speaks for (see speaksForProposal), or null: what its decision may retire or revise. */
export function proposalSpokenFor(db: Db, itemId: number): number | null {
  const row = statement(db, `SELECT i.proposal_id FROM hqa_items i WHERE i.id = ? AND ${speaksForProposal('i')}`).get(itemId) as
    | { proposal_id: number | null }
    | undefined;
  return row?.proposal_id ?? null;
}

/** Of these items, the ones not decided now (pending, in review, awaiting adjudication). */
export function undecidedItemIds(db: Db, itemIds: readonly number[]): Set<number> {
  const rows = statement(db, `SELECT id FROM hqa_items WHERE id IN (SELECT value FROM json_each(?)) AND status NOT IN ${DECIDED}`)
    .all(JSON.stringify(itemIds)) as { id: number }[];
  return new Set(rows.map((r) => r.id));
}

export function setReflectedDecisions(db: Db, proposalId: number, decided: number): void {
  statement(db, 'UPDATE proposals SET reflected_decisions = ? WHERE id = ?').run(decided, proposalId);
}

export interface ReflectionInsert {
  proposalId: number;
  revisedId: number | null;
  trigger: 'auto' | 'manual';
  engine: string;
  model: string;
  feedback: FeedbackEntry[];
  addressed: string | null;
  status: 'done' | 'duplicate' | 'failed';
  error: string | null;
  usage: { prompt_tokens: number; completion_tokens: number; cost: number };
  createdBy: number | null;
}

export function insertReflection(db: Db, r: ReflectionInsert): number {
  return Number(
    statement(db,
        `INSERT INTO reflections (proposal_id, revised_proposal_id, trigger, engine, model, feedback, addressed, status, error,
          prompt_tokens, completion_tokens, cost, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.proposalId,
        r.revisedId,
        r.trigger,
        r.engine,
        r.model,
        JSON.stringify(r.feedback),
        r.addressed,
        r.status,
        r.error,
        r.usage.prompt_tokens,
        r.usage.completion_tokens,
        r.usage.cost,
        r.createdBy,
      ).lastInsertRowid,
  );
}

interface ReflectionRow extends Omit<Reflection, 'feedback'> {
  feedback: string;
}

const FeedbackListSchema = z.array(FeedbackEntrySchema);

const toReflection = (row: ReflectionRow): Reflection => ({
  ...row,
  feedback: parseJsonColumn(FeedbackListSchema, row.feedback, { table: 'reflections', column: 'feedback', id: row.id }),
});

export function listReflections(db: Db, proposalId: number): Reflection[] {
  const rows = statement(db,
      `SELECT id, proposal_id, revised_proposal_id, trigger, engine, model, feedback, addressed, status, error, created_at
       FROM reflections WHERE proposal_id = ? ORDER BY id DESC`,
    )
    .all(proposalId) as ReflectionRow[];
  return rows.map(toReflection);
}

export function getReflection(db: Db, id: number): Reflection | null {
  const row = statement(db,
      `SELECT id, proposal_id, revised_proposal_id, trigger, engine, model, feedback, addressed, status, error, created_at
       FROM reflections WHERE id = ?`,
    )
    .get(id) as ReflectionRow | undefined;
  return row ? toReflection(row) : null;
}

/**
 * Active proposals with at least `minDecisions` decided (consistent) items, some of them decided
 * since their last reflection, oldest first.
 */
export function proposalsWithNewDecisions(db: Db, chartType: string | undefined, minDecisions: number): number[] {
  return (
    statement(db,
        `SELECT id FROM (
           SELECT p.id, p.reflected_decisions AS reflected,
             (SELECT COUNT(*) FROM hqa_items i WHERE i.proposal_id = p.id AND i.status IN ${DECIDED} AND ${speaksForProposal('i')}) AS decided
           FROM proposals p WHERE p.status = 'active' AND (@chart_type IS NULL OR p.chart_type = @chart_type))
         WHERE decided > reflected AND decided >= @min ORDER BY id`,
      )
      .all({ chart_type: chartType ?? null, min: minDecisions }) as { id: number }[]
  ).map((r) => r.id);
}
