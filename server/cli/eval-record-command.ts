import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EvalModeSchema, PredictionRowSchema } from '../../shared/api/evaluations';
import { openAndMigrate } from '../../db/database';
import { loadConfig } from '../config';
import { DomainError } from '../domain-error';
import { importPredictions, PredictionRowError } from '../eval/eval-import';
import { publicEvalRun } from '../eval/eval-queries';

export interface RecordCommandOptions {
  predictions: string;
  model: string;
  mode: string;
  json?: boolean;
}

/**
 * `hqa eval-record`: stores an `hqa eval` predictions file as an evaluation run of this
 * workbench (the Evaluation page lists it beside the runs it made itself). The ids must be
 * export ids of accepted items here. Returns the exit status; bad input prints one line.
 */
export function runRecord(options: RecordCommandOptions): number {
  const fail = (message: string) => {
    if (options.json) process.stdout.write(`${JSON.stringify({ error: { message } })}\n`);
    else process.stderr.write(`error: ${message}\n`);
    return 1;
  };
  const mode = EvalModeSchema.safeParse(options.mode);
  if (!mode.success) return fail(`--mode: must be one of ${EvalModeSchema.options.join(', ')}`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(options.predictions, 'utf8')) as unknown;
  } catch (error) {
    return fail(`${options.predictions}: ${(error as Error).message}`);
  }
  const parsed = z.array(PredictionRowSchema).min(1, 'holds no predictions').safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = (issue?.path ?? []).map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
    return fail(`${options.predictions}: predictions${path}: ${issue?.message ?? 'invalid'}`);
  }
  const db = openAndMigrate(loadConfig().dbPath);
  try {
    const run = publicEvalRun(db, importPredictions(db, { model: options.model, mode: mode.data, predictions: parsed.data }, null));
    if (options.json) process.stdout.write(`${JSON.stringify({ run })}\n`);
    else {
      const accuracy = run.score.relaxed_accuracy === null ? 'n/a' : `${run.score.relaxed_accuracy.toFixed(2)}%`;
      process.stdout.write(`recorded evaluation run ${run.id} (${run.model}, ${run.mode}): ${run.items_answered}/${run.items_total} predicted, relaxed accuracy ${accuracy}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof PredictionRowError) return fail(`${options.predictions}: predictions[${error.index}].${error.key}: ${error.reason}`);
    if (error instanceof DomainError) return fail(`${options.predictions}: ${error.message}`);
    throw error;
  } finally {
    db.close();
  }
}
