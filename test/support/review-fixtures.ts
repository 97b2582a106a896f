import { RunConfigSchema } from '../../shared/api/runs';
import type { SubmitReviewRequest } from '../../shared/api/review';
import type { AnswerType } from '../../shared/table/answers';
import { dropItems } from './factories';
import type { TestServer } from './test-server';

/**
 * Exactly `items` items to review, from one offline items-only run over the demo split. The
 * offline engine makes no item for a question it cannot ask under an assumption that changes
 * its answer, so the run is asked for more and the surplus (never reviewed) is dropped, so
 * that tests can count on the number.
 */
export async function generateItems(server: TestServer, items: number): Promise<number> {
  const { executor } = server.server;
  const db = server.server.ctx.db;
  const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: items * 3 + 6, concurrency: 4 }), null);
  await executor.start(run.id);
  // One-chart items first: a test that needs few items gets the kind runs made before groups existed.
  const made = (db.prepare('SELECT i.id FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id WHERE i.run_id = ? ORDER BY q.group_id IS NOT NULL, i.id').all(run.id) as { id: number }[]).map((r) => r.id);
  if (made.length < items) throw new Error(`the offline run made ${made.length} items, fewer than the ${items} the test needs`);
  const surplus = made.slice(items);
  if (surplus.length > 0) dropItems(db, surplus);
  return run.id;
}

const pass = { pass: true, note: '' };

export function acceptReview(extra: Partial<SubmitReviewRequest> = {}): SubmitReviewRequest {
  return { decision: 'accept', criteria: { rationality: pass, correctness: pass, layout: pass }, time_spent_ms: 1200, ...extra };
}

export function rejectReview(feedback = 'The assumption breaks the pie: slices no longer sum to 100.'): SubmitReviewRequest {
  return {
    decision: 'reject',
    criteria: { rationality: pass, correctness: pass, layout: { pass: false, note: 'sum is 130' } },
    feedback,
    time_spent_ms: 3400,
  };
}

/**
 * A corrected answer of the item's answer type (a correction is checked as an item's answer
 * is: a numeric item's must be a number, a Yes/No item's Yes or No), told apart by `n`.
 */
export function correctionFor(item: { answer: string; answer_type: AnswerType }, n = 42): string {
  if (item.answer_type === 'integer' || item.answer_type === 'decimal') return String(n);
  if (item.answer_type === 'boolean') return /^yes$/i.test(item.answer.trim()) ? 'No' : 'Yes';
  return `Label ${n}`;
}
