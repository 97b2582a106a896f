import { z } from 'zod';
import { preparedOnce, type Db } from '../../db/database';
import { statement } from '../../db/statements';

/** All SQL of `llm_calls`: one row per attempt, written before the output is parsed. */

export const LLM_CALL_OUTCOMES = ['ok', 'invalid', 'refused', 'error'] as const;
export const LlmCallOutcomeSchema = z.enum(LLM_CALL_OUTCOMES);
export type LlmCallOutcome = z.infer<typeof LlmCallOutcomeSchema>;

export interface LlmCallRecord {
  run_id: number | null;
  task_id: number | null;
  /** The evaluation run the call answered for (`eval_runs`); null for generation, reflection and `hqa eval`. */
  eval_run_id: number | null;
  purpose: string;
  engine: string;
  model: string;
  template: string;
  template_hash: string;
  /** 1-based, counting every request of one logical call (retries, repair, fallback). */
  attempt: number;
  raw_output: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  /** Of `prompt_tokens`, those served from the endpoint's prompt cache; absent: none said (0). */
  cached_tokens?: number;
  latency_ms: number;
  cost: number;
  outcome: LlmCallOutcome;
  error: string | null;
  /** The batch (`llm_batches`) that answered it; absent or null for a call sent on its own. */
  batch_id?: number | null;
  /** The chart the call was about (a vision model asked for its type); absent or null otherwise. */
  chart_id?: number | null;
  /** How many images the request carried; absent or null: not recorded (migration 036). */
  images?: number | null;
  /** Their estimated prompt tokens (`image-tokens.ts`); null: not recorded, or no formula for the model. */
  image_tokens?: number | null;
  /** Those tokens at the call's input price; null: not recorded, or the model is unpriced. */
  image_cost?: number | null;
}

export interface LlmCall extends LlmCallRecord {
  id: number;
  cached_tokens: number;
  created_at: string;
}


function prepare(db: Db) {
  return {
    insert: db.prepare(
      `INSERT INTO llm_calls (run_id, task_id, eval_run_id, purpose, engine, model, template, template_hash, attempt, raw_output,
         prompt_tokens, completion_tokens, cached_tokens, latency_ms, cost, outcome, error, batch_id, chart_id, images, image_tokens, image_cost)
       VALUES (@run_id, @task_id, @eval_run_id, @purpose, @engine, @model, @template, @template_hash, @attempt, @raw_output,
         @prompt_tokens, @completion_tokens, @cached_tokens, @latency_ms, @cost, @outcome, @error, @batch_id, @chart_id, @images, @image_tokens, @image_cost)`,
    ),
    settle: db.prepare('UPDATE llm_calls SET outcome = ?, error = ? WHERE id = ?'),
  };
}

const statements = preparedOnce(prepare);

/**
 * Records one request; returns the row id. The run's counters are not touched here: the
 * run executor adds a task's summed usage in the transaction that finishes the task.
 */
export function recordLlmCall(db: Db, call: LlmCallRecord): number {
  const row = {
    ...call,
    cached_tokens: call.cached_tokens ?? 0,
    batch_id: call.batch_id ?? null,
    chart_id: call.chart_id ?? null,
    images: call.images ?? null,
    image_tokens: call.image_tokens ?? null,
    image_cost: call.image_cost ?? null,
    latency_ms: Math.round(call.latency_ms),
  };
  return Number(statements(db).insert.run(row).lastInsertRowid);
}

/** Sets the outcome once the recorded output has been parsed and validated. */
export function settleLlmCall(db: Db, id: number, outcome: LlmCallOutcome, error: string | null): void {
  statements(db).settle.run(outcome, error, id);
}

type LlmCallRow = Omit<LlmCall, 'outcome'> & { outcome: string };

/** The calls of a run, a task or an evaluation run (or every call), oldest first. */
export function listLlmCalls(db: Db, filter: { runId?: number; taskId?: number; evalRunId?: number } = {}): LlmCall[] {
  const rows = statement(db,
      `SELECT * FROM llm_calls
       WHERE (@run_id IS NULL OR run_id = @run_id) AND (@task_id IS NULL OR task_id = @task_id)
         AND (@eval_run_id IS NULL OR eval_run_id = @eval_run_id)
       ORDER BY id`,
    )
    .all({ run_id: filter.runId ?? null, task_id: filter.taskId ?? null, eval_run_id: filter.evalRunId ?? null }) as LlmCallRow[];
  return rows.map((row) => ({ ...row, outcome: LlmCallOutcomeSchema.parse(row.outcome) }));
}
