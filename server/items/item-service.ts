import type { Db } from '../../db/database';
import type { ItemSummary } from '../../shared/api/items';
import type { ChartType } from '../../shared/domain/chart-types';
import type { ItemOrigin, QuestionRelation } from '../../shared/domain/generation';
import { biasFlags } from '../../shared/generation/bias-guards';
import type { HqaItemDraft } from '../../shared/generation/item-draft';
import { atChartPrecision } from '../../shared/table/answer-precision';
import { runProgram } from '../../shared/table/program';
import type { Finding, LintCode } from '../../shared/table/lint';
import type { DataTable } from '../../shared/table/model';
import { verifyItem, type AnswerRule, type VerifierResult } from '../../shared/table/verify';
import type { QaWithChart } from '../charts/chart-queries';
import { questionRelation } from '../language/question-relation';
import { getProposal } from '../pool/pool-queries';
import { getSettings } from '../settings/settings-queries';
import { getItemSummary, insertItem, rejectedAssumptions } from './item-queries';
import { assumptionKey } from '../../shared/generation/assumption-key';
import { textAnswersAgree } from '../../shared/table/answer-compare';

/** Idempotency key of a generated item: one per proposal × factual QA, whatever run makes it. */
export const itemKey = (proposalId: number, qaId: number) => `p${proposalId}:q${qaId}`;

export type ItemDraftInput = Omit<HqaItemDraft, 'edit'> & { edit: HqaItemDraft['edit'] | null };

export interface NewItem {
  source: QaWithChart;
  draft: ItemDraftInput;
  origin: ItemOrigin;
  proposalId: number | null;
  runId: number | null;
  model: string | null;
  createdBy: number | null;
  idempotencyKey: string | null;
  /** Findings about how the item was read (see isReadingNote), kept with the verifier's lint. */
  notes?: Finding[];
}

/**
 * What a generated item whose assumption leaves the answer unchanged becomes: `drop` it (the
 * default: a benchmark of unchanged answers measures nothing), or keep it as a `control`.
 * People's items are always kept, flagged.
 */
export type UnchangedPolicy = 'keep' | 'drop' | 'control';

/** One chart as verification reads it. */
export interface VerifyChart {
  table: DataTable;
  chart_type: ChartType;
  title: string | null;
}

/**
 * What an item is verified over: its chart, or (for an item whose factual question spans a
 * chart group) the group's charts in position order. `QaWithChart` is one.
 */
export interface VerifySubject {
  chart: VerifyChart;
  group: { charts: readonly VerifyChart[] } | null;
}

/** Every table the item's program reads, unedited: the group's in order, or the chart's. */
export function subjectTables(subject: VerifySubject): DataTable | readonly DataTable[] {
  return subject.group ? subject.group.charts.map((chart) => chart.table) : subject.chart.table;
}

/** The settings the item checks read (shared/settings.ts); left out, their defaults. */
export interface ItemChecks {
  maxChangeShare?: number;
}

/** The item checks as the workbench's settings set them. */
export function itemChecks(db: Db): ItemChecks {
  return { maxChangeShare: getSettings(db).max_change_share };
}

/**
 * How a new item's answer is compared with the recomputed one: a person's answer (a
 * hand-written item's) is gold and compared at its own precision, a model's with ChartQA's
 * relaxed tolerance. Re-verification also counts an answer a curator edited as a person's
 * (reverify-queries.ts).
 */
export function answerRuleFor(origin: ItemOrigin): AnswerRule {
  return origin === 'human' ? 'precision' : 'relaxed';
}

/**
 * The one verification of an item against its chart or group: every input the verifier takes
 * (the tables, types, edit, program, answer, the assumption and title for the item lint, the
 * proposal for the consistency check). Creation and re-verification both call it.
 */
export function verifyStoredItem(
  subject: VerifySubject,
  item: { edit: unknown; program: string; answer: string; assumption: string; question?: string; answerRule?: AnswerRule; factual?: FactualQa },
  proposalText: string | null,
  checks: ItemChecks = {},
): VerifierResult {
  const result = verifySubject(subject, item, proposalText, checks);
  return item.factual ? withFactualReading(result, subject, item, item.factual) : result;
}

/** The factual question an item was made from, as imported. */
export interface FactualQa {
  query: string;
  label: string;
}

/**
 * An item that asks the factual question itself has a program that, on the unedited chart,
 * should give the factual label: one that gives another answer reads another series or row
 * than the question means (a colour guessed wrong, a garbled header read), or the label is
 * wrong. Either way a reviewer should look (a ChartQA label can be wrong, so not an error).
 */
function withFactualReading(result: VerifierResult, subject: VerifySubject, item: { assumption: string; question?: string }, factual: FactualQa): VerifierResult {
  if (result.original_answer === null || item.question === undefined) return result;
  if (questionRelation(factual.query, item.question, item.assumption) !== 'same') return result;
  const tables = subjectTables(subject);
  if (textAnswersAgree(factual.label, result.original_answer, Array.isArray(tables) ? tables : [tables as DataTable])) return result;
  const finding: Finding = {
    code: 'misses_factual_label',
    severity: 'warning',
    message: `the program gives ${result.original_answer} on the original chart, but the factual question's label is ${factual.label}: it may read another series or row than the question means`,
  };
  return { ...result, lint: [...result.lint, finding] };
}

function verifySubject(
  subject: VerifySubject,
  item: { edit: unknown; program: string; answer: string; assumption: string; question?: string; answerRule?: AnswerRule },
  proposalText: string | null,
  checks: ItemChecks,
): VerifierResult {
  const rest = {
    edit: item.edit,
    program: item.program,
    answer: item.answer,
    answerRule: item.answerRule ?? 'relaxed',
    assumption: item.assumption,
    proposal: proposalText,
    ...(item.question === undefined ? {} : { question: item.question }),
    ...(checks.maxChangeShare === undefined ? {} : { maxChangeShare: checks.maxChangeShare }),
  };
  if (subject.group) {
    return verifyItem({ group: subject.group.charts.map((chart) => ({ table: chart.table, chartType: chart.chart_type, title: chart.title ?? '' })), ...rest });
  }
  const { chart } = subject;
  return verifyItem({ table: chart.table, chartType: chart.chart_type, title: chart.title ?? '', ...rest });
}

/**
 * Findings about how an item was read rather than about its table (a model reply normalised):
 * no verification can recompute them, so every verdict stored for the item carries them on.
 */
const READING_NOTE_CODES: ReadonlySet<LintCode> = new Set(['edit_normalised', 'answer_rounded']);

export const isReadingNote = (finding: Finding) => READING_NOTE_CODES.has(finding.code);

/** A verdict with the item's reading notes after the verifier's own findings. */
export function withReadingNotes(verifier: VerifierResult, notes: readonly Finding[]): VerifierResult {
  return notes.length === 0 ? verifier : { ...verifier, lint: [...verifier.lint, ...notes] };
}

export type CreateItemResult = { ok: true; item: ItemSummary | null } | { ok: false; reason: string };

/**
 * Why a generated item is not stored, or null: its program or edit failed (the model's word that
 * the answer changed is not taken), an error-severity finding unless `keep_items_with_errors`,
 * or (policy `drop`) an assumption that leaves the answer as it was.
 */
function refusal(verifier: VerifierResult, policy: UnchangedPolicy, keepErrors: boolean, answerIsLabel: boolean): string | null {
  if (policy === 'keep') return null;
  if (verifier.error) {
    return `verifier_error: the ${verifier.error.stage} failed (${verifier.error.message}), so nothing could check the answer and no item was stored`;
  }
  const errors = verifier.lint.filter((finding) => finding.severity === 'error');
  if (errors.length > 0 && !keepErrors) {
    return `lint_error: ${errors.map((finding) => `${finding.code} (${finding.message})`).join('; ')}; no item was stored (settings keep_items_with_errors keeps such items, flagged)`;
  }
  if (policy === 'drop' && answerIsLabel) {
    return `answer_unchanged: the item's answer is the factual label itself, which a model answering from memory gives, so no item was stored`;
  }
  if (policy === 'drop' && verifier.answer_unchanged === true) {
    return `answer_unchanged: the assumption leaves the answer as it was (${verifier.original_answer ?? '?'} on the original table, ${verifier.recomputed_answer ?? '?'} on the edited one), so no item was stored`;
  }
  return null;
}

/** A generated item whose QA and assumption a reviewer already rejected is the same rejected item again. */
function repeatsRejected(db: Db, item: NewItem, policy: UnchangedPolicy): string | null {
  if (policy === 'keep') return null;
  const key = assumptionKey(item.draft.assumption);
  if (!rejectedAssumptions(db, item.source.qa.id).some((assumption) => assumptionKey(assumption) === key)) return null;
  return `repeats_rejected: a reviewer rejected an item with this QA and this assumption ("${item.draft.assumption}"); it is not made again under any proposal`;
}

/**
 * Verifies a draft (edit applied, program rerun on both tables, lint, proposal consistency),
 * classifies its question against the factual one, computes the bias guards and stores it.
 * `item: null` when the key already made an item (a resumed run), so nothing is made twice;
 * `ok: false` when a generated item is refused (see `refusal`).
 */
export function createItem(db: Db, given: NewItem, policy: UnchangedPolicy): CreateItemResult {
  const item = atChartPrecisionOf(given);
  const proposalText = item.proposalId === null ? null : (getProposal(db, item.proposalId)?.text ?? null);
  const settings = getSettings(db);
  const verifier = withReadingNotes(
    verifyStoredItem(item.source, { ...item.draft, edit: item.draft.edit, answerRule: answerRuleFor(item.origin), factual: item.source.qa }, proposalText, { maxChangeShare: settings.max_change_share }),
    item.notes ?? [],
  );
  const tables = subjectTables(item.source);
  const tableList = Array.isArray(tables) ? tables : [tables as DataTable];
  // A ChartQA label the table contradicts can equal a changed answer: the label is still what memory answers.
  const answerIsLabel = textAnswersAgree(item.source.qa.label, item.draft.answer, tableList);
  const refused = refusal(verifier, policy, settings.keep_items_with_errors, answerIsLabel) ?? repeatsRejected(db, item, policy);
  if (refused) return { ok: false, reason: refused };
  const unedited = runProgram(tables, item.draft.program);
  const flags = biasFlags({
    affectsAnswer: item.draft.affects_answer,
    answer: item.draft.answer,
    factualLabel: item.source.qa.label,
    recomputedAnswer: verifier.recomputed_answer,
    uneditedAnswer: unedited.ok ? unedited.answer : null,
    tables: tableList,
  });
  const relation: QuestionRelation = questionRelation(item.source.qa.query, item.draft.question, item.draft.assumption);
  const id = insertItem(db, {
    qaId: item.source.qa.id,
    chartId: item.source.chart.id,
    proposalId: item.proposalId,
    runId: item.runId,
    origin: item.origin,
    model: item.model,
    createdBy: item.createdBy,
    draft: item.draft,
    verifier,
    biasFlags: flags,
    idempotencyKey: item.idempotencyKey,
    questionRelation: relation,
    isControl: policy === 'control' && verifier.answer_unchanged === true,
  });
  return { ok: true, item: id === null ? null : getItemSummary(db, id) };
}

/**
 * A model's numeric answer with more decimals than the chart shows (15.62 on a chart of 14.2s),
 * rounded to them as ChartQA writes answers, with a note saying so; a person's answer is theirs.
 */
function atChartPrecisionOf(item: NewItem): NewItem {
  if (item.origin === 'human') return item;
  const tables = subjectTables(item.source);
  const rounded = atChartPrecision(item.draft.answer, Array.isArray(tables) ? tables : [tables as DataTable], item.source.qa.label);
  if (rounded === item.draft.answer) return item;
  const note: Finding = { code: 'answer_rounded', severity: 'info', message: `the answer ${item.draft.answer} was rounded to ${rounded}, the decimals the chart shows` };
  return { ...item, draft: { ...item.draft, answer: rounded }, notes: [...(item.notes ?? []), note] };
}

/** A person's item: always stored, whatever the verifier finds (its findings are shown to reviewers). */
export function createVerifiedItem(db: Db, item: NewItem): ItemSummary | null {
  const result = createItem(db, item, 'keep');
  return result.ok ? result.item : null;
}
