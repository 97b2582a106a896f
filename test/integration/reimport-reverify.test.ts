import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { ImportReportSchema } from '../../shared/api/import';
import { SubmitReviewRequestSchema } from '../../shared/api/review';
import { ChartHqaExportV1Schema } from '../../shared/export/chart-hqa';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { formatSummary } from '../../server/cli/import-command';
import { writeExport } from '../../server/export/export-writer';
import { importSplit } from '../../server/import/import-split';
import { getItemDetail } from '../../server/items/item-queries';
import { createVerifiedItem } from '../../server/items/item-service';
import { claimNext, submitReview } from '../../server/review/review-service';
import { createUser } from '../../server/users/user-service';
import { runCli } from '../support/cli';
import { CHARTQA_SAMPLE } from '../support/paths';
import { acceptReview, rejectReview } from '../support/review-fixtures';
import { HUMAN_ITEM } from '../support/item-factory';

/**
 * Re-importing ChartQA's two_col_158 (tyre makers' revenue) with Goodyear raised from 14.75 to
 * 30 and Continental's value gone: items whose recomputed answer changes go back to review,
 * the others keep their status with a fresh verdict.
 */
const dir = mkdtempSync(join(tmpdir(), 'hqa-reverify-'));
const splitDir = join(dir, 'split');
const dbPath = join(dir, 'hqa.sqlite');
let db: Db;
let reviewerId: number;
const ids = {
  acceptedChanged: 0,
  acceptedSame: 0,
  pendingUncomputable: 0,
  pendingSame: 0,
  rejectedChanged: 0,
  inReviewChanged: 0,
};

function makeItem(program: string, answer: string, edit: unknown = null): number {
  const qa = db.prepare("SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.imgname = 'two_col_158.png' ORDER BY q.id LIMIT 1").get() as { id: number };
  const source = getQaWithChart(db, qa.id);
  if (!source) throw new Error(`qa ${qa.id}`);
  const item = createVerifiedItem(db, {
    source,
    draft: {
      assumption: 'Suppose Michelin’s revenue rose by 1 billion.',
      question: `Suppose Michelin’s revenue rose by 1 billion. ${program}?`,
      answer,
      answer_type: 'text',
      rationale: 'hand-built',
      affects_answer: true,
      edit: edit as never,
      program,
    },
    // Written by nobody who reviews: an author never reviews their own item.
    ...HUMAN_ITEM,
  });
  if (!item) throw new Error('not stored');
  return item.id;
}

/** Claims the next item through the real queue and checks it is the one meant. */
function claim(itemId: number, exclude: number[] = []): void {
  const { task } = claimNext(db, reviewerId, { mismatch_first: false, exclude_item_ids: exclude });
  expect(task?.item.id).toBe(itemId);
}

function decide(itemId: number, decision: 'accept' | 'reject'): void {
  claim(itemId);
  // The service takes a parsed review (the route's handle parses it): defaults filled.
  submitReview(db, itemId, reviewerId, SubmitReviewRequestSchema.parse(decision === 'accept' ? acceptReview() : rejectReview()));
}

const item = (id: number) => {
  const detail = getItemDetail(db, id);
  if (!detail) throw new Error(`item ${id}`);
  return detail;
};
const standingReviews = (id: number) => (db.prepare('SELECT COUNT(*) AS n FROM reviews WHERE item_id = ? AND retracted_at IS NULL').get(id) as { n: number }).n;
const requeueRetractions = (id: number) => (db.prepare("SELECT COUNT(*) AS n FROM reviews WHERE item_id = ? AND retract_reason = 'requeue'").get(id) as { n: number }).n;
const requeueHistory = (id: number) => (db.prepare("SELECT COUNT(*) AS n FROM item_answer_history WHERE item_id = ? AND source = 'requeue'").get(id) as { n: number }).n;
const leases = (id: number) => (db.prepare('SELECT COUNT(*) AS n FROM leases WHERE item_id = ?').get(id) as { n: number }).n;

async function exportedQuestions(): Promise<string[]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeExport(db, out, { format: 'chart-hqa', name: 'reverify', full: false });
  out.end();
  return ChartHqaExportV1Schema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8'))).items.map((i) => i.question);
}

function snapshot() {
  return {
    items: db.prepare('SELECT id, status, verifier, verifier_match, requeue_reason, final_answer, updated_at FROM hqa_items ORDER BY id').all(),
    reviews: db.prepare('SELECT id, retracted_at, retract_reason FROM reviews ORDER BY id').all(),
    history: db.prepare('SELECT COUNT(*) AS n FROM item_answer_history').get(),
    leases: db.prepare('SELECT item_id, reviewer_id FROM leases ORDER BY item_id').all(),
  };
}

const michelinUp = [{ op: 'add', row: 'Michelin (France)', delta: 1 }];
let exportBefore: string[] = [];

beforeAll(async () => {
  cpSync(CHARTQA_SAMPLE, splitDir, { recursive: true });
  db = openAndMigrate(dbPath);
  importSplit(db, splitDir, { split: 'test' });
  reviewerId = (await createUser(db, 'rita', 'reviewer', 'rita-password')).user.id;

  // Each decided item is made, claimed and decided before the next exists: the queue hands out the oldest.
  ids.acceptedChanged = makeItem('argmax(series())', 'Michelin (France)', michelinUp);
  decide(ids.acceptedChanged, 'accept');
  ids.acceptedSame = makeItem('value("Michelin (France)")', '27.55', michelinUp);
  decide(ids.acceptedSame, 'accept');
  ids.rejectedChanged = makeItem('max(series())', '27.55', michelinUp);
  decide(ids.rejectedChanged, 'reject');
  ids.pendingUncomputable = makeItem('value("Continental (Germany)") + 1', '13.9', michelinUp);
  ids.pendingSame = makeItem('value("Bridgestone (Japan)") - value("Michelin (France)")', '-0.32', michelinUp);
  ids.inReviewChanged = makeItem('count(where(series(), ">", 20))', '2', michelinUp);
  claim(ids.inReviewChanged, [ids.pendingUncomputable, ids.pendingSame]);
  exportBefore = await exportedQuestions();
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('re-importing a chart whose table changed', () => {
  it('starts from two accepted items in the export, one rejected, two pending and one in review', () => {
    expect(exportBefore).toHaveLength(2);
    expect(item(ids.acceptedChanged)).toMatchObject({ status: 'accepted', verifier: { recomputed_answer: 'Michelin (France)' }, requeue_reason: null });
    expect(item(ids.pendingUncomputable).verifier.recomputed_answer).toBe('13.9');
    expect(item(ids.inReviewChanged)).toMatchObject({ status: 'in_review', verifier: { recomputed_answer: '2' } });
    expect(leases(ids.inReviewChanged)).toBe(1);
  });

  it('reports the items it verified again and those sent back, through the real CLI', async () => {
    const file = join(splitDir, 'tables', 'two_col_158.csv');
    const csv = readFileSync(file, 'utf8');
    expect(csv).toContain('Goodyear (U.S.),14.75');
    writeFileSync(file, csv.replace('Goodyear (U.S.),14.75', 'Goodyear (U.S.),30').replace('Continental (Germany),12.9', 'Continental (Germany),nan'));
    db.close();
    const result = await runCli(['import', splitDir, '--split', 'test', '--json'], { dbPath });
    db = openAndMigrate(dbPath);
    expect(result.status, result.stderr).toBe(0);
    const report = ImportReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ charts_updated: 1, charts_skipped: 29, items_reverified: 6, items_requeued: 3, errors: [] });
    expect(formatSummary(report)).toMatch(/; 6 items re-verified, 3 sent back to review \(table changed\)$/);
  });

  it('sends an accepted item whose answer changed back to review, reviews retracted, with the reason', () => {
    expect(item(ids.acceptedChanged)).toMatchObject({
      status: 'pending',
      requeue_reason: 'table_changed',
      verifier: { recomputed_answer: 'Goodyear (U.S.)', match: false },
      verifier_match: false,
    });
    expect(standingReviews(ids.acceptedChanged)).toBe(0);
    expect(requeueRetractions(ids.acceptedChanged)).toBe(1);
    expect(requeueHistory(ids.acceptedChanged)).toBe(1);
  });

  it('sends back a pending item whose answer can no longer be computed, and an item in review with its lease dropped', () => {
    expect(item(ids.pendingUncomputable)).toMatchObject({ status: 'pending', requeue_reason: 'table_changed', verifier: { recomputed_answer: null, match: null } });
    expect(requeueHistory(ids.pendingUncomputable)).toBe(1);
    expect(item(ids.inReviewChanged)).toMatchObject({ status: 'pending', requeue_reason: 'table_changed', verifier: { recomputed_answer: '3' } });
    expect(leases(ids.inReviewChanged)).toBe(0);
    expect(requeueHistory(ids.inReviewChanged)).toBe(1);
  });

  it('keeps items whose recomputed answer is unchanged as they were, with a fresh verdict', () => {
    expect(item(ids.acceptedSame)).toMatchObject({ status: 'accepted', requeue_reason: null, verifier: { recomputed_answer: '27.55', match: true } });
    expect(standingReviews(ids.acceptedSame)).toBe(1);
    expect(item(ids.pendingSame)).toMatchObject({ status: 'pending', requeue_reason: null, verifier: { recomputed_answer: '-0.32' } });
    for (const id of [ids.acceptedSame, ids.pendingSame]) expect(requeueHistory(id)).toBe(0);
  });

  it('gives a rejected item only the new verdict', () => {
    expect(item(ids.rejectedChanged)).toMatchObject({ status: 'rejected', requeue_reason: null, verifier: { recomputed_answer: '30', match: false }, verifier_match: false });
    expect(standingReviews(ids.rejectedChanged)).toBe(1);
    expect(requeueHistory(ids.rejectedChanged)).toBe(0);
  });

  it('leaves the sent-back accepted item out of the export until it is accepted again, which clears the reason', async () => {
    const changedQuestion = item(ids.acceptedChanged).question;
    expect(exportBefore).toContain(changedQuestion);
    expect(await exportedQuestions()).toEqual([item(ids.acceptedSame).question]);

    // The reviewer who accepted it before may take it again: the requeue retracted their review.
    decide(ids.acceptedChanged, 'accept');
    expect(item(ids.acceptedChanged)).toMatchObject({ status: 'accepted', requeue_reason: null });
    expect(await exportedQuestions()).toEqual([changedQuestion, item(ids.acceptedSame).question]);
  });

  it('an unchanged re-import verifies nothing and changes nothing', () => {
    const before = snapshot();
    const report = importSplit(db, splitDir, { split: 'test' });
    expect(report).toMatchObject({ charts_updated: 0, charts_skipped: 30, items_reverified: 0, items_requeued: 0, errors: [] });
    expect(snapshot()).toEqual(before);
  });
});
