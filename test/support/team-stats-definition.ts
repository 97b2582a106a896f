import type { Db } from '../../db/database';
import { CRITERIA } from '../../shared/domain/review';
import { agreement } from '../../shared/review/agreement';

/**
 * The team figures are counted in SQL (server/review/review-stats.ts). This is what they were
 * defined as before, computed from every decided item and every standing review in JavaScript:
 * the counts must stay the same on any data (test/integration/team-stats.test.ts), and
 * bench/review-stats.ts times both.
 */
export function teamStatsByDefinition(db: Db) {
  const decided = db
    .prepare(
      `SELECT c.chart_type, i.proposal_id, p.text AS proposal_text, i.status FROM hqa_items i JOIN charts c ON c.id = i.chart_id
       LEFT JOIN proposals p ON p.id = i.proposal_id WHERE i.status IN ('accepted', 'rejected')`,
    )
    .all() as { chart_type: string; proposal_id: number | null; proposal_text: string | null; status: string }[];
  const rate = (accepted: number, reviewed: number) => (reviewed === 0 ? null : (accepted / reviewed) * 100);
  const group = (key: (r: (typeof decided)[number]) => string) => {
    const map = new Map<string, { reviewed: number; accepted: number }>();
    for (const row of decided) {
      const entry = map.get(key(row)) ?? { reviewed: 0, accepted: 0 };
      entry.reviewed++;
      if (row.status === 'accepted') entry.accepted++;
      map.set(key(row), entry);
    }
    // Ties in name order, as the SQL version orders them (before, they came in scan order).
    return [...map.entries()]
      .map(([k, v]) => ({ key: k, ...v, pass_rate: rate(v.accepted, v.reviewed) }))
      .sort((a, b) => b.reviewed - a.reviewed || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  };
  const verdicts = db
    .prepare(
      `SELECT item_id, rationality, correctness, layout FROM reviews WHERE retracted_at IS NULL
       AND item_id IN (SELECT item_id FROM reviews WHERE retracted_at IS NULL GROUP BY item_id HAVING COUNT(*) >= 2) ORDER BY item_id`,
    )
    .all() as { item_id: number; rationality: number; correctness: number; layout: number }[];
  const perItem = new Map<number, typeof verdicts>();
  for (const row of verdicts) perItem.set(row.item_id, [...(perItem.get(row.item_id) ?? []), row]);
  const times = db
    .prepare('SELECT u.username AS reviewer, r.time_spent_ms FROM reviews r JOIN users u ON u.id = r.reviewer_id WHERE r.retracted_at IS NULL')
    .all() as { reviewer: string; time_spent_ms: number }[];
  const byReviewer = new Map<string, number[]>();
  for (const row of times) byReviewer.set(row.reviewer, [...(byReviewer.get(row.reviewer) ?? []), row.time_spent_ms / 1000]);
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  };
  return {
    pass_rate: rate(decided.filter((r) => r.status === 'accepted').length, decided.length),
    decided: decided.length,
    by_chart_type: group((r) => r.chart_type),
    by_proposal: group((r) => (r.proposal_id === null ? 'hand-written' : `#${r.proposal_id} ${r.proposal_text ?? ''}`)).slice(0, 50),
    agreement: Object.fromEntries(CRITERIA.map((c) => [c, agreement([...perItem.values()].map((rows) => rows.map((r) => r[c] === 1)))])),
    by_reviewer: [...byReviewer.entries()].map(([reviewer, ts]) => ({ reviewer, reviews: ts.length, median_seconds: median(ts) })),
  };
}
