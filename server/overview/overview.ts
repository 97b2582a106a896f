import type { Db } from '../../db/database';
import type { OverviewResponse } from '../../shared/api/overview';
import { nowIso } from '../review/review-queries';
import { shownStatusCounts } from '../review/shown-status-counts';
import { countSetup, countUnfinishedRuns } from './overview-queries';

/** The curator's landing figures, from the kept status counts and the unfinished runs: no scan of the items. */
export function projectOverview(db: Db): OverviewResponse {
  const counts = shownStatusCounts(db, nowIso());
  const runs = countUnfinishedRuns(db);
  const decided = counts.accepted + counts.rejected;
  const items = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return {
    setup: { ...countSetup(db), items },
    queue: { pending: counts.pending, in_review: counts.in_review, total: counts.pending + counts.in_review },
    decided: { accepted: counts.accepted, rejected: counts.rejected },
    pass_rate: decided === 0 ? null : (counts.accepted / decided) * 100,
    runs_in_progress: runs.in_progress,
    runs_paused: runs.paused,
    awaiting_adjudication: counts.needs_adjudication,
  };
}
