import type { ChartType } from '../../../shared/domain/chart-types';
import { OFFLINE_MODEL } from '../../../shared/domain/generation';
import { HqaItemDraftSchema, type HqaItemDraft } from '../../../shared/generation/item-draft';
import { classifyAnswer, RELAXED_TOLERANCE, relaxedCorrect } from '../../../shared/table/answers';
import type { DataTable } from '../../../shared/table/model';
import { runProgram } from '../../../shared/table/program';
import { parseIntent, type Intent } from '../../../shared/generation/proposal-intent';
import { capitalize } from './phrasing';
import { planEdit, type EditPlan } from './plan-edit';
import { questionCandidates, type QuestionCandidate } from './questions';
import { mulberry32, pick, seedFor, shuffled, type Rng } from './rng';
import { mentionedLabel, selectRow, tableFacts, type ColumnFacts, type TableFacts } from '../../../shared/table/table-facts';

export interface OfflineItemInput {
  table: DataTable;
  chartType: ChartType;
  title: string;
  /** The factual QA the item is built from. */
  qa: { query: string; label: string };
  proposal: { id: string | number; text: string };
  seed: number;
}

export type OfflineItemResult = { ok: true; draft: HqaItemDraft } | { ok: false; reason: string };

/**
 * How often the engine asks, on purpose, a question the assumption leaves unchanged. The
 * benchmark is about answers that change, but a few controls show whether a model
 * recomputes or merely assumes that everything changed.
 */
export const UNCHANGED_SHARE = 0.15;

/**
 * How often the engine asks the factual question itself under the assumption, when one of
 * its templates reproduces the factual label. Always would make most items lookups ("what
 * would X be?"), since most ChartQA questions are.
 */
export const FACTUAL_SHARE = 0.5;

interface Scored extends QuestionCandidate {
  answer: string;
  original: string;
  changed: boolean;
}

/**
 * Stage 2 without a model: a template item for one factual QA. The edit follows the
 * proposal's operation where its words name one (else the chart type's default), the
 * question comes from a template, and the answer is computed by running the item's program
 * on the edited table. `affects_answer` compares the same program on the original table —
 * it is about the generated question, since the factual question has no program.
 */
export function offlineItem(input: OfflineItemInput): OfflineItemResult {
  const facts = tableFacts(input.table, input.chartType, input.title);
  if (facts.columns.length === 0) {
    return { ok: false, reason: 'the data table has no series with at least two numbers, so the offline engine has nothing to compute' };
  }
  const rng = mulberry32(seedFor(input.seed, String(input.proposal.id), input.qa.query, input.chartType));
  const intent = parseIntent(input.proposal.text);
  const askedIn = (column: ColumnFacts) => mentionedLabel(input.qa.query, column.cells.map((cell) => cell.label));
  const plan = makePlan(facts, intent, input.qa.query, rng);
  if (!plan) return { ok: false, reason: 'no change to this table passes the layout lint (shares, sums, counts), so the offline engine made no item' };

  const scored = questionCandidates(facts, plan, askedIn(plan.column)).flatMap((candidate) => score(candidate, input.table, plan.edited));
  const chosen = choose(scored, input.qa.label, rng);
  if (!chosen) return { ok: false, reason: 'no question template could be computed on this table' };

  const run = (program: string) => {
    const result = runProgram(plan.edited, program);
    return result.ok ? result.answer : '?';
  };
  const rationale =
    `Offline rule engine (${OFFLINE_MODEL}): template-based, not a language model. ` +
    `Under the assumption, ${plan.effect}. ${capitalize(chosen.explain(chosen.answer, run))}. ` +
    `On the original chart the same question gives ${chosen.original}, ${sameOrNot(chosen)}.`;
  const draft = HqaItemDraftSchema.safeParse({
    assumption: plan.assumption,
    question: `${plan.assumption} ${chosen.text}`,
    answer: chosen.answer,
    answer_type: classifyAnswer(chosen.answer),
    rationale,
    affects_answer: chosen.changed,
    edit: plan.edit,
    program: chosen.program,
  });
  if (!draft.success) {
    return { ok: false, reason: `the item does not fit the item schema (${draft.error.issues[0]?.path.join('.') ?? 'item'}: ${draft.error.issues[0]?.message ?? 'invalid'}); labels may be too long` };
  }
  return { ok: true, draft: draft.data };
}

function sameOrNot(chosen: Scored): string {
  if (chosen.changed) return 'so the assumption changes the answer';
  if (chosen.original === chosen.answer) return 'so the assumption does not change the answer';
  return `which relaxed matching (within ${RELAXED_TOLERANCE * 100}%) counts as the same answer, so the assumption does not change it`;
}

/** The column the factual QA names (else the proposal's axis, else a seeded one), and the row to change in it. */
function makePlan(facts: TableFacts, intent: Intent, query: string, rng: Rng): EditPlan | null {
  const named = mentionedLabel(query, facts.columns.map((column) => column.name));
  const byAxis = intent.axis === null ? null : facts.table.series[intent.axis];
  const first = facts.columns.find((column) => column.name === named) ?? facts.columns.find((column) => column.name === byAxis) ?? pick(rng, facts.columns);
  const columns = [first, ...shuffled(rng, facts.columns.filter((column) => column !== first))];
  return planEdit(facts, columns, (column) => focusRow(facts, column, intent, query, rng), intent, rng);
}

/**
 * The row to change: the one the proposal picks by rank ("the largest bar"), else the one the
 * factual question names (questions then ask about it either way), else a seeded choice.
 */
function focusRow(facts: TableFacts, column: ColumnFacts, intent: Intent, query: string, rng: Rng): string {
  const labels = column.cells.map((cell) => cell.label);
  const selected = intent.selectors[0] ? selectRow(facts, column, intent.selectors[0]) : null;
  return selected ?? mentionedLabel(query, labels) ?? pick(rng, labels);
}

function score(candidate: QuestionCandidate, original: DataTable, edited: DataTable): Scored[] {
  const after = runProgram(edited, candidate.program);
  const before = runProgram(original, candidate.program);
  if (!after.ok || !before.ok) return [];
  return [{ ...candidate, answer: after.answer, original: before.answer, changed: !relaxedCorrect(after.answer, before.answer) }];
}

/**
 * Mostly a question the assumption changes, now and then one it does not. Within that pool,
 * half the time a question whose original answer is the factual label comes first (it is
 * then, most likely, the factual question itself made hypothetical); else a template at random.
 */
function choose(scored: Scored[], factualLabel: string, rng: Rng): Scored | null {
  const changed = scored.filter((candidate) => candidate.changed);
  const unchanged = scored.filter((candidate) => !candidate.changed);
  const wantUnchanged = rng() < UNCHANGED_SHARE;
  const pool = (wantUnchanged && unchanged.length > 0) || changed.length === 0 ? unchanged : changed;
  if (pool.length === 0) return null;
  // A Yes/No label matches half of all comparisons by chance: it says nothing about the question.
  const telling = classifyAnswer(factualLabel) !== 'boolean' && rng() < FACTUAL_SHARE;
  const factual = telling ? pool.filter((candidate) => relaxedCorrect(candidate.original, factualLabel)) : [];
  const from = factual.length > 0 ? factual : pool;
  const template = pick(rng, [...new Set(from.map((candidate) => candidate.template))]);
  return from.find((candidate) => candidate.template === template) ?? null;
}
