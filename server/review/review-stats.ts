import type { Db } from '../../db/database';
import type { ReviewStatsResponse } from '../../shared/api/review';
import { CRITERIA } from '../../shared/domain/review';
import { agreement } from '../../shared/review/agreement';

/** Review figures: the caller's own, and for curators the team's (pass rates, agreement, throughput). */

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const rate = (accepted: number, reviewed: number) => (reviewed === 0 ? null : (accepted / reviewed) * 100);

export function ownStats(db: Db, reviewerId: number): ReviewStatsResponse['me'] {
  const rows = db
    .prepare('SELECT decision, time_spent_ms, created_at FROM reviews WHERE reviewer_id = ? AND retracted_at IS NULL')
    .all(reviewerId) as { decision: string; time_spent_ms: number; created_at: string }[];
  const today = new Date().toISOString().slice(0, 10);
  return {
    reviews: rows.length,
    accepted: rows.filter((r) => r.decision === 'accept').length,
    rejected: rows.filter((r) => r.decision === 'reject').length,
    today: rows.filter((r) => r.created_at.startsWith(today)).length,
    median_seconds: median(rows.map((r) => r.time_spent_ms / 1000)),
  };
}

export function teamStats(db: Db): NonNullable<ReviewStatsResponse['team']> {
  const decided = db
    .prepare(
      `SELECT c.chart_type, i.proposal_id, p.text AS proposal_text, i.status FROM hqa_items i JOIN charts c ON c.id = i.chart_id
       LEFT JOIN proposals p ON p.id = i.proposal_id WHERE i.status IN ('accepted', 'rejected')`,
    )
    .all() as { chart_type: string; proposal_id: number | null; proposal_text: string | null; status: string }[];
  const group = (key: (r: (typeof decided)[number]) => string) => {
    const map = new Map<string, { reviewed: number; accepted: number }>();
    for (const row of decided) {
      const entry = map.get(key(row)) ?? { reviewed: 0, accepted: 0 };
      entry.reviewed++;
      if (row.status === 'accepted') entry.accepted++;
      map.set(key(row), entry);
    }
    return [...map.entries()].map(([k, v]) => ({ key: k, ...v, pass_rate: rate(v.accepted, v.reviewed) })).sort((a, b) => b.reviewed - a.reviewed);
  };
  const accepted = decided.filter((r) => r.status === 'accepted').length;

  const verdictRows = db
    .prepare(
      `SELECT item_id, rationality, correctness, layout FROM reviews WHERE retracted_at IS NULL
       AND item_id IN (SELECT item_id FROM reviews WHERE retracted_at IS NULL GROUP BY item_id HAVING COUNT(*) >= 2) ORDER BY item_id`,
    )
    .all() as { item_id: number; rationality: number; correctness: number; layout: number }[];
  const perItem = new Map<number, typeof verdictRows>();
  for (const row of verdictRows) perItem.set(row.item_id, [...(perItem.get(row.item_id) ?? []), row]);
  const byCriterion = Object.fromEntries(
    CRITERIA.map((criterion) => [criterion, agreement([...perItem.values()].map((rows) => rows.map((r) => r[criterion] === 1)))]),
  ) as NonNullable<ReviewStatsResponse['team']>['agreement'];

  const throughput = db
    .prepare("SELECT substr(created_at, 1, 10) AS day, COUNT(*) AS reviews FROM reviews WHERE retracted_at IS NULL GROUP BY day ORDER BY day DESC LIMIT 30")
    .all() as { day: string; reviews: number }[];
  const reviewerRows = db
    .prepare('SELECT u.username AS reviewer, r.time_spent_ms FROM reviews r JOIN users u ON u.id = r.reviewer_id WHERE r.retracted_at IS NULL')
    .all() as { reviewer: string; time_spent_ms: number }[];
  const byReviewer = new Map<string, number[]>();
  for (const row of reviewerRows) byReviewer.set(row.reviewer, [...(byReviewer.get(row.reviewer) ?? []), row.time_spent_ms / 1000]);

  return {
    pass_rate: rate(accepted, decided.length),
    decided: decided.length,
    by_chart_type: group((r) => r.chart_type),
    by_proposal: group((r) => (r.proposal_id === null ? 'hand-written' : `#${r.proposal_id} ${r.proposal_text ?? ''}`)).slice(0, 50),
    agreement: byCriterion,
    throughput: throughput.reverse(),
    by_reviewer: [...byReviewer.entries()].map(([reviewer, times]) => ({ reviewer, reviews: times.length, median_seconds: median(times) })),
  };
}
