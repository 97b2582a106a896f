import { z } from 'zod';
import type { Db } from '../../db/database';
import { parseJsonColumn, parseNullableJsonColumn } from '../../db/json-column';
import {
  EvalEngineSchema,
  EvalScoreSchema,
  EvalModeSchema,
  EvalRunStatusSchema,
  EvalResultStatusSchema,
  type EvalBatchProgress,
  type EvalBreakdown,
  type EvalEngine,
  type EvalMode,
  type EvalResult,
  type EvalResultsQuery,
  type EvalRun,
  type EvalRunStatus,
  type UnsolvedResponse,
} from '../../shared/api/evaluations';
import { exportItemId } from '../../shared/export/chart-hqa';
import { countVerdicts, measureCounts, roundScore, roundedPercent, type ScoreCounts, type Verdict } from '../../shared/eval/metrics';
import { conditionGaps } from '../../shared/eval/conditions';
import type { ScoredPair } from '../../shared/eval/rule-accuracy';
import { ChartTypeSchema } from '../../shared/domain/chart-types';
import { QuestionRelationSchema, type QuestionRelation } from '../../shared/domain/generation';
import { AnswerTypeSchema, type AnswerType } from '../../shared/table/answers';
import { containsPattern, whereClause } from '../../db/sql-filters';
import { statement } from '../../db/statements';
import { latestEvalRunBatch, type BatchRecord } from '../llm/batch-queries';

/** All SQL of evaluation runs and their per-question results. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

export interface EvalRunRecord extends Omit<EvalRun, 'score' | 'batch_progress' | 'conditions' | 'gaps'> {
  /** The run's conditions in asking order; the first is `mode`. */
  conditions: EvalMode[];
  owner_pid: number | null;
  owner_host: string | null;
  heartbeat_at: string | null;
  /** Frozen counts of a finished run (its first condition's). */
  frozen_score: ScoreCounts | null;
  /** Frozen counts per condition of a finished run. */
  frozen_condition_scores: Partial<Record<EvalMode, ScoreCounts>> | null;
}

interface EvalRunRow extends Omit<EvalRunRecord, 'engine' | 'mode' | 'status' | 'frozen_score' | 'frozen_condition_scores' | 'conditions' | 'items_total' | 'items_answered' | 'items_failed' | 'items_skipped' | 'batch'> {
  batch: number;
  engine: string;
  mode: string;
  conditions: string;
  status: string;
  score: string | null;
  condition_scores: string | null;
  items_total: number;
  items_answered: number;
  items_failed: number;
  items_skipped: number;
}

const RUN_SELECT = `SELECT r.id, r.model, r.engine, r.mode, r.conditions, r.status, r.concurrency, r.batch, r.prompt_tokens, r.completion_tokens, r.cost, r.error,
  u.username AS created_by, r.created_at, r.finished_at, r.owner_pid, r.owner_host, r.heartbeat_at, r.score, r.condition_scores,
  (SELECT COUNT(*) FROM eval_results e WHERE e.run_id = r.id AND e.status != 'skipped') AS items_total,
  (SELECT COUNT(*) FROM eval_results e WHERE e.run_id = r.id AND e.status = 'skipped') AS items_skipped,
  (SELECT COUNT(*) FROM eval_results e WHERE e.run_id = r.id AND e.status = 'answered') AS items_answered,
  (SELECT COUNT(*) FROM eval_results e WHERE e.run_id = r.id AND e.status = 'failed') AS items_failed
  FROM eval_runs r LEFT JOIN users u ON u.id = r.created_by`;

/**
 * Frozen counts as stored. A run frozen before the question relation existed has no `same`
 * counts: its questions all count as `same`, as the metrics of that time counted them (and as
 * migration 007 snapshots them).
 */
const FrozenCountsSchema = z.preprocess((value) => {
  if (typeof value !== 'object' || value === null) return value;
  const counts = value as Record<string, unknown>;
  return { ...counts, same_question: counts.same_question ?? counts.items, same_correct: counts.same_correct ?? counts.correct };
}, EvalScoreSchema.shape.counts);

const ConditionsSchema = z.array(EvalModeSchema).min(1);
const FrozenConditionScoresSchema = z.partialRecord(EvalModeSchema, FrozenCountsSchema);

function toRecord(row: EvalRunRow): EvalRunRecord {
  const { score, condition_scores, ...rest } = row;
  const where = { table: 'eval_runs', id: row.id };
  return {
    ...rest,
    batch: row.batch === 1,
    engine: EvalEngineSchema.parse(row.engine),
    mode: EvalModeSchema.parse(row.mode),
    conditions: parseJsonColumn(ConditionsSchema, row.conditions, { ...where, column: 'conditions' }),
    status: EvalRunStatusSchema.parse(row.status),
    frozen_score: parseNullableJsonColumn(FrozenCountsSchema, score, { ...where, column: 'score' }),
    frozen_condition_scores: parseNullableJsonColumn(FrozenConditionScoresSchema, condition_scores, { ...where, column: 'condition_scores' }),
  };
}

/** The public run, scored: frozen counts once finished, live counts from its results before; each condition apart, and the gaps between them. */
export function publicEvalRun(db: Db, run: EvalRunRecord): EvalRun {
  const { owner_pid: _pid, owner_host: _host, heartbeat_at: _hb, frozen_score, frozen_condition_scores, conditions, ...rest } = run;
  const sizes = conditionSizes(db, run.id);
  const live = frozen_condition_scores === null ? scoreCountsByCondition(db, run.id) : null;
  const countsOf = (condition: EvalMode): ScoreCounts => frozen_condition_scores?.[condition] ?? live?.[condition] ?? countVerdicts([]);
  const perCondition = conditions.map((condition) => ({
    condition,
    items_total: sizes[condition]?.total ?? 0,
    items_skipped: sizes[condition]?.skipped ?? 0,
    score: roundScore(measureCounts(countsOf(condition))),
  }));
  const shares = Object.fromEntries(conditions.map((condition) => [condition, { correct: countsOf(condition).correct, items: countsOf(condition).items }]));
  return {
    ...rest,
    conditions: perCondition,
    gaps: conditionGaps(shares),
    batch_progress: run.batch ? batchProgress(latestEvalRunBatch(db, run.id)) : null,
    score: roundScore(measureCounts(frozen_score ?? countsOf(run.mode))),
  };
}

/** Questions per condition of a run, skipped ones apart. */
function conditionSizes(db: Db, runId: number): Partial<Record<EvalMode, { total: number; skipped: number }>> {
  const rows = statement(db, "SELECT condition, SUM(status != 'skipped') AS total, SUM(status = 'skipped') AS skipped FROM eval_results WHERE run_id = ? GROUP BY condition")
    .all(runId) as { condition: string; total: number; skipped: number }[];
  return Object.fromEntries(rows.map((row) => [EvalModeSchema.parse(row.condition), { total: row.total, skipped: row.skipped }]));
}

function batchProgress(batch: BatchRecord | null): EvalBatchProgress | null {
  return batch ? { state: batch.state, total: batch.requests_total, completed: batch.requests_completed, failed: batch.requests_failed } : null;
}

/** `conditions` left out: the run asks `mode` alone. */
export function insertEvalRun(
  db: Db,
  input: { model: string; engine: EvalEngine; mode: EvalMode; conditions?: EvalMode[]; concurrency: number; status: EvalRunStatus; createdBy: number | null; batch?: boolean },
): number {
  const conditions = input.conditions ?? [input.mode];
  return Number(
    statement(db, 'INSERT INTO eval_runs (model, engine, mode, conditions, concurrency, status, created_by, batch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(input.model, input.engine, conditions[0] ?? input.mode, JSON.stringify(conditions), input.concurrency, input.status, input.createdBy, input.batch ? 1 : 0)
      .lastInsertRowid,
  );
}

export function getEvalRun(db: Db, id: number): EvalRunRecord | null {
  const row = statement(db, `${RUN_SELECT} WHERE r.id = ?`).get(id) as EvalRunRow | undefined;
  return row ? toRecord(row) : null;
}

export function listEvalRuns(db: Db): EvalRunRecord[] {
  return (statement(db, `${RUN_SELECT} ORDER BY r.id DESC`).all() as EvalRunRow[]).map(toRecord);
}

/**
 * Moves a run between statuses if it is in one of `from`; false when it was not. Ending a run
 * freezes its score, so listing finished runs never re-aggregates their results. `error` is why
 * it failed or paused; a run queued or running again has none (a resumed pause's reason is gone).
 */
export function transitionEvalRun(db: Db, id: number, from: EvalRunStatus[], to: EvalRunStatus, error: string | null = null): boolean {
  const ends = to === 'done' || to === 'cancelled' || to === 'failed';
  const goesOn = to === 'queued' || to === 'running';
  return db.transaction(() => {
    const changed = statement(db,
        `UPDATE eval_runs SET status = ?, error = CASE WHEN ? THEN NULL ELSE COALESCE(?, error) END,
          started_at = CASE WHEN ? = 'running' THEN COALESCE(started_at, ${NOW}) ELSE started_at END,
          finished_at = CASE WHEN ? THEN ${NOW} ELSE finished_at END
         WHERE id = ? AND status IN (SELECT value FROM json_each(?))`,
      )
      .run(to, goesOn ? 1 : 0, error, to, ends ? 1 : 0, id, JSON.stringify(from)).changes;
    if (changed === 0) return false;
    if (ends) {
      // Questions never asked (cancelled, failed) count as missing, and so as wrong.
      failUnanswered(db, id, `not asked: the run was ${to}`);
      const mode = (statement(db, 'SELECT mode FROM eval_runs WHERE id = ?').get(id) as { mode: string }).mode;
      const byCondition = scoreCountsByCondition(db, id);
      statement(db, 'UPDATE eval_runs SET score = ?, condition_scores = ? WHERE id = ?').run(
        JSON.stringify(byCondition[EvalModeSchema.parse(mode)] ?? countVerdicts([])),
        JSON.stringify(byCondition),
        id,
      );
    }
    return true;
  })();
}

/** Questions still pending or in flight become failed (no prediction) with `reason`. */
export function failUnanswered(db: Db, runId: number, reason: string): void {
  statement(db, "UPDATE eval_results SET status = 'failed', error = COALESCE(error, ?) WHERE run_id = ? AND status IN ('pending', 'running')").run(reason, runId);
}

export function addEvalUsage(db: Db, id: number, usage: { prompt_tokens: number; completion_tokens: number; cost: number }): void {
  statement(db, 'UPDATE eval_runs SET prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?, cost = cost + ? WHERE id = ?').run(
    usage.prompt_tokens,
    usage.completion_tokens,
    usage.cost,
    id,
  );
}

/** What a run asks and is scored against, per question (the snapshot). */
export interface EvalQuestionRow {
  item_id: number;
  condition: EvalMode;
  position: number;
  question: string;
  gold: string;
  answer_type: AnswerType;
  affects_answer: boolean;
  original_label: string;
  /** The item's: the decline and bias rates count only `same` questions. */
  question_relation: QuestionRelation;
}

/** A snapshot question; `skipped` holds why its condition cannot ask it (stored as a skipped result, never asked). */
export type SnapshotQuestion = EvalQuestionRow & { skipped?: string };

/** Stores a run's questions; returns how many will be asked (skipped ones are stored, not counted). */
export function insertEvalQuestions(db: Db, runId: number, rows: Iterable<SnapshotQuestion>): number {
  const insert = statement(db,
    `INSERT INTO eval_results (run_id, item_id, condition, position, question, gold, answer_type, affects_answer, original_label, question_relation, status, error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let count = 0;
  for (const row of rows) {
    const status = row.skipped === undefined ? 'pending' : 'skipped';
    insert.run(runId, row.item_id, row.condition, row.position, row.question, row.gold, row.answer_type, row.affects_answer ? 1 : 0, row.original_label, row.question_relation, status, row.skipped ?? null);
    if (row.skipped === undefined) count++;
  }
  return count;
}

/** A question being asked: what the asker needs and what its answer is scored against. */
export interface ClaimedQuestion extends EvalQuestionRow {
  chart_id: number;
}

type QuestionRow = Omit<EvalQuestionRow, 'affects_answer' | 'answer_type' | 'question_relation' | 'condition'> & { affects_answer: number; answer_type: string; question_relation: string; condition: string };

/**
 * The next pending question in dataset order (an item's conditions one after another), marked
 * running (one statement: no two workers get it). `passOver`: conditions taken only once no
 * other question is pending (the drawn ones, while their next drawing is on its way).
 */
export function claimNextQuestion(db: Db, runId: number, passOver: readonly EvalMode[] = []): ClaimedQuestion | null {
  const claim = (conditionFilter: string, ...filterArgs: unknown[]) =>
    statement(db,
      `UPDATE eval_results SET status = 'running', attempts = attempts + 1
       WHERE run_id = ? AND (item_id, condition) = (SELECT item_id, condition FROM eval_results WHERE run_id = ? AND status = 'pending'${conditionFilter} ORDER BY position, condition LIMIT 1)
       RETURNING item_id, condition, position, question, gold, answer_type, affects_answer, original_label, question_relation`,
    ).get(runId, runId, ...filterArgs) as QuestionRow | undefined;
  const row = (passOver.length > 0 ? claim(' AND condition NOT IN (SELECT value FROM json_each(?))', JSON.stringify(passOver)) : undefined) ?? claim('');
  if (!row) return null;
  const chart = statement(db, 'SELECT chart_id FROM hqa_items WHERE id = ?').get(row.item_id) as { chart_id: number };
  return {
    ...row,
    condition: EvalModeSchema.parse(row.condition),
    answer_type: AnswerTypeSchema.parse(row.answer_type),
    affects_answer: row.affects_answer === 1,
    question_relation: QuestionRelationSchema.parse(row.question_relation),
    chart_id: chart.chart_id,
  };
}

/** The next pending question of one of `conditions` in dataset order, left pending. */
export function nextPendingQuestion(db: Db, runId: number, conditions: readonly EvalMode[]): { item_id: number; condition: EvalMode } | null {
  const row = statement(db,
    `SELECT item_id, condition FROM eval_results WHERE run_id = ? AND status = 'pending' AND condition IN (SELECT value FROM json_each(?)) ORDER BY position, condition LIMIT 1`,
  ).get(runId, JSON.stringify(conditions)) as { item_id: number; condition: string } | undefined;
  return row ? { item_id: row.item_id, condition: EvalModeSchema.parse(row.condition) } : null;
}

/** Every pending question in dataset order, left pending: what a batch run sends as one batch. */
export function pendingQuestions(db: Db, runId: number): ClaimedQuestion[] {
  const rows = statement(db,
      `SELECT e.item_id, e.condition, e.position, e.question, e.gold, e.answer_type, e.affects_answer, e.original_label, e.question_relation, i.chart_id
       FROM eval_results e JOIN hqa_items i ON i.id = e.item_id WHERE e.run_id = ? AND e.status = 'pending' ORDER BY e.position, e.condition`,
    )
    .all(runId) as (QuestionRow & { chart_id: number })[];
  return rows.map((row) => ({
    ...row,
    condition: EvalModeSchema.parse(row.condition),
    answer_type: AnswerTypeSchema.parse(row.answer_type),
    affects_answer: row.affects_answer === 1,
    question_relation: QuestionRelationSchema.parse(row.question_relation),
  }));
}

/** The next pending questions' items, charts and conditions, in asking order: their images are drawn ahead while the model answers. */
export function upcomingQuestions(db: Db, runId: number, questions: number): { item_id: number; chart_id: number; condition: EvalMode }[] {
  const rows = statement(db,
      `SELECT e.item_id, i.chart_id, e.condition FROM (SELECT item_id, condition, position FROM eval_results WHERE run_id = ? AND status = 'pending' ORDER BY position, condition LIMIT ?) e
       JOIN hqa_items i ON i.id = e.item_id ORDER BY e.position, e.condition`,
    )
    .all(runId, questions) as { item_id: number; chart_id: number; condition: string }[];
  return rows.map((row) => ({ ...row, condition: EvalModeSchema.parse(row.condition) }));
}

/** What an item's drawings are made from: its chart, its stored edit, its chart group (null for one chart). */
export function itemDrawingSource(db: Db, itemId: number): { chart_id: number; edit: unknown; group_id: number | null; has_table: boolean } | null {
  const row = statement(db,
      `SELECT i.chart_id, i.edit, q.group_id, c.data_table IS NOT NULL AS has_table
       FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id JOIN charts c ON c.id = i.chart_id WHERE i.id = ?`,
    )
    .get(itemId) as { chart_id: number; edit: string | null; group_id: number | null; has_table: number } | undefined;
  if (!row) return null;
  return { chart_id: row.chart_id, edit: parseNullableJsonColumn(z.unknown(), row.edit, { table: 'hqa_items', column: 'edit', id: itemId }), group_id: row.group_id, has_table: row.has_table === 1 };
}

/** Asked questions whose process stopped go back to pending. */
export function requeueRunningQuestions(db: Db, runId: number): number {
  return statement(db, "UPDATE eval_results SET status = 'pending' WHERE run_id = ? AND status = 'running'").run(runId).changes;
}

export interface QuestionOutcome {
  prediction: string | null;
  raw: string | null;
  /** From `judgePrediction`; false for a missing prediction. */
  correct: boolean;
  biased: boolean;
  error: string | null;
}

export function recordAnswer(db: Db, runId: number, question: { item_id: number; condition: EvalMode }, outcome: QuestionOutcome & { failed: boolean }): void {
  statement(db,
    `UPDATE eval_results SET status = ?, prediction = ?, raw = ?, correct = ?, biased = ?, error = ?, answered_at = ${NOW}
     WHERE run_id = ? AND item_id = ? AND condition = ?`,
  ).run(
    outcome.failed ? 'failed' : 'answered',
    outcome.prediction,
    outcome.raw,
    outcome.correct ? 1 : 0,
    outcome.biased ? 1 : 0,
    outcome.error,
    runId,
    question.item_id,
    question.condition,
  );
}

/** A question its condition turned out unable to ask (its drawing failed): skipped with `reason`, out of the score. */
export function skipQuestion(db: Db, runId: number, question: { item_id: number; condition: EvalMode }, reason: string): void {
  statement(db, `UPDATE eval_results SET status = 'skipped', error = ?, answered_at = ${NOW} WHERE run_id = ? AND item_id = ? AND condition = ?`).run(
    reason,
    runId,
    question.item_id,
    question.condition,
  );
}

/**
 * Score counts over the questions finished so far (answered or failed; a failed one has no
 * prediction and counts as wrong), from the stored verdicts, counted by `countVerdicts` as a
 * file's predictions are: which questions each count takes is decided there alone.
 */
export function scoreCountsByCondition(db: Db, runId: number): Partial<Record<EvalMode, ScoreCounts>> {
  // Grouped here, counted by `countVerdicts`: the rule stays in TypeScript, and a run's progress
  // (published every few hundred milliseconds) reads a few dozen rows, not one per answer.
  const rows = statement(db,
      `SELECT condition, answer_type, affects_answer, question_relation, prediction IS NOT NULL AS predicted, correct, biased, COUNT(*) AS n
       FROM eval_results WHERE run_id = ? AND status IN ('answered', 'failed')
       GROUP BY condition, answer_type, affects_answer, question_relation, predicted, correct, biased`,
    )
    .all(runId) as { condition: string; answer_type: AnswerType; affects_answer: number; question_relation: QuestionRelation; predicted: number; correct: number | null; biased: number | null; n: number }[];
  const verdicts = new Map<EvalMode, Verdict[]>();
  for (const row of rows) {
    const condition = EvalModeSchema.parse(row.condition);
    let list = verdicts.get(condition);
    if (!list) verdicts.set(condition, (list = []));
    list.push({
      answer_type: row.answer_type,
      affects_answer: row.affects_answer === 1,
      question_relation: row.question_relation,
      verdict: row.predicted === 1 ? { correct: row.correct === 1, biased: row.biased === 1 } : null,
      count: row.n,
    });
  }
  const byCondition: Partial<Record<EvalMode, ScoreCounts>> = {};
  for (const [condition, list] of verdicts) byCondition[condition] = countVerdicts(list);
  return byCondition;
}

/** Score counts of one condition of a run (its first, `mode`, when left out). */
export function scoreCounts(db: Db, runId: number, condition?: EvalMode): ScoreCounts {
  const byCondition = scoreCountsByCondition(db, runId);
  const which = condition ?? EvalModeSchema.parse((statement(db, 'SELECT mode FROM eval_runs WHERE id = ?').get(runId) as { mode: string }).mode);
  return byCondition[which] ?? countVerdicts([]);
}

/** Rows per page when streaming a run's answers: the connection is free between pages. */
const PREDICTIONS_PAGE = 1000;

/**
 * A run's answers in `hqa eval`'s format (`{ id, prediction, raw }`, dataset order), a page at a
 * time (keyset on position, no statement left open across the caller's awaits): only answered
 * questions, as `hqa eval` leaves out what failed.
 */
export function* iteratePredictions(db: Db, runId: number, condition: EvalMode): Generator<{ id: string; prediction: string | null; raw: string }[]> {
  const page = statement(db,
    `SELECT item_id, prediction, raw, position FROM eval_results WHERE run_id = ? AND condition = ? AND status = 'answered' AND position > ? ORDER BY position LIMIT ${PREDICTIONS_PAGE}`,
  );
  let after = -1;
  for (;;) {
    const rows = page.all(runId, condition, after) as { item_id: number; prediction: string | null; raw: string | null; position: number }[];
    if (rows.length > 0) yield rows.map((row) => ({ id: exportItemId(row.item_id), prediction: row.prediction, raw: row.raw ?? '' }));
    const last = rows.at(-1);
    if (!last || rows.length < PREDICTIONS_PAGE) return;
    after = last.position;
  }
}

/**
 * A run's finished questions (answered or failed; a failed one has no prediction) as what each
 * was answered and what it is scored against, for scoring under every rule. Read row by row:
 * the caller scores as it goes, without holding a 100,000-row array.
 */
export function finishedAnswers(db: Db, runId: number, condition: EvalMode): Iterable<ScoredPair> {
  return statement(db, "SELECT prediction, gold FROM eval_results WHERE run_id = ? AND condition = ? AND status IN ('answered', 'failed')").iterate(runId, condition) as Iterable<ScoredPair>;
}

/** Accuracy per chart type and by whether the assumption changes the answer, over finished questions. */
export function evalBreakdown(db: Db, runId: number, condition: EvalMode): EvalBreakdown {
  const slice = (items: number, correct: number) => {
    return { items, correct, accuracy: roundedPercent(correct, items) };
  };
  const byType = statement(db,
      `SELECT c.chart_type, COUNT(*) AS items, COALESCE(SUM(e.correct), 0) AS correct
       FROM eval_results e JOIN hqa_items i ON i.id = e.item_id JOIN charts c ON c.id = i.chart_id
       WHERE e.run_id = ? AND e.condition = ? AND e.status IN ('answered', 'failed') GROUP BY c.chart_type ORDER BY c.chart_type`,
    )
    .all(runId, condition) as { chart_type: string; items: number; correct: number }[];
  const byChange = statement(db,
      `SELECT affects_answer, COUNT(*) AS items, COALESCE(SUM(correct), 0) AS correct
       FROM eval_results WHERE run_id = ? AND condition = ? AND status IN ('answered', 'failed') GROUP BY affects_answer`,
    )
    .all(runId, condition) as { affects_answer: number; items: number; correct: number }[];
  const change = (affects: number) => byChange.find((row) => row.affects_answer === affects) ?? { items: 0, correct: 0 };
  return {
    by_chart_type: byType.map((row) => ({ chart_type: ChartTypeSchema.parse(row.chart_type), ...slice(row.items, row.correct) })),
    answer_changed: slice(change(1).items, change(1).correct),
    answer_kept: slice(change(0).items, change(0).correct),
  };
}

/**
 * Questions every given run got wrong (finished, not correct), among those all of them asked,
 * in dataset order, with each run's prediction.
 */
export function unsolvedQuestions(db: Db, runIds: number[], limit: number): Omit<UnsolvedResponse, 'models'> {
  if (runIds.length === 0) return { compared: 0, total: 0, questions: [] };
  const runs = JSON.stringify(runIds);
  const grouped = `SELECT item_id, MIN(position) AS position, COUNT(*) AS asked, SUM(COALESCE(correct, 0)) AS solved
    FROM eval_results WHERE run_id IN (SELECT value FROM json_each(:runs)) AND condition = 'hqa' AND status IN ('answered', 'failed') GROUP BY item_id`;
  const counts = statement(db, `SELECT COUNT(*) AS compared, COALESCE(SUM(solved = 0), 0) AS total FROM (${grouped}) WHERE asked = :n`)
    .get({ runs, n: runIds.length }) as { compared: number; total: number };
  const items = statement(db, `SELECT item_id FROM (${grouped}) WHERE asked = :n AND solved = 0 ORDER BY position LIMIT :limit`)
    .all({ runs, n: runIds.length, limit }) as { item_id: number }[];
  const answer = statement(db, "SELECT question, gold, prediction FROM eval_results WHERE run_id = ? AND item_id = ? AND condition = 'hqa'");
  const questions = items.map(({ item_id }) => {
    const rows = runIds.map((runId) => answer.get(runId, item_id) as { question: string; gold: string; prediction: string | null });
    const first = rows[0];
    return { id: exportItemId(item_id), item_id, question: first?.question ?? '', gold: first?.gold ?? '', predictions: rows.map((row) => row.prediction) };
  });
  return { ...counts, questions };
}

const OUTCOME_SQL: Record<EvalResultsQuery['outcome'], string | null> = {
  all: null,
  correct: 'e.correct = 1',
  // correct + wrong + missing = every finished question; failed ones are among the missing.
  wrong: 'e.correct = 0 AND e.prediction IS NOT NULL',
  missing: "e.prediction IS NULL AND e.status IN ('answered', 'failed')",
  biased: 'e.biased = 1',
  failed: "e.status = 'failed'",
  skipped: "e.status = 'skipped'",
};

interface ResultRow {
  item_id: number;
  condition: string;
  chart_id: number;
  imgname: string;
  question: string;
  gold: string;
  answer_type: string;
  affects_answer: number;
  original_label: string;
  status: string;
  prediction: string | null;
  raw: string | null;
  correct: number | null;
  biased: number;
  error: string | null;
}

/** One page of a run's questions in dataset order, filtered by outcome, answer type and text. */
export function listResults(db: Db, runId: number, condition: EvalMode, query: EvalResultsQuery): { results: EvalResult[]; total: number } {
  const outcome = OUTCOME_SQL[query.outcome];
  const where = whereClause([
    { sql: 'e.run_id = :run', param: 'run', value: runId },
    { sql: 'e.condition = :condition', param: 'condition', value: condition },
    { sql: 'e.answer_type = :type', param: 'type', value: query.answer_type },
    { sql: "(e.question LIKE :q ESCAPE '\\' OR e.gold LIKE :q ESCAPE '\\' OR e.prediction LIKE :q ESCAPE '\\')", param: 'q', value: containsPattern(query.q) },
  ]);
  const filter = `${where.sql}${outcome ? ` AND ${outcome}` : ''}`;
  const total = (statement(db, `SELECT COUNT(*) AS n FROM eval_results e ${filter}`).get(where.params) as { n: number }).n;
  const rows = statement(db,
      `SELECT e.item_id, e.condition, i.chart_id, c.imgname, e.question, e.gold, e.answer_type, e.affects_answer, e.original_label, e.status, e.prediction, e.raw,
        -- A question failed without an answer (never asked, or no prediction imported) is wrong.
        CASE WHEN e.status IN ('answered', 'failed') THEN COALESCE(e.correct, 0) END AS correct, e.biased, e.error
       FROM eval_results e JOIN hqa_items i ON i.id = e.item_id JOIN charts c ON c.id = i.chart_id
       ${filter} ORDER BY e.position LIMIT :limit OFFSET :offset`,
    )
    .all({ ...where.params, limit: query.page_size, offset: (query.page - 1) * query.page_size }) as ResultRow[];
  return {
    total,
    results: rows.map((row) => ({
      id: exportItemId(row.item_id),
      item_id: row.item_id,
      condition: EvalModeSchema.parse(row.condition),
      chart_id: row.chart_id,
      imgname: row.imgname,
      question: row.question,
      gold: row.gold,
      answer_type: AnswerTypeSchema.parse(row.answer_type),
      affects_answer: row.affects_answer === 1,
      original_label: row.original_label,
      status: EvalResultStatusSchema.parse(row.status),
      prediction: row.prediction,
      raw: row.raw,
      correct: row.correct === null ? null : row.correct === 1,
      biased: row.biased === 1,
      error: row.error,
    })),
  };
}
