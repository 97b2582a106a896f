import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/database';
import type { GoldVerdicts } from '../../shared/api/gold';
import type { ReviewCriteria } from '../../shared/api/review';
import type { CHART_GROUP_SOURCES } from '../../shared/domain/benchmark-fields';
import type { ChartType, TypeEvidence, TypeSource } from '../../shared/domain/chart-types';
import { ItemStatusSchema, type Engine, type ItemStatus, type ProposalOrigin, type ProposalStatus, type RunStage } from '../../shared/domain/generation';
import type { QaSource } from '../../shared/domain/qa';
import type { Role } from '../../shared/domain/roles';
import type { ProposalScope } from '../../shared/api/pool';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { createChartWriter, getQaWithChart } from '../../server/charts/chart-queries';
import { numberOrText } from '../../shared/domain/answer-kind';
import { insertRun } from '../../server/generation/run-queries';
import { createVerifiedItem, type ItemDraftInput } from '../../server/items/item-service';
import type { JobTable } from '../../server/jobs/job-queries';
import { recordLlmCall, type LlmCallRecord } from '../../server/llm/llm-call-queries';
import { insertProposal, updateProposal } from '../../server/pool/pool-queries';
import { insertReflection, type ReflectionInsert } from '../../server/reflection/reflection-queries';
import { insertQueue, insertQueueMember, insertRetired, upsertAssignment } from '../../server/review/assignment-queries';
import { deleteGold, upsertGold } from '../../server/review/gold-queries';
import { insertLease, insertReview, setFinalAnswer } from '../../server/review/review-queries';
import { setSplitArchived } from '../../server/splits/split-queries';
import { getChartTable, storeChartTable } from '../../server/tables/table-queries';
import { createUser } from '../../server/users/user-service';
import { RunConfigSchema } from '../../shared/api/runs';

/**
 * Factories for integration tests: each writes one domain record with readable defaults,
 * through the domain's own write function where there is one (so a test's rows are the rows
 * the server writes), and otherwise through the one statement here. A test states only what
 * it is about; everything else is a default it can read below.
 */

/** Lease ends no test outlives: a lease the test holds for as long as it needs. */
export const FAR_FUTURE = '2999-01-01T00:00:00.000Z';

let counter = 0;
/** Unique per process, so defaults never collide with each other (or with imported names). */
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

export async function buildUser(db: Db, { username = unique('user'), role = 'reviewer' as Role, password }: { username?: string; role?: Role; password?: string } = {}) {
  return (await createUser(db, username, role, password ?? `${username}-password`)).user;
}

const SMALL_TABLE = tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '20']]);

/**
 * A chart as the ChartQA importer stores it, its type inferred. With `image` (a PNG) and no
 * `typeEvidence` its type is unconfirmed; `typeEvidence: 'questions'` is a type its questions decided.
 * `annotation` is its annotation file (ChartQA's JSON: `type`, `models`), for how it is drawn.
 */
export function buildChart(
  db: Db,
  {
    split = 'test',
    imgname = `${unique('chart')}.png`,
    title = null as string | null,
    chartType = 'vertical_bar' as ChartType,
    table = SMALL_TABLE as DataTable,
    image = null as Buffer | null,
    typeEvidence = null as TypeEvidence | null,
    annotation = null as object | null,
  } = {},
): number {
  return createChartWriter(db).write(
    {
      split,
      imgname,
      title,
      chart_type: chartType,
      type_source: 'inferred',
      type_evidence: typeEvidence,
      table,
      annotation: annotation === null ? null : JSON.stringify(annotation),
      source_file: imgname,
      content_hash: unique('hash'),
      image: image === null ? null : { png: image, sha256: createHash('sha256').update(image).digest('hex') },
    },
    [],
  ).chartId;
}

/**
 * A factual question on a chart, as the importer stores it; with `groupId`, a question over
 * that group (stored on the group's first chart, as the MultiChartQA importer does).
 */
export function buildQa(
  db: Db,
  { chartId, query = unique('What is the value'), label = '1', source = 'human' as QaSource, groupId = null as number | null }: { chartId: number; query?: string; label?: string; source?: QaSource; groupId?: number | null },
): number {
  return Number(
    db.prepare('INSERT INTO factual_qas (chart_id, query, label, source, answer_kind, group_id) VALUES (?, ?, ?, ?, ?, ?)').run(chartId, query, label, source, numberOrText(label), groupId).lastInsertRowid,
  );
}

/**
 * A chart group of the given charts, in that order (positions 1, 2, …), as a curator would make one;
 * with `source: 'multichartqa'`, as the MultiChartQA importer would.
 */
export function buildChartGroup(
  db: Db,
  { chartIds, split = 'test', name = unique('group'), source = 'curator' }: { chartIds: number[]; split?: string; name?: string; source?: (typeof CHART_GROUP_SOURCES)[number] },
): number {
  const groupId = Number(db.prepare('INSERT INTO chart_groups (split, group_key, name, source) VALUES (?, ?, ?, ?)').run(split, name, name, source).lastInsertRowid);
  const member = db.prepare('INSERT INTO chart_group_members (group_id, chart_id, position) VALUES (?, ?, ?)');
  chartIds.forEach((chartId, index) => member.run(groupId, chartId, index + 1));
  return groupId;
}

export function buildProposal(
  db: Db,
  { chartType = 'vertical_bar' as ChartType, text = unique('Double the largest value'), origin = 'seed' as ProposalOrigin, status = 'active' as ProposalStatus, parentIds = [] as number[] } = {},
): number {
  return insertProposal(db, { chart_type: chartType, text, origin, status, parent_ids: parentIds });
}

/** A run as `POST /api/runs` stores it (nothing executed): for rows that name a run. */
export function buildRun(db: Db, { engine = 'openai' as Engine, model = 'test-model', stage = 'items' as RunStage, createdBy = null as number | null } = {}): number {
  return insertRun(db, { engine, model, config: RunConfigSchema.parse({ engine, stage }), poolRound: 0, createdBy });
}

const DEFAULT_DRAFT: ItemDraftInput = {
  assumption: 'Suppose nothing changed.',
  question: 'Suppose nothing changed. What is the value?',
  answer: '1',
  answer_type: 'integer',
  rationale: 'hand-built',
  affects_answer: true,
  edit: null,
  program: '1',
};

/**
 * A hand-written item on a factual QA, verified and stored as the item service stores every
 * item; `status` then sets it as a decision would have.
 */
export function buildItem(db: Db, { qaId, draft = {}, createdBy = null, status }: { qaId: number; draft?: Partial<ItemDraftInput>; createdBy?: number | null; status?: ItemStatus }): number {
  const source = getQaWithChart(db, qaId);
  if (!source) throw new Error(`buildItem: no factual QA ${qaId}`);
  const item = createVerifiedItem(db, { source, draft: { ...DEFAULT_DRAFT, ...draft }, origin: 'human', proposalId: null, runId: null, model: null, createdBy, idempotencyKey: null });
  if (!item) throw new Error(`buildItem: the item on QA ${qaId} was not stored`);
  if (status) setItemStatus(db, status, [item.id]);
  return item.id;
}

/**
 * Sets items' status as a decision would have — every item's, these items', or a run's items' —
 * for a test's starting state, without the reviews that would decide it.
 */
export function setItemStatus(db: Db, status: ItemStatus, which?: readonly number[] | { runId: number }): void {
  if (which === undefined) db.prepare('UPDATE hqa_items SET status = ?').run(status);
  else if ('runId' in which) db.prepare('UPDATE hqa_items SET status = ? WHERE run_id = ?').run(status, which.runId);
  else db.prepare('UPDATE hqa_items SET status = ? WHERE id IN (SELECT value FROM json_each(?))').run(status, JSON.stringify(which));
}

/** Marks charts' tables confirmed (or, with `confirmed: false`, not), as a curator's check leaves them. */
export function setTablesConfirmed(db: Db, chartIds: readonly number[], confirmed = true): void {
  db.prepare('UPDATE charts SET table_confirmed = ? WHERE id IN (SELECT value FROM json_each(?))').run(confirmed ? 1 : 0, JSON.stringify(chartIds));
}

/**
 * An accepted item's row as stored, unverified (an empty verifier result): for tests of what
 * reads items, such as the export, where verifying thousands of items would only cost time.
 */
export function buildStoredItem(db: Db, { qaId, chartId, question = 'Suppose x. Q?' }: { qaId: number; chartId: number; question?: string }): number {
  return Number(storedItemStatement(db).run(qaId, chartId, question).lastInsertRowid);
}

/** Prepared once per database: `buildStoredItem` is called in loops of thousands. */
const storedItemStatements = new WeakMap<Db, Statement<[number, number, string]>>();
function storedItemStatement(db: Db): Statement<[number, number, string]> {
  let statement = storedItemStatements.get(db);
  if (!statement) {
    statement = db.prepare<[number, number, string]>(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, status)
      VALUES (?, ?, 'human', 'Suppose x.', ?, '1', 'integer', 'r', 1, '1', '{}', 'accepted')`);
    storedItemStatements.set(db, statement);
  }
  return statement;
}

/** A copy of a stored item under another proposal and status: more items like one the test has. */
export function copyItem(db: Db, itemId: number, { proposalId, status }: { proposalId: number | null; status: ItemStatus }): number {
  return Number(
    db
      .prepare(`INSERT INTO hqa_items (qa_id, chart_id, proposal_id, origin, assumption, question, answer, answer_type, rationale,
      affects_answer, edit, program, verifier, verifier_match, bias_flags, status)
      SELECT qa_id, chart_id, ?, origin, assumption, question, answer, answer_type, rationale, affects_answer, edit, program, verifier,
      verifier_match, bias_flags, ? FROM hqa_items WHERE id = ?`)
      .run(proposalId, status, itemId).lastInsertRowid,
  );
}

const PASS = { pass: true, note: '' };

/** A review as submitting one stores it (no lease or consensus: the test sets the item's status). */
export function buildReview(
  db: Db,
  {
    itemId,
    reviewerId,
    decision = 'accept',
    criteria = {},
    feedback = '',
    correctedAnswer = null,
    timeSpentMs = 1000,
  }: { itemId: number; reviewerId: number; decision?: 'accept' | 'reject'; criteria?: Partial<ReviewCriteria>; feedback?: string; correctedAnswer?: string | null; timeSpentMs?: number },
): number {
  return insertReview(db, {
    itemId,
    reviewerId,
    decision,
    criteria: { rationality: PASS, correctness: PASS, layout: PASS, ...criteria },
    feedback,
    correctedAnswer,
    correctedQuestion: null,
    complexity: null,
    timeSpentMs,
  }).id;
}

/** A lease on an item for a reviewer, as a claim writes it; by default one that never runs out. */
export function buildLease(db: Db, { itemId, reviewerId, expiresAt = FAR_FUTURE }: { itemId: number; reviewerId: number; expiresAt?: string }): void {
  insertLease(db, itemId, reviewerId, expiresAt);
}

/** One model call as the provider records it: a successful Stage 2 call costing nothing unless said. */
export function buildLlmCall(db: Db, call: Partial<LlmCallRecord> = {}): number {
  return recordLlmCall(db, {
    run_id: null,
    task_id: null,
    eval_run_id: null,
    purpose: 'stage2',
    engine: 'openai',
    model: 'm',
    template: 't',
    template_hash: 'h',
    attempt: 1,
    raw_output: null,
    prompt_tokens: 0,
    completion_tokens: 0,
    latency_ms: 0,
    cost: 0,
    outcome: 'ok',
    error: null,
    ...call,
  });
}

/** A finished reflection on a proposal, as the reflection service stores one. */
export function buildReflection(db: Db, { proposalId, ...rest }: { proposalId: number } & Partial<Omit<ReflectionInsert, 'proposalId'>>): number {
  return insertReflection(db, {
    proposalId,
    revisedId: null,
    trigger: 'manual',
    engine: 'openai',
    model: 'm',
    feedback: [],
    addressed: null,
    status: 'done',
    error: null,
    usage: { prompt_tokens: 0, completion_tokens: 0, cost: 0 },
    createdBy: null,
    ...rest,
  });
}

/** A named review queue of these members, as a curator makes one. */
export function buildQueue(db: Db, { createdBy, members = [], name = unique('queue') }: { createdBy: number; members?: number[]; name?: string }): number {
  const queueId = insertQueue(db, name, createdBy);
  for (const member of members) insertQueueMember(db, queueId, member);
  return queueId;
}

/** An item assigned to one reviewer or to a queue, as a curator assigns it. */
export function buildAssignment(
  db: Db,
  { itemId, assignedBy, reviewerId = null, queueId = null }: { itemId: number; assignedBy: number; reviewerId?: number | null; queueId?: number | null },
): void {
  upsertAssignment(db, itemId, { reviewerId, queueId }, assignedBy);
}

/** An item a curator retired. */
export function retireItem(db: Db, { itemId, retiredBy, reason = 'retired by the test' }: { itemId: number; retiredBy: number; reason?: string }): void {
  insertRetired(db, itemId, retiredBy, reason);
}

/** An item a curator marked gold, every criterion passing unless said. */
export function buildGold(db: Db, { itemId, markedBy, verdicts = {} }: { itemId: number; markedBy: number; verdicts?: Partial<GoldVerdicts> }): void {
  upsertGold(db, itemId, { rationality: true, correctness: true, layout: true, ...verdicts }, markedBy);
}

/** No item gold any more, as if a curator had unmarked each: the next one marked is the only gold there is. */
export function unmarkAllGold(db: Db): void {
  for (const itemId of db.prepare('SELECT item_id FROM gold_items ORDER BY item_id').pluck().all() as number[]) deleteGold(db, itemId);
}

/** A split a curator archived (made, when no chart named it yet), or with `archived: false` brought back. */
export function archiveSplit(db: Db, { name, archivedBy, archived = true }: { name: string; archivedBy: number; archived?: boolean }): void {
  setSplitArchived(db, name, archived, archivedBy);
}

/** The ids of a split's charts, in import order. */
export function chartIdsOfSplit(db: Db, split: string): number[] {
  return (db.prepare('SELECT id FROM charts WHERE split = ? ORDER BY id').all(split) as { id: number }[]).map((row) => row.id);
}

/** How a run's tasks and items stand, for tests that a stop and a resume lost or doubled nothing. */
export function runLedger(db: Db, runId: number): { items: number; madeTwice: unknown[]; failedErrors: string[]; unsettled: number } {
  const items = (db.prepare('SELECT COUNT(*) AS n FROM hqa_items WHERE run_id = ?').get(runId) as { n: number }).n;
  const madeTwice = db.prepare('SELECT qa_id, proposal_id, COUNT(*) AS n FROM hqa_items WHERE run_id = ? GROUP BY qa_id, proposal_id HAVING n > 1').all(runId);
  const failedErrors = (db.prepare("SELECT error FROM run_tasks WHERE run_id = ? AND status = 'failed'").all(runId) as { error: string }[]).map((row) => row.error);
  const unsettled = (db.prepare("SELECT COUNT(*) AS n FROM run_tasks WHERE run_id = ? AND status IN ('pending', 'running')").get(runId) as { n: number }).n;
  return { items, madeTwice, failedErrors, unsettled };
}

/*
 * States a test starts from that no single domain write makes: time passing, rows as an older
 * version left them, and a queue cleared for the one test. Each says why a test needs it.
 */

/** The ids of items in the order they were made — all, a run's, a proposal's, or those in these statuses: for a test that decides or drops some. */
export function listItemIds(
  db: Db,
  { runId = null, proposalId = null, statuses = null, limit = -1 }: { runId?: number | null; proposalId?: number | null; statuses?: readonly ItemStatus[] | null; limit?: number } = {},
): number[] {
  return db
    .prepare(
      `SELECT id FROM hqa_items WHERE (@run IS NULL OR run_id = @run) AND (@proposal IS NULL OR proposal_id = @proposal)
       AND (@statuses IS NULL OR status IN (SELECT value FROM json_each(@statuses))) ORDER BY id LIMIT @limit`,
    )
    .pluck()
    .all({ run: runId, proposal: proposalId, statuses: statuses === null ? null : JSON.stringify(statuses), limit }) as number[];
}

/**
 * The first item on each distinct factual question of a run, oldest first (with `singleChart`,
 * of questions over one chart only): items a fake model can tell apart by their question's text.
 */
export function itemIdsOnDistinctQuestions(db: Db, runId: number, { limit, singleChart = false }: { limit: number; singleChart?: boolean }): number[] {
  return db
    .prepare(
      `SELECT MIN(i.id) FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id WHERE i.run_id = ? AND (? = 0 OR q.group_id IS NULL)
       GROUP BY q.query ORDER BY MIN(i.id) LIMIT ?`,
    )
    .pluck()
    .all(runId, singleChart ? 1 : 0, limit) as number[];
}

/**
 * Every open item (pending or in review) rejected as if decided, so the queue offers only what the
 * test adds next; returns them with the status each had, for a test that puts them back.
 */
export function rejectOpenItems(db: Db): { id: number; status: ItemStatus }[] {
  const open = (db.prepare("SELECT id, status FROM hqa_items WHERE status IN ('pending', 'in_review') ORDER BY id").all() as { id: number; status: string }[]).map(
    (row) => ({ id: row.id, status: ItemStatusSchema.parse(row.status) }),
  );
  setItemStatus(db, 'rejected', open.map((row) => row.id));
  return open;
}

/** No lease held by anyone, as if every claim had ended: a queue free for the test's own claims. */
export function dropLeases(db: Db): void {
  db.prepare('DELETE FROM leases').run();
}

/**
 * Every item back in the queue with no lease and no standing review (each retracted as a
 * re-queue retracts it): pending, with no final answer, so each test of the queue starts alike.
 */
export function requeueEveryItem(db: Db): void {
  dropLeases(db);
  db.prepare("UPDATE reviews SET retracted_at = '2000-01-01', retract_reason = 'requeue' WHERE retracted_at IS NULL").run();
  db.prepare("UPDATE hqa_items SET status = 'pending', final_answer = NULL, final_question = NULL, decided_at = NULL").run();
}

/** A lease past its expiry (a reviewer's, or every one on the item), as time would leave it before the sweep. */
export function expireLease(db: Db, { itemId, reviewerId = null }: { itemId: number; reviewerId?: number | null }): void {
  db.prepare("UPDATE leases SET expires_at = '2000-01-01T00:00:00.000Z' WHERE item_id = ? AND (? IS NULL OR reviewer_id = ?)").run(itemId, reviewerId, reviewerId);
}

/** A review made long ago, as time would leave it: past any window for taking it back. */
export function backdateReview(db: Db, reviewId: number): void {
  db.prepare("UPDATE reviews SET created_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").run(reviewId);
}

/** A reviewer's corrected answer as an accepted review leaves it (review-service applyFinalAnswer): the final answer and its history entry. */
export function correctAnswer(db: Db, itemId: number, answer: string): void {
  setFinalAnswer(db, { itemId, answer, question: null, source: 'review', reviewId: null, userId: null });
}

/** An item whose verifier disagreed with its answer (or, with `true`, agreed), for the queue's mismatch ordering without rerunning the verifier. */
export function setVerifierMatch(db: Db, itemId: number, match: boolean): void {
  db.prepare('UPDATE hqa_items SET verifier_match = ? WHERE id = ?').run(match ? 1 : 0, itemId);
}

/** An item counted under a proposal it was not written for (no verification against the proposal's text): for figures per proposal. */
export function setItemProposal(db: Db, itemId: number, proposalId: number): void {
  db.prepare('UPDATE hqa_items SET proposal_id = ? WHERE id = ?').run(proposalId, itemId);
}

/** An item written before edits were required: no machine-readable edit to draw. */
export function dropItemEdit(db: Db, itemId: number): void {
  db.prepare('UPDATE hqa_items SET edit = NULL WHERE id = ?').run(itemId);
}

/** An item as one made before questions were classified: no question relation. */
export function unclassifyItem(db: Db, itemId: number): void {
  db.prepare('UPDATE hqa_items SET question_relation = NULL WHERE id = ?').run(itemId);
}

/**
 * An item's text (and its chart's title) as if the model had written it so, without re-verifying
 * it: for tests of what pages and the search index make of what a model wrote.
 */
export function rewriteItemText(db: Db, itemId: number, { question, rationale, chartTitle }: { question?: string; rationale?: string; chartTitle?: string }): void {
  if (question !== undefined) db.prepare('UPDATE hqa_items SET question = ? WHERE id = ?').run(question, itemId);
  if (rationale !== undefined) db.prepare('UPDATE hqa_items SET rationale = ? WHERE id = ?').run(rationale, itemId);
  if (chartTitle !== undefined) db.prepare('UPDATE charts SET title = ? WHERE id = (SELECT chart_id FROM hqa_items WHERE id = ?)').run(chartTitle, itemId);
}

/** Items a test has no use for, gone as if never made: their run's items_created counts them out. */
export function dropItems(db: Db, ids: readonly number[]): void {
  const list = JSON.stringify(ids);
  db.transaction(() => {
    db.prepare(
      `UPDATE runs SET items_created = items_created - (SELECT COUNT(*) FROM hqa_items i WHERE i.run_id = runs.id AND i.id IN (SELECT value FROM json_each(@list)))
       WHERE id IN (SELECT run_id FROM hqa_items WHERE id IN (SELECT value FROM json_each(@list)))`,
    ).run({ list });
    db.prepare('DELETE FROM hqa_items WHERE id IN (SELECT value FROM json_each(?))').run(list);
  })();
}

/** Proposals' ids by chart type, scope, origin or text (any, where not given), oldest first: for a test that retires or restores part of the pool. */
export function proposalIds(
  db: Db,
  { chartType = null, scope = null, origin = null, text = null }: { chartType?: ChartType | null; scope?: ProposalScope | null; origin?: ProposalOrigin | null; text?: string | null } = {},
): number[] {
  return db
    .prepare(
      `SELECT id FROM proposals WHERE (@chartType IS NULL OR chart_type = @chartType) AND (@scope IS NULL OR scope = @scope)
       AND (@origin IS NULL OR origin = @origin) AND (@text IS NULL OR text = @text) ORDER BY id`,
    )
    .pluck()
    .all({ chartType, scope, origin, text }) as number[];
}

/** Proposals' status set as a curator's edit of the pool sets it: a pool holding only what the test needs. */
export function setProposalStatus(db: Db, status: ProposalStatus, ids: readonly number[]): void {
  for (const id of ids) updateProposal(db, id, { status });
}

/** Proposals made on another day, as a pool that grew over days has them. */
export function backdateProposals(db: Db, ids: readonly number[], createdAt: string): void {
  db.prepare('UPDATE proposals SET created_at = ? WHERE id IN (SELECT value FROM json_each(?))').run(createdAt, JSON.stringify(ids));
}

/**
 * A durable job (a run, an eval run, a reflection batch, …) as another process leaves it: owned
 * by `pid`, on `host` when given (else the host it had) — a live owner's job, or an orphan's.
 */
export function setJobOwner(db: Db, table: JobTable, jobId: number, { pid, host }: { pid: number; host?: string }): void {
  if (host === undefined) db.prepare(`UPDATE ${table} SET owner_pid = ? WHERE id = ?`).run(pid, jobId);
  else db.prepare(`UPDATE ${table} SET owner_pid = ?, owner_host = ? WHERE id = ?`).run(pid, host, jobId);
}

/**
 * An eval run as a process that died midway leaves it: running under that process, its first
 * `answered` questions answered (wrongly) and the next one asked but never answered.
 */
export function interruptEvalRun(db: Db, runId: number, { pid, host, answered }: { pid: number; host: string; answered: number }): void {
  db.prepare("UPDATE eval_runs SET status = 'running', owner_pid = ?, owner_host = ? WHERE id = ?").run(pid, host, runId);
  db.prepare("UPDATE eval_results SET status = 'answered', prediction = 'x', raw = 'Answer: x', correct = 0 WHERE run_id = ? AND position < ?").run(runId, answered);
  db.prepare("UPDATE eval_results SET status = 'running' WHERE run_id = ? AND position = ?").run(runId, answered);
}

/** An eval run's frozen score as an older version stored it (fields it did not have yet left out). */
export function setFrozenScore(db: Db, evalRunId: number, score: Readonly<Record<string, unknown>>): void {
  db.prepare('UPDATE eval_runs SET score = ? WHERE id = ?').run(JSON.stringify(score), evalRunId);
}

/** A user's sessions as time would leave them: last used, or running out, at these moments. */
export function setSessionTimes(db: Db, userId: number, { lastSeenAt, expiresAt }: { lastSeenAt?: Date; expiresAt?: Date }): void {
  if (lastSeenAt) db.prepare('UPDATE sessions SET last_seen_at = ? WHERE user_id = ?').run(lastSeenAt.toISOString(), userId);
  if (expiresAt) db.prepare('UPDATE sessions SET expires_at = ? WHERE user_id = ?').run(expiresAt.toISOString(), userId);
}

/** The id of a split's chart, by its image's name. */
export function chartIdOf(db: Db, { split, imgname }: { split: string; imgname: string }): number {
  const id = db.prepare('SELECT id FROM charts WHERE split = ? AND imgname = ?').pluck().get(split, imgname);
  if (typeof id !== 'number') throw new Error(`chartIdOf: no chart ${split}/${imgname}`);
  return id;
}

/** A chart's table as an extraction leaves it: source `extracted`, not confirmed by a curator. */
export function markTableExtracted(db: Db, chartId: number): void {
  const stored = getChartTable(db, chartId);
  if (!stored?.data_table) throw new Error(`markTableExtracted: chart ${chartId} has no table`);
  storeChartTable(db, chartId, { table: stored.data_table, source: 'extracted', confirmed: false, title: stored.title, setTitle: false });
}

/** A chart's stored table text replaced with its updated_at kept: for tests that the text, not the timestamp, decides. */
export function setStoredTableText(db: Db, chartId: number, text: string): void {
  db.prepare('UPDATE charts SET data_table = ? WHERE id = ?').run(text, chartId);
}

/** A type the table-only rule stored, as an older import left it: the type changed, its source (`inferred`) kept. */
export function setInferredType(db: Db, chartId: number, chartType: ChartType): void {
  db.prepare('UPDATE charts SET chart_type = ? WHERE id = ?').run(chartType, chartId);
}

/**
 * A chart as an older import left it: this type (from this source, when given) and a content hash
 * no file has, so the next import of its files updates it.
 */
export function markChartStale(db: Db, chartId: number, { chartType, typeSource = null }: { chartType: ChartType; typeSource?: TypeSource | null }): void {
  db.prepare("UPDATE charts SET chart_type = ?, type_source = COALESCE(?, type_source), content_hash = 'stale' WHERE id = ?").run(chartType, typeSource, chartId);
}

/** A chart moved into another split, as an import into that split would have put it. */
export function moveChartToSplit(db: Db, chartId: number, split: string): void {
  db.prepare('UPDATE charts SET split = ? WHERE id = ?').run(split, chartId);
}

/** A benchmark chart that names an image file the import did not bring in. */
export function setImageRef(db: Db, chartId: number, imageRef: string): void {
  db.prepare('UPDATE charts SET image_ref = ? WHERE id = ?').run(imageRef, chartId);
}

/** An image stored for a chart that had none, as an import that found its file stores it. */
export function addChartImage(db: Db, chartId: number, png: Buffer): void {
  db.prepare('INSERT INTO chart_images (chart_id, png, sha256) VALUES (?, ?, ?)').run(chartId, png, createHash('sha256').update(png).digest('hex'));
}

/** A chart whose image the import did not find: its stored image gone. */
export function dropChartImage(db: Db, chartId: number): void {
  db.prepare('DELETE FROM chart_images WHERE chart_id = ?').run(chartId);
}

/** One chart's image bytes on another (its hash kept): two charts whose image files differ. */
export function copyChartImage(db: Db, { from, to }: { from: number; to: number }): void {
  db.prepare('UPDATE chart_images SET png = (SELECT png FROM chart_images WHERE chart_id = ?) WHERE chart_id = ?').run(from, to);
}

/**
 * Appends values to a scratch table the test made for bulk alone (pages for a full disk, frames
 * for the WAL): bytes that stand for no domain row, so no domain function writes them.
 */
export function scratchWriter(db: Db, table: string, column: string): (value: string | Buffer) => void {
  const insert = db.prepare(`INSERT INTO ${table} (${column}) VALUES (?)`);
  return (value) => {
    insert.run(value);
  };
}
