import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/database';
import type { GoldVerdicts } from '../../shared/api/gold';
import type { ReviewCriteria } from '../../shared/api/review';
import type { ChartType, TypeEvidence } from '../../shared/domain/chart-types';
import type { Engine, ItemStatus, ProposalOrigin, ProposalStatus, RunStage } from '../../shared/domain/generation';
import type { QaSource } from '../../shared/domain/qa';
import type { Role } from '../../shared/domain/roles';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { createChartWriter, getQaWithChart } from '../../server/charts/chart-queries';
import { numberOrText } from '../../shared/domain/answer-kind';
import { insertRun } from '../../server/generation/run-queries';
import { createVerifiedItem, type ItemDraftInput } from '../../server/items/item-service';
import { recordLlmCall, type LlmCallRecord } from '../../server/llm/llm-call-queries';
import { insertProposal } from '../../server/pool/pool-queries';
import { insertReflection, type ReflectionInsert } from '../../server/reflection/reflection-queries';
import { insertQueue, insertQueueMember, insertRetired, upsertAssignment } from '../../server/review/assignment-queries';
import { upsertGold } from '../../server/review/gold-queries';
import { insertLease, insertReview } from '../../server/review/review-queries';
import { setSplitArchived } from '../../server/splits/split-queries';
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

/** A chart group of the given charts, in that order (positions 1, 2, …), as a curator would make one. */
export function buildChartGroup(db: Db, { chartIds, split = 'test', name = unique('group') }: { chartIds: number[]; split?: string; name?: string }): number {
  const groupId = Number(db.prepare("INSERT INTO chart_groups (split, group_key, name, source) VALUES (?, ?, ?, 'curator')").run(split, name, name).lastInsertRowid);
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
