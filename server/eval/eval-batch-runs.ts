import type { AppContext } from '../app-context';
import { questionFromDb } from './eval-question';
import { batchClient } from '../llm/batch-api';
import { ENDED_BATCH_STATES, latestEvalRunBatch, type BatchRecord } from '../llm/batch-queries';
import { awaitBatch, cancelBatch, finishBatch, recordBatchCall, sendBatch, type BatchTarget } from '../llm/batch-runner';
import { providersFor } from '../llm/model-roles';
import { extractAnswer } from '../../shared/eval/answer-extraction';
import { getSettings } from '../settings/settings-queries';
import { addEvalUsage, pendingQuestions, recordAnswer, type EvalRunRecord } from './eval-queries';
import { judgeAnswer } from './eval-snapshot';
import { EVAL_TEMPLATE, evalChatBody, prepareEvalQuestion, sentImages } from './model-asker';
import { requestImages, type RequestImages } from '../llm/image-tokens';
import { visionOptions } from '../llm/vision-image';

/**
 * An evaluation run whose "batch" box was ticked: its pending questions go as one OpenAI Batch
 * API batch (custom_id: the item id), the batch is polled — every poll stored, so the page shows
 * "in progress n of N" — and the results are stored as each question's answer, each with its
 * batch-priced `llm_calls` row in one transaction. A run that stops (shutdown, a dead process)
 * re-attaches to its stored batch when it resumes; a question answered before a crash is not stored twice.
 */

export interface EvalBatchOptions {
  pollMs: number;
  signal: AbortSignal;
  /** After every poll and when results are stored: the run's progress is published. */
  onProgress: () => void;
}

function targetFor(ctx: AppContext, run: EvalRunRecord, options: Partial<EvalBatchOptions> & { pollMs: number }): BatchTarget {
  const settings = getSettings(ctx.db);
  const { connection } = providersFor(settings, ctx.config).evaluation;
  if (!connection) throw new Error('OPENAI_API_KEY is not set');
  return {
    db: ctx.db,
    api: batchClient(connection, connection.timeoutMs),
    purpose: 'evaluation',
    model: run.model,
    template: EVAL_TEMPLATE,
    prices: settings.price_table,
    discount: settings.batch_discount,
    evalRunId: run.id,
    pollMs: options.pollMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
}

/** Sends (or re-attaches to) the run's batch and stores its answers; false when the signal stopped the wait. */
export async function runEvalBatch(ctx: AppContext, run: EvalRunRecord, options: EvalBatchOptions): Promise<boolean> {
  const { db } = ctx;
  const target = targetFor(ctx, run, options);
  const pending = pendingQuestions(db, run.id);
  let batch: BatchRecord | null = latestEvalRunBatch(db, run.id);
  /** The images of the requests this process sent; a re-attached batch's were built before a restart, and are not recorded. */
  const imagesOf = new Map<string, RequestImages>();
  if (!batch || ENDED_BATCH_STATES.has(batch.state)) {
    if (pending.length === 0) return true;
    const requests = [];
    const vision = visionOptions(getSettings(db));
    for (const question of pending) {
      const asked = await prepareEvalQuestion(run.mode === 'no_image' ? { text: question.question, png: null } : await questionFromDb(db, question), vision);
      if (options.signal.aborted) return false;
      const customId = String(question.item_id);
      imagesOf.set(customId, requestImages(run.model, sentImages(asked)));
      requests.push({ customId, body: evalChatBody(asked) });
    }
    batch = await sendBatch(target, requests, `eval-run-${run.id}.jsonl`);
  }
  const outcome = await awaitBatch(target, batch, pending.map((question) => String(question.item_id)));
  if (!outcome) return false;
  db.transaction(() => {
    for (const question of pending) {
      const result = outcome.mapped.results.get(String(question.item_id)) ?? { ok: false as const, error: 'missing from the batch results' };
      const call = recordBatchCall(target, outcome.batch, result, null, imagesOf.get(String(question.item_id)));
      if (!result.ok) {
        recordAnswer(db, run.id, question, { failed: true, prediction: null, raw: null, correct: false, biased: false, error: result.error });
        continue;
      }
      const raw = call.content ?? '';
      const prediction = extractAnswer(raw);
      recordAnswer(db, run.id, question, { failed: false, prediction, raw, ...judgeAnswer(question, prediction), error: null });
      addEvalUsage(db, run.id, { ...call.tokens, cost: call.cost });
    }
    finishBatch(target, outcome.batch, outcome.problem);
  })();
  return true;
}

/** A cancelled batch run's batch is cancelled at the provider too: nothing more is billed. */
export async function cancelEvalBatch(ctx: AppContext, run: EvalRunRecord): Promise<void> {
  const batch = latestEvalRunBatch(ctx.db, run.id);
  if (!batch || ENDED_BATCH_STATES.has(batch.state)) return;
  await cancelBatch(targetFor(ctx, run, { pollMs: 0 }), batch);
}
