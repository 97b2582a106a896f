import type { Db } from '../../db/database';
import type { ReviewStatsResponse } from '../../shared/api/review';
import { CRITERIA } from '../../shared/domain/review';
import { agreement } from '../../shared/review/agreement';
import { listOwnGoldReviews } from './gold-queries';
import { listDailyReviewCounts, listDecidedItems, listOwnReviews, listReviewTimes, listVerdictsOfMultiplyReviewed } from './review-stats-queries';

/** Review figures: the caller's own, and for curators the team's (pass rates, agreement, throughput). */

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const rate = (accepted: number, reviewed: number) => (reviewed === 0 ? null : (accepted / reviewed) * 100);

export function ownStats(db: Db, reviewerId: number): ReviewStatsResponse['me'] {
  // Gold reviews count among the reviewer's own: a count that stood still would give gold away.
  const rows = [...listOwnReviews(db, reviewerId), ...listOwnGoldReviews(db, reviewerId)];
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
  const decided = listDecidedItems(db);
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

  const verdictRows = listVerdictsOfMultiplyReviewed(db);
  const perItem = new Map<number, typeof verdictRows>();
  for (const row of verdictRows) perItem.set(row.item_id, [...(perItem.get(row.item_id) ?? []), row]);
  const byCriterion = Object.fromEntries(
    CRITERIA.map((criterion) => [criterion, agreement([...perItem.values()].map((rows) => rows.map((r) => r[criterion] === 1)))]),
  ) as NonNullable<ReviewStatsResponse['team']>['agreement'];

  const throughput = listDailyReviewCounts(db);
  const reviewerRows = listReviewTimes(db);
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
