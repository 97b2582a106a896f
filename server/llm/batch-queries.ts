import { z } from 'zod';
import type { Db } from '../../db/database';
import { statement } from '../../db/statements';

/** All SQL of `llm_batches`: a batch sent to a provider, stored once it exists there. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/**
 * Where a batch is, as runs and pages show it: `submitted` (created there), `in_progress`
 * (its requests being answered), `downloading` (finished there; results read here), `done`,
 * `failed` or `cancelled`.
 */
export const BATCH_STATES = ['submitted', 'in_progress', 'downloading', 'done', 'failed', 'cancelled'] as const;
export const BatchStateSchema = z.enum(BATCH_STATES);
export type BatchState = z.infer<typeof BatchStateSchema>;
/** States after which nothing more is done for a batch. */
export const ENDED_BATCH_STATES: ReadonlySet<BatchState> = new Set(['done', 'failed', 'cancelled']);

export interface BatchRecord {
  id: number;
  purpose: string;
  model: string;
  remote_id: string;
  input_file_id: string;
  output_file_id: string | null;
  error_file_id: string | null;
  state: BatchState;
  remote_status: string;
  requests_total: number;
  requests_completed: number;
  requests_failed: number;
  error: string | null;
  eval_run_id: number | null;
  run_id: number | null;
  created_at: string;
  updated_at: string;
}

type BatchRow = Omit<BatchRecord, 'state'> & { state: string };

const toRecord = (row: BatchRow): BatchRecord => ({ ...row, state: BatchStateSchema.parse(row.state) });

export interface NewBatch {
  purpose: string;
  model: string;
  remote_id: string;
  input_file_id: string;
  remote_status: string;
  requests_total: number;
  eval_run_id?: number | null;
  run_id?: number | null;
}

export function insertBatch(db: Db, batch: NewBatch): number {
  return Number(
    statement(db,
      `INSERT INTO llm_batches (purpose, model, remote_id, input_file_id, state, remote_status, requests_total, eval_run_id, run_id)
       VALUES (@purpose, @model, @remote_id, @input_file_id, 'submitted', @remote_status, @requests_total, @eval_run_id, @run_id)`,
    ).run({ ...batch, eval_run_id: batch.eval_run_id ?? null, run_id: batch.run_id ?? null }).lastInsertRowid,
  );
}

export function getBatch(db: Db, id: number): BatchRecord | null {
  const row = statement(db, 'SELECT * FROM llm_batches WHERE id = ?').get(id) as BatchRow | undefined;
  return row ? toRecord(row) : null;
}

export function getBatchByRemoteId(db: Db, remoteId: string): BatchRecord | null {
  const row = statement(db, 'SELECT * FROM llm_batches WHERE remote_id = ?').get(remoteId) as BatchRow | undefined;
  return row ? toRecord(row) : null;
}

/** An evaluation run's latest batch, whatever its state (a run sends one batch per start that has questions left). */
export function latestEvalRunBatch(db: Db, evalRunId: number): BatchRecord | null {
  const row = statement(db, 'SELECT * FROM llm_batches WHERE eval_run_id = ? ORDER BY id DESC LIMIT 1').get(evalRunId) as BatchRow | undefined;
  return row ? toRecord(row) : null;
}

/** A generation run's latest batch. */
export function latestRunBatch(db: Db, runId: number): BatchRecord | null {
  const row = statement(db, 'SELECT * FROM llm_batches WHERE run_id = ? ORDER BY id DESC LIMIT 1').get(runId) as BatchRow | undefined;
  return row ? toRecord(row) : null;
}

/** What the last poll said: the provider's status and counts, and where the batch now is here. */
export function updateBatchPoll(
  db: Db,
  id: number,
  poll: { state: BatchState; remote_status: string; total: number; completed: number; failed: number; output_file_id: string | null; error_file_id: string | null },
): void {
  statement(db,
    `UPDATE llm_batches SET state = @state, remote_status = @remote_status, requests_total = @total, requests_completed = @completed,
       requests_failed = @failed, output_file_id = COALESCE(@output_file_id, output_file_id), error_file_id = COALESCE(@error_file_id, error_file_id),
       updated_at = ${NOW}
     WHERE id = @id`,
  ).run({ id, ...poll });
}

/** The batch is over here: every result stored (`done`), or none to read (`failed`, `cancelled`). */
export function endBatch(db: Db, id: number, state: 'done' | 'failed' | 'cancelled', error: string | null): void {
  statement(db, `UPDATE llm_batches SET state = ?, error = COALESCE(?, error), updated_at = ${NOW} WHERE id = ?`).run(state, error, id);
}
