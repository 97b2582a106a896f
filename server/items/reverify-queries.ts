import { z } from 'zod';
import type { Db } from '../../db/database';
import { parseJsonColumn, parseNullableJsonColumn } from '../../db/json-column';
import { statement } from '../../db/statements';
import { ItemStatusSchema, type ItemStatus } from '../../shared/domain/generation';
import { FindingSchema, type Finding } from '../../shared/table/lint';
import { AnswerRuleSchema, VerifierResultSchema, type AnswerRule, type VerifierResult } from '../../shared/table/verify';
import { sqlFlag, StoredEditSchema } from './item-queries';

/** The SQL of re-verifying a chart's items after its table changed. */

export interface ItemToReverify {
  id: number;
  status: ItemStatus;
  /** Untrusted JSON as stored; the verifier validates it. */
  edit: unknown;
  program: string;
  answer: string;
  assumption: string;
  /** The item's question (assumption first), for the verifier's reading checks. */
  question: string;
  /** The factual question it was made from: a same-question item's program should give its label. */
  factual: { query: string; label: string };
  proposal_text: string | null;
  /** The recomputed answer stored with the item's last verification. */
  recomputed_answer: string | null;
  /** The findings stored with it (those of a code this version no longer knows left out). */
  stored_lint: Finding[];
  /** The chart group its factual question spans; null for an item over one chart. */
  group_id: number | null;
  /** `precision` when the answer is a person's (a hand-written item, or an answer a curator edited): gold, compared at its own precision. */
  answerRule: AnswerRule;
}

// Only the fields used are read, so a stored result of any earlier shape still reads.
const StoredRecomputedSchema = VerifierResultSchema.pick({ recomputed_answer: true }).extend({ lint: z.array(z.unknown()).default([]) });

function knownFindings(lint: unknown[]): Finding[] {
  return lint.flatMap((entry) => {
    const finding = FindingSchema.safeParse(entry);
    return finding.success ? [finding.data] : [];
  });
}

type ReverifyRow = {
  id: number;
  chart_id: number;
  group_id: number | null;
  status: string;
  edit: string | null;
  program: string;
  answer: string;
  assumption: string;
  question: string;
  factual_query: string;
  factual_label: string;
  verifier: string;
  proposal_text: string | null;
  answer_rule: string;
};

/** A person's answer: a hand-written item's, or one a curator edited (item_edits, migration 018) — the same rule as answerRuleFor. */
const ANSWER_RULE = `CASE WHEN i.origin = 'human' OR EXISTS (SELECT 1 FROM item_edits e, json_each(e.changes) c
    WHERE e.item_id = i.id AND json_extract(c.value, '$.field') = 'answer') THEN 'precision' ELSE 'relaxed' END AS answer_rule`;

const REVERIFY_SELECT = `SELECT i.id, i.chart_id, q.group_id, i.status, i.edit, i.program, i.answer, i.assumption, i.question, q.query AS factual_query, q.label AS factual_label,
       i.verifier, p.text AS proposal_text, ${ANSWER_RULE}
       FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id LEFT JOIN proposals p ON p.id = i.proposal_id`;

function toItemToReverify(row: ReverifyRow): ItemToReverify {
  const stored = parseJsonColumn(StoredRecomputedSchema, row.verifier, { table: 'hqa_items', column: 'verifier', id: row.id });
  return {
    id: row.id,
    status: ItemStatusSchema.parse(row.status),
    edit: parseNullableJsonColumn(StoredEditSchema, row.edit, { table: 'hqa_items', column: 'edit', id: row.id }),
    program: row.program,
    answer: row.answer,
    assumption: row.assumption,
    question: row.question,
    factual: { query: row.factual_query, label: row.factual_label },
    proposal_text: row.proposal_text,
    recomputed_answer: stored.recomputed_answer,
    stored_lint: knownFindings(stored.lint),
    group_id: row.group_id,
    answerRule: AnswerRuleSchema.parse(row.answer_rule),
  };
}

/**
 * The items a change of the chart's table or type can change: those on the chart, and those
 * over a group it belongs to (an item over a group is stored on the group's first chart, but
 * its program reads every member's table).
 */
export function listChartItemsToReverify(db: Db, chartId: number): ItemToReverify[] {
  return (
    statement(db,
      `${REVERIFY_SELECT} WHERE i.chart_id = @chart
         OR q.group_id IN (SELECT m.group_id FROM chart_group_members m WHERE m.chart_id = @chart)
       ORDER BY i.id`,
    ).all({ chart: chartId }) as ReverifyRow[]
  ).map(toItemToReverify);
}

/** One item as re-verifying reads it (a curator's edit), with its chart's id. */
export function getItemToReverify(db: Db, itemId: number): (ItemToReverify & { chart_id: number }) | null {
  const row = statement(db, `${REVERIFY_SELECT} WHERE i.id = ?`).get(itemId) as ReverifyRow | undefined;
  return row ? { ...toItemToReverify(row), chart_id: row.chart_id } : null;
}


/** The new verdict, and the columns that copy parts of it for filtering. */
export function storeVerifierResult(db: Db, itemId: number, verifier: VerifierResult): void {
  statement(db,
    `UPDATE hqa_items SET verifier = @verifier, verifier_match = @match, answer_unchanged = @unchanged, proposal_consistent = @consistent,
      updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = @id`,
  ).run({
    verifier: JSON.stringify(verifier),
    match: sqlFlag(verifier.match),
    unchanged: sqlFlag(verifier.answer_unchanged),
    consistent: sqlFlag(verifier.proposal_consistent),
    id: itemId,
  });
}
