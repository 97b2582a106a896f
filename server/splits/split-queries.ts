import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { SplitSummary } from '../../shared/api/splits';

/** All SQL of splits: what curators label and archive (migration 019), with each split's counts. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** A split is any name charts carry, plus any a curator has a row for. */
const SUMMARY = `
  SELECT n.name, s.label, s.archived_at,
    (SELECT COUNT(*) FROM charts c WHERE c.split = n.name) AS charts,
    (SELECT COUNT(*) FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.split = n.name) AS questions,
    (SELECT COUNT(*) FROM hqa_items i JOIN charts c ON c.id = i.chart_id WHERE c.split = n.name) AS items
  FROM (SELECT DISTINCT split AS name FROM charts UNION SELECT name FROM splits) n
  LEFT JOIN splits s ON s.name = n.name`;

export function listSplits(db: Db): SplitSummary[] {
  return statement(db, `${SUMMARY} ORDER BY n.name`).all() as SplitSummary[];
}

export function getSplit(db: Db, name: string): SplitSummary | null {
  return (statement(db, `${SUMMARY} WHERE n.name = ?`).get(name) as SplitSummary | undefined) ?? null;
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
