import type { ChartType } from '../../../shared/domain/chart-types';
import { OFFLINE_MODEL } from '../../../shared/domain/generation';
import { checkProposalConsistency } from '../../../shared/generation/proposal-consistency';
import { parseIntent, type Intent } from '../../../shared/generation/proposal-intent';
import { HqaItemDraftSchema, type HqaItemDraft } from '../../../shared/generation/item-draft';
import { classifyAnswer } from '../../../shared/table/answers';
import type { DataTable } from '../../../shared/table/model';
import { atChartPrecision } from '../../../shared/table/answer-precision';
import { runProgram, type Scalar } from '../../../shared/table/program';
import { mentionedLabel, rankColumn, selectRow, tableFacts, type ColumnFacts, type TableFacts } from '../../../shared/table/table-facts';
import { verifyItem, type VerifierResult } from '../../../shared/table/verify';
import type { Finding } from '../../../shared/table/lint';
import { hypotheticalQuestion } from './hypothetical-question';
import { capitalize, withoutFootnote } from './phrasing';
import { assumptionKey } from '../../../shared/generation/assumption-key';
import { planEdit, type EditPlan } from './plan-edit';
import { asksStatedValue, asksWhatColourStandsFor, labelDisagreement, standInPrograms } from './label-reading';
import { questionProgram, type QuestionProgram } from './question-program';
import { mulberry32, seedFor, shuffled, type Rng } from './rng';

export interface OfflineProposal {
  id: number;
  text: string;
}

export interface OfflineItemInput {
  table: DataTable;
  chartType: ChartType;
  title: string;
  /** The factual QA the item is built from. */
  qa: { query: string; label: string };
  /** The proposal the task pairs with the QA. */
  proposal: OfflineProposal;
  /** Other proposals of the pool, tried in order when the task's cannot change this question's answer. */
  alternatives?: readonly OfflineProposal[];
  seed: number;
  /** Look for an assumption that leaves the answer as it was (a control question) instead of one that changes it. */
  control?: boolean;
  /** Assumptions reviewers rejected for this QA: the rules never write one of them again, under any proposal. */
  rejectedAssumptions?: readonly string[];
  /** Settings `max_change_share`: the rules move a value no further than the server's checks allow (left out, the default). */
  maxChangeShare?: number;
  /**
   * For a model task's pairing: when the question cannot be programmed, also find the proposals
   * that move a program reproducing its label (`movers`). The offline engine's own items do not
   * need them, so they are not searched for there.
   */
  findMovers?: boolean;
}

/**
 * Why the rules made no item, for callers that act on it (a model task's pairing,
 * `server/generation/pairing.ts`): `no_numbers`, the table has nothing to compute; `unprogrammable`,
 * the question could not be turned into a program that reproduces its label, so the rules cannot
 * tell which operation moves its answer; `label_disagrees`, it could not be programmed because its
 * plainest reading gives another answer than its label (the label is wrong); `answer_given_away`,
 * it asks whether a value is a stated number, or which row holds a stated value, which any
 * assumption answers; `about_the_drawing`, it asks what a colour stands for, which no data edit
 * moves; `no_operation`, it was programmed, but no proposal tried
 * has an edit that moves (for a control, keeps) its answer and passes every check;
 * `unreadable_operations`, it was programmed, but the rules could read the operation of no
 * proposal tried, so they cannot tell whether one moves its answer.
 */
export const OFFLINE_FAILURE_CAUSES = ['no_numbers', 'unprogrammable', 'label_disagrees', 'answer_given_away', 'about_the_drawing', 'no_operation', 'unreadable_operations'] as const;
export type OfflineFailureCause = (typeof OFFLINE_FAILURE_CAUSES)[number];

/**
 * `movers`, for an unprogrammable question: proposals whose operation moves the answer of a
 * program that reproduces the label without reading the question (label-reading.ts), the
 * likeliest to work for a model that reads it.
 */
export type OfflineItemResult =
  | { ok: true; draft: HqaItemDraft; proposalId: number }
  /** `countsRows`: the question counts the chart's rows or series, which only adding or removing one moves. */
  | { ok: false; reason: string; cause: OfflineFailureCause; movers?: number[]; countsRows?: true };

/**
 * Findings the rules never write an item with: every error (what a strict reviewer rejects), a
 * program reading a series the question does not name, which for the rules is a guess, and a
 * whole left standing while its part moved (a warning for a model's item, which may mean it;
 * the rules move the whole with the part, so one left stale is an edit they did not mean).
 */
export const refused = (finding: Finding) => finding.severity === 'error' || finding.code === 'reads_other_label' || finding.code === 'total_stale';

/** Alternatives tried after the task's own proposal: enough to find an operation that moves most answers. */
export const MAX_ALTERNATIVES = 30;

/**
 * Stage 2 without a model: the factual question itself, asked under an assumption that
 * performs the proposal's operation and changes the question's answer. The question's
 * program comes from its words (question-program.ts) and must reproduce the factual label;
 * the edit is the proposal's operation only, on the rows its ranks name; the answer is the
 * verifier's — the same program run on the edited table. No item when the question cannot be
 * programmed or no proposal's operation moves its answer: asking another question instead
 * would be another task.
 */
export function offlineItem(input: OfflineItemInput): OfflineItemResult {
  const facts = tableFacts(input.table, input.chartType, input.title);
  if (facts.columns.length === 0) {
    return { ok: false, cause: 'no_numbers', reason: 'the data table has no series with at least two numbers, so the offline engine has nothing to compute' };
  }
  const factual = questionProgram(input.qa.query, input.qa.label, input.table, input.chartType);
  if (!factual) {
    const disagreement = labelDisagreement(input.qa.query, input.qa.label, input.table, input.chartType);
    if (disagreement) {
      return { ok: false, cause: 'label_disagrees', reason: `the factual label ("${input.qa.label}") disagrees with the table, which gives ${disagreement.value} for ${disagreement.reading}: an item would ask a question whose factual answer is wrong` };
    }
    if (asksWhatColourStandsFor(input.qa.query, input.qa.label, input.table)) {
      return { ok: false, cause: 'about_the_drawing', reason: `the factual question asks what a colour stands for (its label: "${input.qa.label}"), which no change to the data moves` };
    }
    if (asksStatedValue(input.qa.query, input.qa.label, input.table)) {
      return { ok: false, cause: 'answer_given_away', reason: `the factual question asks whether a value is a stated number (its label: "${input.qa.label}"): an assumption that moves it answers No, one that sets it answers Yes, from the assumption alone` };
    }
    return {
      ok: false,
      cause: 'unprogrammable',
      reason: `the offline engine cannot turn the factual question into a program that reproduces its label ("${input.qa.label}"), so it asks nothing rather than another question`,
      ...(input.findMovers === true ? { movers: movers(input, facts) } : {}),
    };
  }
  const reasons: string[] = [];
  // Proposals whose operation the rules read and could try here: none, and the question's answer is still open.
  let tried = 0;
  for (const proposal of [input.proposal, ...(input.alternatives ?? []).slice(0, MAX_ALTERNATIVES)]) {
    const intent = parseIntent(proposal.text);
    if (intent.kind === null) {
      reasons.push(`proposal ${proposal.id}: its operation is not one the rules can perform`);
      continue;
    }
    tried++;
    const rng = mulberry32(seedFor(input.seed, String(proposal.id), input.qa.query, input.chartType));
    const found = planFor(input, facts, factual, intent, proposal, rng);
    if (!found) {
      reasons.push(`proposal ${proposal.id}: no ${intent.kind} edit ${input.control ? 'leaves' : 'changes'} the answer within the chart's structure`);
      continue;
    }
    const draft = draftOf(input, factual, found.plan, found.verdict);
    if (draft.ok) return { ok: true, draft: draft.draft, proposalId: proposal.id };
    reasons.push(`proposal ${proposal.id}: ${draft.reason}`);
  }
  // "Which year had 9.4?": moving that value leaves no row with it, setting another to it names the answer.
  if (tried > 0 && factual.shape === 'row_of_value') {
    return { ok: false, cause: 'answer_given_away', reason: `the factual question asks which row holds a stated value, and no proposal's operation changes its answer without an assumption that names it (${reasons.slice(0, 2).join('; ')})` };
  }
  return {
    ok: false,
    cause: tried === 0 ? 'unreadable_operations' : 'no_operation',
    reason: `no proposal's operation could be made on this question (${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? '; …' : ''})`,
    ...(factual.shape === 'count_rows' ? { countsRows: true as const } : {}),
  };
}

/** How many proposals a stand-in search looks for: a choice list's worth. */
const MAX_MOVERS = 5;

/**
 * The proposals (the task's own, then the alternatives) whose operation moves (for a control,
 * keeps) the answer of a stand-in program, at most MAX_MOVERS, in the order tried.
 */
function movers(input: OfflineItemInput, facts: TableFacts): number[] {
  const standIns = standInPrograms(input.qa.label, input.table).slice(0, 3);
  if (standIns.length === 0) return [];
  const out: number[] = [];
  for (const proposal of [input.proposal, ...(input.alternatives ?? []).slice(0, MAX_ALTERNATIVES)]) {
    const intent = parseIntent(proposal.text);
    if (intent.kind === null) continue;
    const rng = mulberry32(seedFor(input.seed, String(proposal.id), input.qa.query, input.chartType));
    if (standIns.some((standIn) => planFor(input, facts, standIn, intent, proposal, rng) !== null)) out.push(proposal.id);
    if (out.length >= MAX_MOVERS) break;
  }
  return out;
}

/** The first edit of the proposal's kind, consistent with it, that moves (or, for a control, keeps) the factual answer. */
function planFor(
  input: OfflineItemInput,
  facts: TableFacts,
  factual: QuestionProgram,
  intent: Intent,
  proposal: OfflineProposal,
  rng: Rng,
): { plan: EditPlan; verdict: VerifierResult } | null {
  // Set by `accept` for the plan it accepts, so the verdict is not computed twice.
  const found: { verdict?: VerifierResult } = {};
  const rejected = new Set((input.rejectedAssumptions ?? []).map(assumptionKey));
  const before = runProgram(input.table, factual.program);
  const accept = (plan: EditPlan) => {
    // Most edits tried leave the answer exactly as it was: seen from the program alone, before the full checks.
    if (input.control !== true && before.ok && sameValue(before.value, runProgram(plan.edited, factual.program))) return false;
    if (checkProposalConsistency(proposal.text, input.chartType, input.table, plan.edit).consistent !== true) return false;
    if (rejected.has(assumptionKey(plan.assumption))) return false;
    const result = verifyItem({ table: input.table, chartType: input.chartType, edit: plan.edit, program: factual.program, answer: '', title: input.title, assumption: plan.assumption, question: input.qa.query, proposal: proposal.text, maxChangeShare: input.maxChangeShare });
    if (result.recomputed_answer === null || result.answer_unchanged === null) return false;
    // A reviewer rejects these whatever the proposal: the answer given away, a value no such chart shows.
    // A reviewer rejects what the checks call an error: the rules never write one.
    // A series the question does not name, read because the factual label is found on it alone, is not a guess.
    if (result.lint.some((finding) => refused(finding) && !(finding.code === 'reads_other_label' && finding.severity === 'warning' && factual.seriesSettledByLabel === true))) return false;
    if (result.answer_unchanged !== (input.control === true)) return false;
    if (tiedWinner(factual.program, plan.edited)) return false;
    // "The median of all three data values" asked of two, "the two smallest" of tied bars: another question.
    if (factual.conditions?.some((condition) => !holds(plan.edited, condition))) return false;
    found.verdict = result;
    return true;
  };
  const plan = planEdit(facts, columnsFor(facts, factual, intent, rng), (column) => focusRows(facts, column, intent, factual, rng), intent, rng, { strict: true, accept, questionRows: factual.rows });
  return plan && found.verdict ? { plan, verdict: found.verdict } : null;
}

/** The program gives exactly the value it gave before: unchanged under any tolerance the verifier applies. */
function sameValue(before: Scalar, after: ReturnType<typeof runProgram>): boolean {
  return after.ok && after.value === before;
}

function holds(table: DataTable, condition: string): boolean {
  const result = runProgram(table, condition);
  return result.ok && result.value === true;
}

/**
 * "Which is the largest?" has no answer when two are equal: an argmax or argmin whose best
 * value is shared on the edited table makes an ambiguous item.
 */
function tiedWinner(program: string, table: DataTable): boolean {
  const match = /^arg(max|min)\((.*)\)$/s.exec(program.trim());
  if (!match?.[2]) return false;
  const list = match[2];
  const ties = runProgram(table, `count(where(${list}, "==", ${match[1]}(${list})))`);
  return ties.ok && typeof ties.value === 'number' && ties.value > 1;
}

/** The series the question reads first (its answer moves with them), then the others. */
function columnsFor(facts: TableFacts, factual: QuestionProgram, intent: Intent, rng: Rng): ColumnFacts[] {
  // "The horizontal value of the point": the proposal names the series, and only it may change.
  const byAxis = intent.axis === null ? null : (facts.table.series[intent.axis] ?? null);
  if (byAxis !== null && facts.table.series.length > 1) return facts.columns.filter((column) => column.name === byAxis);
  const first = facts.columns.filter((column) => factual.series.includes(column.name));
  return [...first, ...shuffled(rng, facts.columns.filter((column) => !first.includes(column)))];
}

/**
 * Rows to change, most promising first: the row the proposal's rank names (then the only
 * one), else the rows the question reads and the row its answer names, else any.
 */
function focusRows(facts: TableFacts, column: ColumnFacts, intent: Intent, factual: QuestionProgram, rng: Rng): string[] {
  const labels = column.cells.map((cell) => cell.label);
  const named = [...factual.rows, mentionedLabel(factual.answer, labels), extremeRow(facts.table, factual), ...countedRows(column, factual)].filter(
    (label): label is string => label !== null && labels.includes(label),
  );
  // "The bar the question asks about": only the question's own rows (a rank it names is the partner).
  if (intent.asked) return [...new Set(named)];
  const selected = intent.selectors[0] ? selectRow(facts, rankColumn(facts, column, intent.kind), intent.selectors[0]) : null;
  if (selected !== null) return [selected];
  return [...new Set([...named, ...shuffled(rng, labels)])];
}

const COUNT_WHERE = /^count\(where\(series\((?:"(?:[^"\\]|\\.)*")?\), "(>|<|>=|<=|==|!=)", (-?\d+(?:\.\d+)?)\)\)$/;

/** "For how many years is the score 70?" asks about the rows it counts: those that meet the condition. */
function countedRows(column: ColumnFacts, factual: QuestionProgram): string[] {
  if (factual.shape !== 'count_where') return [];
  const match = COUNT_WHERE.exec(factual.program.trim());
  if (!match?.[1] || match[2] === undefined || (factual.series.length > 0 && !factual.series.includes(column.name))) return [];
  const op = match[1];
  const n = Number(match[2]);
  const meets = (v: number) => (op === '>' ? v > n : op === '<' ? v < n : op === '>=' ? v >= n : op === '<=' ? v <= n : op === '==' ? v === n : v !== n);
  return column.cells.filter((cell) => meets(cell.value)).map((cell) => cell.label);
}

/** "What is the highest number …?" reads the highest row: the row holding the value a max or min question answers with. */
function extremeRow(table: DataTable, factual: QuestionProgram): string | null {
  if (factual.shape !== 'max' && factual.shape !== 'min') return null;
  const result = runProgram(table, factual.program.replace(/^(max|min)\(/, 'arg$1('));
  return result.ok && typeof result.value === 'string' ? result.value : null;
}

function draftOf(input: OfflineItemInput, factual: QuestionProgram, plan: EditPlan, verdict: VerifierResult): { ok: true; draft: HqaItemDraft } | { ok: false; reason: string } {
  // "2018*" is the row's label; the benchmark's answer is the year (the verifier compares the two as one label).
  const answer = atChartPrecision(withoutFootnote(verdict.recomputed_answer ?? ''), [input.table], input.qa.label);
  const before = verdict.original_answer ?? factual.answer;
  const question = hypotheticalQuestion(input.qa.query, [...input.table.series, ...input.table.rows.map((row) => row.label)]);
  const rationale =
    `Offline rule engine (${OFFLINE_MODEL}): template-based, not a language model. ` +
    `Under the assumption, ${plan.effect}. ${capitalize(explain(factual, answer))}; ` +
    `on the original chart the same question gives ${before}${input.control ? ', so the assumption does not change the answer (a control question)' : ''}.`;
  const draft = HqaItemDraftSchema.safeParse({
    assumption: plan.assumption,
    question: `${plan.assumption} ${question}`,
    answer,
    answer_type: classifyAnswer(answer),
    rationale,
    affects_answer: verdict.answer_unchanged === false,
    edit: plan.edit,
    program: factual.program,
  });
  if (!draft.success) {
    return { ok: false, reason: `the item does not fit the item schema (${draft.error.issues[0]?.path.join('.') ?? 'item'}: ${draft.error.issues[0]?.message ?? 'invalid'}); labels may be too long` };
  }
  return { ok: true, draft: draft.data };
}

/** The computation in words, for the rationale. */
function explain(factual: QuestionProgram, answer: string): string {
  const words: Record<QuestionProgram['shape'], string> = {
    lookup: 'the value asked about is then',
    argmax: 'the highest is then',
    argmin: 'the lowest is then',
    second_max: 'the second highest is then',
    second_min: 'the second lowest is then',
    max: 'the highest value is then',
    min: 'the lowest value is then',
    row_argmax: 'the highest series of that row is then',
    row_argmin: 'the lowest series of that row is then',
    difference: 'the difference is then',
    change: 'the change is then',
    sum: 'the sum is then',
    average: 'the average is then',
    median: 'the median is then',
    ratio: 'the ratio is then',
    count_where: 'the count is then',
    count_rows: 'the count is then',
    compare: 'the comparison then gives',
    row_of_value: 'the row holding that value is then',
  };
  return `computed by ${factual.program} on the changed table, ${words[factual.shape]} ${answer}`;
}
