import type { Db } from '../../db/database';
import { hasExportableItems, reviewProgress, type ReviewProgress } from './export-queries';

/** Why there is nothing to export, in one line: no items, none reviewed, or none of the reviewed accepted. */
export function nothingToExport(progress: ReviewProgress): string {
  if (progress.items === 0) return 'no accepted items: no items yet (import a split and generate or write items)';
  if (progress.reviewed === 0) return `no accepted items: 0 of ${progress.items} items reviewed yet`;
  if (progress.accepted > 0) return `no accepted items: the ${progress.accepted} accepted were all retired from the dataset`;
  const outcomes = [`${progress.rejected} rejected`, ...(progress.adjudication > 0 ? [`${progress.adjudication} awaiting adjudication`] : [])];
  return `no accepted items: ${progress.reviewed} of ${progress.items} items reviewed, none accepted (${outcomes.join(', ')})`;
}

/**
 * Why an export would be empty, or null when it holds items: the one reason `hqa export` and
 * the Evaluation page's downloads give. An empty export is a mistake to explain, not a file to
 * write. The common case (accepted items exist) is one indexed lookup; the counts behind the
 * reason are read only when there is nothing.
 */
export function emptyExportRefusal(db: Db): string | null {
  return hasExportableItems(db) ? null : nothingToExport(reviewProgress(db));
}
