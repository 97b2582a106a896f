import { RunConfigSchema } from '../../shared/api/runs';
import type { SubmitReviewRequest } from '../../shared/api/review';
import type { TestServer } from './test-server';

/** Items to review: an offline items-only run over the demo split. */
export async function generateItems(server: TestServer, items: number): Promise<number> {
  const { executor } = server.server;
  const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items, concurrency: 4 }), null);
  await executor.start(run.id);
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
