import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { SplitSummary } from '../../shared/api/splits';

/** All SQL of splits: what curators label and archive (migration 019), with each split's counts. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/**
 * What was made from a split's charts and questions: items, run tasks, model calls about its
 * charts, and extraction or chart-type job tasks. A split none of these point at can be deleted
 * (its charts and questions decided nothing yet); any other is archived instead.
 */
const DEPENDENTS = (split: string) => `
    (SELECT COUNT(*) FROM hqa_items i JOIN charts c ON c.id = i.chart_id WHERE c.split = ${split}) AS items,
    (SELECT COUNT(*) FROM run_tasks t JOIN factual_qas q ON q.id = t.qa_id JOIN charts c ON c.id = q.chart_id WHERE c.split = ${split}) AS run_tasks,
    (SELECT COUNT(*) FROM llm_calls l JOIN charts c ON c.id = l.chart_id WHERE c.split = ${split}) AS model_calls,
    (SELECT COUNT(*) FROM extraction_tasks e JOIN charts c ON c.id = e.chart_id WHERE c.split = ${split})
      + (SELECT COUNT(*) FROM chart_type_tasks k JOIN charts c ON c.id = k.chart_id WHERE c.split = ${split}) AS job_tasks`;

/** A split is any name charts carry, plus any a curator has a row for. */
const SUMMARY = `
  SELECT n.name, s.label, s.archived_at,
    (SELECT COUNT(*) FROM charts c WHERE c.split = n.name) AS charts,
    (SELECT COUNT(*) FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.split = n.name) AS questions,
    (SELECT COUNT(*) FROM hqa_items i JOIN charts c ON c.id = i.chart_id WHERE c.split = n.name) AS items,
    NOT EXISTS (SELECT 1 FROM run_tasks t JOIN factual_qas q ON q.id = t.qa_id JOIN charts c ON c.id = q.chart_id WHERE c.split = n.name)
      AND NOT EXISTS (SELECT 1 FROM hqa_items i JOIN charts c ON c.id = i.chart_id WHERE c.split = n.name)
      AND NOT EXISTS (SELECT 1 FROM llm_calls l JOIN charts c ON c.id = l.chart_id WHERE c.split = n.name)
      AND NOT EXISTS (SELECT 1 FROM extraction_tasks e JOIN charts c ON c.id = e.chart_id WHERE c.split = n.name)
      AND NOT EXISTS (SELECT 1 FROM chart_type_tasks k JOIN charts c ON c.id = k.chart_id WHERE c.split = n.name) AS deletable
  FROM (SELECT DISTINCT split AS name FROM charts UNION SELECT name FROM splits) n
  LEFT JOIN splits s ON s.name = n.name`;

type SummaryRow = Omit<SplitSummary, 'deletable'> & { deletable: number };

const toSummary = ({ deletable, ...row }: SummaryRow): SplitSummary => ({ ...row, deletable: deletable === 1 });

export function listSplits(db: Db): SplitSummary[] {
  return (statement(db, `${SUMMARY} ORDER BY n.name`).all() as SummaryRow[]).map(toSummary);
}

export function getSplit(db: Db, name: string): SplitSummary | null {
  const row = statement(db, `${SUMMARY} WHERE n.name = ?`).get(name) as SummaryRow | undefined;
  return row ? toSummary(row) : null;
}

export interface SplitDependents {
  items: number;
  run_tasks: number;
  model_calls: number;
  job_tasks: number;
}

export function splitDependents(db: Db, name: string): SplitDependents {
  return statement(db, `SELECT ${DEPENDENTS('@name')}`).get({ name }) as SplitDependents;
}

/**
 * Deletes a split's charts with their images, questions and chart groups, and the curator's row
 * for it; the caller checked `splitDependents` in the same transaction. Returns what went.
 */
export function deleteSplitRows(db: Db, name: string): { charts: number; questions: number; groups: number } {
  const charts = 'SELECT id FROM charts WHERE split = @name';
  statement(db, `DELETE FROM chart_group_members WHERE chart_id IN (${charts}) OR group_id IN (SELECT id FROM chart_groups WHERE split = @name)`).run({ name });
  // Questions first: a group question names its group.
  const questions = statement(db, `DELETE FROM factual_qas WHERE chart_id IN (${charts})`).run({ name }).changes;
  const groups = statement(db, 'DELETE FROM chart_groups WHERE split = @name').run({ name }).changes;
  statement(db, `DELETE FROM chart_images WHERE chart_id IN (${charts})`).run({ name });
  const deleted = statement(db, 'DELETE FROM charts WHERE split = @name').run({ name }).changes;
  statement(db, 'DELETE FROM splits WHERE name = @name').run({ name });
  return { charts: deleted, questions, groups };
}

export function setSplitLabel(db: Db, name: string, label: string | null): void {
  statement(db, `INSERT INTO splits (name, label) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET label = excluded.label, updated_at = ${NOW}`).run(name, label);
}

/** Archives (keeping the first archive time) or brings a split back. */
export function setSplitArchived(db: Db, name: string, archived: boolean, userId: number): void {
  statement(db,
    `INSERT INTO splits (name, archived_at, archived_by) VALUES (@name, CASE WHEN @archived THEN ${NOW} END, CASE WHEN @archived THEN @user END)
     ON CONFLICT (name) DO UPDATE SET
       archived_at = CASE WHEN @archived THEN COALESCE(archived_at, ${NOW}) END,
       archived_by = CASE WHEN @archived THEN COALESCE(archived_by, @user) END,
       updated_at = ${NOW}`,
  ).run({ name, archived: archived ? 1 : 0, user: userId });
}
