import type { ChartType } from '../../../shared/domain/chart-types';
import { OFFLINE_MODEL } from '../../../shared/domain/generation';
import { checkProposalConsistency } from '../../../shared/generation/proposal-consistency';
import { parseIntent, type Intent } from '../../../shared/generation/proposal-intent';
import { HqaItemDraftSchema } from '../../../shared/generation/item-draft';
import { classifyAnswer } from '../../../shared/table/answers';
import type { Edit } from '../../../shared/table/edit';
import type { DataTable } from '../../../shared/table/model';
import { runProgram } from '../../../shared/table/program';
import { rankColumn, selectRow, tableFacts, type ColumnFacts, type TableFacts } from '../../../shared/table/table-facts';
import { verifyItem, type VerifierResult } from '../../../shared/table/verify';
import { groupQuestionProgram, type ChartReading, type GroupQuestionProgram } from './group-question-program';
import { MAX_ALTERNATIVES, refused, type OfflineItemResult, type OfflineProposal } from './offline-item';
import { literal } from './phrasing';
import { planEdit, type EditPlan } from './plan-edit';
import { mulberry32, seedFor, shuffled, type Rng } from './rng';

/** One chart of the group, in position order. */
export interface OfflineGroupChart {
  table: DataTable;
  chartType: ChartType;
  title: string;
}

/** A group proposal with its chart type: the assumption edits a chart of that type (the pool keeps group proposals per type). */
export interface OfflineGroupProposal extends OfflineProposal {
  chartType: ChartType;
}

export interface OfflineGroupItemInput {
  charts: readonly OfflineGroupChart[];
  qa: { query: string; label: string };
  proposal: OfflineGroupProposal;
  /** Other group proposals of the group's chart types, tried in order when the task's cannot move this answer. */
  alternatives?: readonly OfflineGroupProposal[];
  seed: number;
  control?: boolean;
  /** Settings `max_change_share`, as for a one-chart item. */
  maxChangeShare?: number;
}

const ORDINALS = ['first', 'second', 'third', 'fourth'] as const;

/**
 * Stage 2 over a chart group without a model: the group question itself (group-question-
 * program.ts reads its form), asked under an assumption that edits ONE chart — a chart of the
 * proposal's type that the question reads — with the proposal's operation, so the answer
 * changes (a Yes/No comparison flips). Every op names that chart (`"chart": n`); the answer is
 * the verifier's, recomputed over the group. The single-chart path's edit builders and
 * phrasing do the change; only which chart, and the words that say so, are the group's.
 */
export function offlineGroupItem(input: OfflineGroupItemInput): OfflineItemResult {
  const tables = input.charts.map((chart) => chart.table);
  const factual = groupQuestionProgram(input.qa.query, tables, input.qa.label);
  if (!factual) {
    return { ok: false, cause: 'unprogrammable', reason: `the offline engine cannot turn the group question into a program that reproduces its label ("${input.qa.label}"): it reads only the difference, comparison, total and "when … was highest" forms over two charts` };
  }
  const reasons: string[] = [];
  // Proposals whose operation the rules read and could try here: none, and the question's answer is still open.
  let tried = 0;
  for (const proposal of [input.proposal, ...(input.alternatives ?? []).slice(0, MAX_ALTERNATIVES)]) {
    const readable = factual.reads.filter((reading) => input.charts[reading.chart - 1]?.chartType === proposal.chartType);
    if (readable.length === 0) {
      reasons.push(`proposal ${proposal.id}: the question reads no ${proposal.chartType} chart of the group, so a ${proposal.chartType} proposal has no chart to edit`);
      continue;
    }
    const intent = parseIntent(proposal.text);
    if (intent.kind === null) {
      reasons.push(`proposal ${proposal.id}: its operation is not one the rules can perform`);
      continue;
    }
    const named = namedChart(proposal.text);
    const readings = named === null ? readable : readable.filter((reading) => reading.chart === named);
    if (readings.length === 0) {
      reasons.push(`proposal ${proposal.id}: it names chart ${named ?? '?'}, which is not a ${proposal.chartType} chart the question reads`);
      continue;
    }
    tried++;
    const rng = mulberry32(seedFor(input.seed, String(proposal.id), input.qa.query, proposal.chartType));
    let found: Found | null = null;
    for (const reading of shuffled(rng, readings)) {
      found = planOnChart(input, factual, reading, intent, proposal, rng);
      if (found) break;
    }
    if (!found) {
      reasons.push(`proposal ${proposal.id}: no ${intent.kind} edit of one chart ${input.control ? 'leaves' : 'changes'} the answer within the chart's structure`);
      continue;
    }
    const draft = draftOf(input, factual, found);
    if (draft.ok) return { ok: true, draft: draft.draft, proposalId: proposal.id };
    reasons.push(`proposal ${proposal.id}: ${draft.reason}`);
  }
  return { ok: false, cause: tried === 0 ? 'unreadable_operations' : 'no_operation', reason: `no proposal's operation could be made on this group question (${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? '; …' : ''})` };
}

interface Found {
  chart: number;
  plan: EditPlan;
  edit: Edit;
  assumption: string;
  verdict: VerifierResult;
}

/** "In the second chart": a proposal that names its chart edits only that one. */
function namedChart(text: string): number | null {
  const match = /\b(first|second|third|fourth) chart\b/i.exec(text);
  return match?.[1] ? ORDINALS.indexOf(match[1].toLowerCase() as (typeof ORDINALS)[number]) + 1 : null;
}

/** The first edit of `reading.chart`, of the proposal's kind and consistent with it, that moves (or for a control keeps) the answer. */
function planOnChart(input: OfflineGroupItemInput, factual: GroupQuestionProgram, reading: ChartReading, intent: Intent, proposal: OfflineGroupProposal, rng: Rng): Found | null {
  const chart = input.charts[reading.chart - 1];
  if (!chart) return null;
  const facts = tableFacts(chart.table, chart.chartType, chart.title);
  const columns = facts.columns.filter((column) => column.name === reading.series);
  if (columns.length === 0) return null;
  const group = input.charts.map((member) => ({ table: member.table, chartType: member.chartType, title: member.title }));
  const holder: { found?: Found } = {};
  const accept = (plan: EditPlan) => {
    if (checkProposalConsistency(proposal.text, chart.chartType, chart.table, plan.edit).consistent !== true) return false;
    const edit = onChart(plan.edit, reading.chart);
    const assumption = inChart(plan.assumption, reading.chart);
    const verdict = verifyItem({ group, edit, program: factual.program, answer: '', assumption, question: input.qa.query, maxChangeShare: input.maxChangeShare });
    if (verdict.recomputed_answer === null || verdict.answer_unchanged === null) return false;
    // A reviewer rejects what the checks call an error: the rules never write one.
    if (verdict.lint.some(refused)) return false;
    if (verdict.answer_unchanged !== (input.control === true)) return false;
    // "When S1 was highest": two rows sharing the highest value leave the question without an answer.
    if (factual.form === 'at_highest' && reading.chart === 1 && tiedPeak(plan.edited, reading.series)) return false;
    holder.found = { chart: reading.chart, plan, edit, assumption, verdict };
    return true;
  };
  const plan = planEdit(facts, columns, (column) => focusRows(facts, column, intent, reading, rng), intent, rng, { strict: true, accept, questionRows: reading.rows });
  return plan && holder.found ? holder.found : null;
}

/** The row a proposal's rank names, else the rows the question reads there, else (unless it acts on the asked element) any. */
function focusRows(facts: TableFacts, column: ColumnFacts, intent: Intent, reading: ChartReading, rng: Rng): string[] {
  const selected = intent.selectors[0] ? selectRow(facts, rankColumn(facts, column, intent.kind), intent.selectors[0]) : null;
  if (selected !== null) return [selected];
  const labels = column.cells.map((cell) => cell.label);
  const read = reading.rows.filter((row) => labels.includes(row));
  if (intent.asked) return read;
  return [...new Set([...read, ...shuffled(rng, labels)])];
}

function tiedPeak(table: DataTable, series: string): boolean {
  const list = `series(${literal(series)})`;
  const ties = runProgram(table, `count(where(${list}, "==", max(${list})))`);
  return ties.ok && typeof ties.value === 'number' && ties.value > 1;
}

/** The ops of a single-chart edit, each naming the group chart it changes. */
export function onChart(edit: Edit, chart: number): Edit {
  return edit.map((op) => ({ ...op, chart }));
}

/** "Suppose X were doubled." → "Suppose that, in the second chart, X were doubled." */
export function inChart(assumption: string, chart: number): string {
  const ordinal = ORDINALS[chart - 1] ?? `number ${chart}`;
  const rest = assumption.replace(/^Suppose (that )?/, '');
  return rest === assumption ? `In the ${ordinal} chart: ${assumption}` : `Suppose that, in the ${ordinal} chart, ${rest}`;
}

function draftOf(input: OfflineGroupItemInput, factual: GroupQuestionProgram, found: Found): { ok: true; draft: OfflineDraft } | { ok: false; reason: string } {
  const { verdict, plan, chart, edit, assumption } = found;
  const answer = verdict.recomputed_answer ?? '';
  const before = verdict.original_answer ?? factual.answer;
  const ordinal = ORDINALS[chart - 1] ?? `number ${chart}`;
  const rationale =
    `Offline rule engine (${OFFLINE_MODEL}): template-based, not a language model. ` +
    `Under the assumption, in the ${ordinal} chart ${plan.effect}; the other charts stay as they are. ` +
    `Computed by ${factual.program} over the group with that chart changed, the answer is then ${answer}; ` +
    `on the original charts the same question gives ${before}${input.control ? ', so the assumption does not change the answer (a control question)' : ''}.`;
  const draft = HqaItemDraftSchema.safeParse({
    assumption,
    question: `${assumption} ${factual.hypothetical}`,
    answer,
    answer_type: classifyAnswer(answer),
    rationale,
    affects_answer: verdict.answer_unchanged === false,
    edit,
    program: factual.program,
  });
  if (!draft.success) {
    return { ok: false, reason: `the item does not fit the item schema (${draft.error.issues[0]?.path.join('.') ?? 'item'}: ${draft.error.issues[0]?.message ?? 'invalid'}); labels may be too long` };
  }
  return { ok: true, draft: draft.data };
}

type OfflineDraft = Extract<OfflineItemResult, { ok: true }>['draft'];
