import type { Db } from '../../db/database';
import type { ReviewStatsResponse } from '../../shared/api/review';
import { CRITERIA } from '../../shared/domain/review';
import { agreementOfCounts } from '../../shared/review/agreement';
import { listOwnGoldReviews } from './gold-queries';
import {
  countDecidedByChartType,
  countDecidedByProposal,
  countVerdictsOfMultiplyReviewed,
  listDailyReviewCounts,
  listOwnReviews,
  listReviewTimes,
  type DecidedCount,
} from './review-stats-queries';

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

/** Per reviewer, in the order of their first standing review: how many, and the median seconds spent on one. */
function reviewerTimes(db: Db): NonNullable<ReviewStatsResponse['team']>['by_reviewer'] {
  const byReviewer = new Map<string, number[]>();
  for (const row of listReviewTimes(db)) {
    const times = byReviewer.get(row.reviewer);
    if (times) times.push(row.time_spent_ms / 1000);
    else byReviewer.set(row.reviewer, [row.time_spent_ms / 1000]);
  }
  return [...byReviewer].map(([reviewer, times]) => ({ reviewer, reviews: times.length, median_seconds: median(times) }));
}

/** Groups by how many were decided, most first (ties by name), with their pass rates. */
function rates(groups: readonly (DecidedCount & { key: string })[]) {
  return groups
    .map(({ key, reviewed, accepted }) => ({ key, reviewed, accepted, pass_rate: rate(accepted, reviewed) }))
    .sort((a, b) => b.reviewed - a.reviewed || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The team's figures, counted in SQL. Curators' stats pages refetch them on every decision, on
 * the thread that answers every reviewer: loading every decided item and every review into
 * JavaScript took 450 ms at 30,000 decided items (bench/review-stats.ts), during which no claim
 * was answered.
 */
export function teamStats(db: Db): NonNullable<ReviewStatsResponse['team']> {
  const byChartType = countDecidedByChartType(db);
  const decided = byChartType.reduce((sum, group) => sum + group.reviewed, 0);
  const accepted = byChartType.reduce((sum, group) => sum + group.accepted, 0);
  const byProposal = countDecidedByProposal(db).map((group) => ({
    ...group,
    key: group.proposal_id === null ? 'hand-written' : `#${group.proposal_id} ${group.proposal_text ?? ''}`,
  }));
  const verdicts = countVerdictsOfMultiplyReviewed(db);
  const byCriterion = Object.fromEntries(
    CRITERIA.map((criterion) => [criterion, agreementOfCounts(verdicts.map((item) => ({ reviews: item.reviews, passes: item[criterion] })))]),
  ) as NonNullable<ReviewStatsResponse['team']>['agreement'];

  return {
    pass_rate: rate(accepted, decided),
    decided,
    by_chart_type: rates(byChartType.map((group) => ({ ...group, key: group.chart_type }))),
    by_proposal: rates(byProposal).slice(0, 50),
    agreement: byCriterion,
    throughput: listDailyReviewCounts(db).reverse(),
    by_reviewer: reviewerTimes(db),
  };
}
