import { z } from 'zod';
import type { Db } from '../../db/database';
import { parseJsonColumn } from '../../db/json-column';
import { statement } from '../../db/statements';
import type { ReflectionBatch } from '../../shared/api/reflection';
import type { JobOwner } from '../jobs/job-owner';

/** All SQL of reflection batches. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const ErrorsSchema = z.array(z.object({ proposal_id: z.number().int(), error: z.string() }));
const IdsSchema = z.array(z.number().int());

export interface BatchRecord extends ReflectionBatch, JobOwner {
  proposal_ids: number[];
  /**
   * Who started it: its reflections are theirs, also after a resume. Null: nobody did, the
   * feedback loop did — an automatic reflection, run as a batch of one so it is a durable job.
   */
  created_by: number | null;
}

interface BatchRow extends JobOwner {
  id: number;
  status: 'running' | 'done';
  proposal_ids: string;
  done: number;
  revised: number;
  failed: number;
  errors: string;
  created_by: number | null;
}

const COLUMNS = 'id, status, proposal_ids, done, revised, failed, errors, owner_pid, owner_host, heartbeat_at, created_by';

function toRecord(row: BatchRow): BatchRecord {
  const ids = parseJsonColumn(IdsSchema, row.proposal_ids, { table: 'reflection_batches', column: 'proposal_ids', id: row.id });
  const errors = parseJsonColumn(ErrorsSchema, row.errors, { table: 'reflection_batches', column: 'errors', id: row.id });
  return { ...row, proposal_ids: ids, total: ids.length, errors };
}

/** The public shape (what crosses the wire). */
export function publicBatch(batch: BatchRecord): ReflectionBatch {
  const { proposal_ids: _ids, owner_pid: _pid, owner_host: _host, heartbeat_at: _hb, created_by: _by, ...rest } = batch;
  return rest;
}

export function insertBatch(db: Db, input: { chartType: string | null; proposalIds: number[]; createdBy: number | null }): number {
  const status = input.proposalIds.length === 0 ? 'done' : 'running';
  return Number(
    statement(db, `INSERT INTO reflection_batches (chart_type, status, proposal_ids, created_by, finished_at) VALUES (?, ?, ?, ?, CASE WHEN ? = 'done' THEN ${NOW} END)`)
      .run(input.chartType, status, JSON.stringify(input.proposalIds), input.createdBy, status).lastInsertRowid,
  );
}

export function getBatch(db: Db, id: number): BatchRecord | null {
  const row = statement(db, `SELECT ${COLUMNS} FROM reflection_batches WHERE id = ?`).get(id) as BatchRow | undefined;
  return row ? toRecord(row) : null;
}

/** Batches curators started (automatic reflections are the pool's own upkeep), newest first. */
export function listBatches(db: Db, limit: number): BatchRecord[] {
  return (statement(db, `SELECT ${COLUMNS} FROM reflection_batches WHERE created_by IS NOT NULL ORDER BY id DESC LIMIT ?`).all(limit) as BatchRow[]).map(toRecord);
}

/** Whether an automatic reflection on the proposal is already waiting or under way. */
export function automaticReflectionPending(db: Db, proposalId: number): boolean {
  return (
    statement(db, `SELECT 1 FROM reflection_batches WHERE status = 'running' AND created_by IS NULL AND proposal_ids = json_array(CAST(? AS INTEGER))`).get(proposalId) !== undefined
  );
}

/** One proposal done: revised, or failed with its error. */
export function recordBatchStep(db: Db, id: number, outcome: { revised: boolean } | { error: { proposal_id: number; error: string } }): void {
  if ('error' in outcome) {
    statement(db, `UPDATE reflection_batches SET done = done + 1, failed = failed + 1, errors = json_insert(errors, '$[#]', json(?)) WHERE id = ?`).run(
      JSON.stringify(outcome.error),
      id,
    );
  } else {
    statement(db, 'UPDATE reflection_batches SET done = done + 1, revised = revised + ? WHERE id = ?').run(outcome.revised ? 1 : 0, id);
  }
}

export function finishBatch(db: Db, id: number): void {
  statement(db, `UPDATE reflection_batches SET status = 'done', finished_at = ${NOW} WHERE id = ? AND status = 'running'`).run(id);
}
