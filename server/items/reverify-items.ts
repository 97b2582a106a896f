import type { Db } from '../../db/database';
import type { ItemStatus } from '../../shared/domain/generation';
import { ChartWithoutTableError, getChartForRender } from '../charts/chart-queries';
import { isReadingNote, itemChecks, verifyStoredItem, withReadingNotes, type ItemChecks, type VerifySubject } from './item-service';
import { groupSubject, storedItemSubject } from './item-subject';
import type { VerifierResult } from '../../shared/table/verify';
import { getItemToReverify, listChartItemsToReverify, storeVerifierResult, type ItemToReverify } from './reverify-queries';

/**
 * Statuses whose review a changed answer makes void. A rejected item is out of the benchmark
 * whatever its answer, so it only gets the new verdict.
 */
const VOID_WHEN_CHANGED: readonly ItemStatus[] = ['pending', 'in_review', 'needs_adjudication', 'accepted'];

/** What verifying a chart's items again did: how many got a new verdict, and those whose review it made void. */
export interface ChartItemsReverified {
  reverified: number;
  /** Items pending, in review, to adjudicate or accepted whose recomputed answer changed: review sends them back to its queue. */
  changed: number[];
}

/**
 * Whether the recomputed answer is still the one stored before, by the verifier's own comparison
 * (asked, not copied, so both change together). Becoming computable or uncomputable is a change.
 */
function sameRecomputed(chart: VerifySubject, item: ItemToReverify, after: string | null, checks: ItemChecks): boolean {
  const before = item.recomputed_answer;
  if (before === null || after === null) return before === after;
  return verifyStoredItem(chart, { ...item, answer: before }, item.proposal_text, checks).match === true;
}

/**
 * Verifies every item of a chart again against the chart's stored table and type, storing each
 * new verdict; an item over a chart group the chart belongs to is verified again over the whole
 * group (any member's table change can change its answer). Returns the items whose recomputed
 * answer changed while their review stood or was to come (review's `reverifyChartItems` sends
 * them back to the queue). Call it inside the transaction that changed the chart.
 */
export function verifyChartItemsAgain(db: Db, chartId: number): ChartItemsReverified {
  const chart = getChartForRender(db, chartId);
  if (!chart) throw new Error(`chart ${chartId}: not found`);
  const single: VerifySubject = { chart, group: null };
  // Items over a group the chart is in read every member's table: one group read per group.
  const groups = new Map<number, VerifySubject | null>();
  const subjectOf = (groupId: number | null): VerifySubject | null => {
    if (groupId === null) return single;
    if (!groups.has(groupId)) groups.set(groupId, groupSubjectIfTabled(db, groupId));
    return groups.get(groupId) ?? null;
  };
  const items = listChartItemsToReverify(db, chartId);
  const checks = itemChecks(db);
  const changed: number[] = [];
  let reverified = 0;
  for (const item of items) {
    const subject = subjectOf(item.group_id);
    if (subject === null) continue;
    // The same verification as at creation, on the charts' new tables and types.
    const verifier = withReadingNotes(verifyStoredItem(subject, item, item.proposal_text, checks), item.stored_lint.filter(isReadingNote));
    storeVerifierResult(db, item.id, verifier);
    reverified += 1;
    if (VOID_WHEN_CHANGED.includes(item.status) && !sameRecomputed(subject, item, verifier.recomputed_answer, checks)) {
      changed.push(item.id);
    }
  }
  return { reverified, changed };
}

/**
 * A group whose every member has a table, or null: an item over a group with a member known
 * only by its image cannot be recomputed, so it keeps its last verdict (its table_state says
 * `none`) rather than failing the change of another member's table.
 */
function groupSubjectIfTabled(db: Db, groupId: number): VerifySubject | null {
  try {
    return groupSubject(db, groupId);
  } catch (error) {
    if (error instanceof ChartWithoutTableError) return null;
    throw error;
  }
}

/**
 * Verifies one item again as stored now (after a curator edited its assumption, question or
 * answer) and stores the new verdict, keeping its reading notes as a chart re-verification does.
 * Null when the item does not exist. Call it inside the transaction that changed the item.
 */
export function reverifyItem(db: Db, itemId: number): VerifierResult | null {
  const item = getItemToReverify(db, itemId);
  if (!item) return null;
  const subject = storedItemSubject(db, item.chart_id, item.group_id);
  const verifier = withReadingNotes(verifyStoredItem(subject, item, item.proposal_text, itemChecks(db)), item.stored_lint.filter(isReadingNote));
  storeVerifierResult(db, item.id, verifier);
  return verifier;
}
