import type { FeedbackEntry } from '../../shared/api/reflection';
import type { ChartType } from '../../shared/domain/chart-types';
import type { HqaItemDraft } from '../../shared/generation/item-draft';
import { applyEdit } from '../../shared/table/edit';
import { labelText } from '../../shared/table/edit-apply';
import { findLabelIndex, normalizeLabel } from '../../shared/table/labels';
import type { DataTable } from '../../shared/table/model';
import { runProgram } from '../../shared/table/program';
import { programReads } from '../../shared/table/program/reads';
import { nearHundred, sumOf } from '../../shared/table/wholes';
import { demoCharts } from '../../server/demo/demo-charts';
import { offlineItem } from '../../server/generation/offline/offline-item';
import { reviseFromFeedback, type FeedbackRuleId } from '../../server/reflection/feedback-rules';

/**
 * Does a revision change what comes next? For each class of reviewers' feedback: a proposal
 * whose items show that fault, rejected with words of that class, revised by the offline
 * reviser, then both run by the offline rules over the demo's charts — the share of items with
 * the fault before and after. The reflection test asserts on it; `npm run bench:reflection-effect` prints it.
 */

export interface FeedbackClass {
  rule: FeedbackRuleId;
  /** A reviewer's words of this class. */
  comment: string;
  proposal: { text: string; chart_type: ChartType };
  /** The charts it runs over. */
  types: readonly ChartType[];
  /** Whether an item shows the fault. */
  fault: (item: ItemOnChart) => boolean;
}

export interface ItemOnChart {
  draft: HqaItemDraft;
  table: DataTable;
  edited: DataTable;
}

const PERCENT_CELL = /%\s*\*?$/;

/** A cell moved by more than 20 % of itself (5 points for a share). */
function largeChange({ table, edited }: ItemOnChart): boolean {
  return edited.rows.some((row) => {
    const before = table.rows.find((r) => r.label === row.label);
    if (!before) return false;
    return row.values.some((after, e) => {
      const s = table.series.indexOf(edited.series[e] ?? '');
      const was = s === -1 ? null : (before.values[s] ?? null);
      if (after === null || was === null || after === was) return false;
      return PERCENT_CELL.test((before.raw[s] ?? '').trim()) ? Math.abs(after - was) > 5 + 1e-9 : Math.abs(after - was) > 0.2 * Math.abs(was) + 1e-9;
    });
  });
}

export const FEEDBACK_CLASSES: readonly FeedbackClass[] = [
  {
    rule: 'implausible_change',
    comment: 'Not plausible: far too large a change for this chart.',
    proposal: { text: 'Suppose the median bar were doubled.', chart_type: 'vertical_bar' },
    types: ['vertical_bar', 'horizontal_bar'],
    fault: largeChange,
  },
  {
    rule: 'states_answer',
    comment: 'The answer is stated in the assumption: it sets the value and asks it back.',
    proposal: { text: 'Set the smallest bar equal to the second-smallest bar.', chart_type: 'vertical_bar' },
    types: ['vertical_bar', 'horizontal_bar'],
    fault: ({ draft, edited }) => {
      const reads = programReads(draft.program, edited);
      if (reads === null) return false;
      const read = new Set(reads.cells.map(([r, s]) => `${r},${s}`));
      return draft.edit.some((op) => {
        if (op.op !== 'set') return false;
        const r = findLabelIndex(edited.rows.map((row) => row.label), labelText(op.row));
        const s = op.series === undefined ? 0 : findLabelIndex(edited.series, labelText(op.series));
        return read.has(`${r},${s}`);
      });
    },
  },
  {
    rule: 'names_answer',
    comment: 'The assumption gives it away: it names the answer.',
    proposal: { text: 'Swap the values of the largest and the smallest bars.', chart_type: 'vertical_bar' },
    types: ['vertical_bar', 'horizontal_bar'],
    fault: ({ draft }) => {
      const name = normalizeLabel(draft.answer);
      return !/^(yes|no|-?\d[\d.,]*)$/i.test(draft.answer.trim()) && ` ${normalizeLabel(draft.assumption).replace(/["“”.,;:!?()]/g, ' ')} `.includes(` ${name} `);
    },
  },
  {
    rule: 'broken_whole',
    comment: 'The slices no longer sum to 100.',
    proposal: { text: 'Double the smallest slice.', chart_type: 'pie' },
    types: ['pie'],
    fault: ({ table, edited }) =>
      table.series.some((name, s) => {
        const e = edited.series.indexOf(name);
        return e !== -1 && nearHundred(sumOf(table.rows.map((row) => row.values[s]))) && !nearHundred(sumOf(edited.rows.map((row) => row.values[e])));
      }),
  },
  {
    rule: 'ambiguous',
    comment: 'Ambiguous: two bars are tied for the answer.',
    proposal: { text: 'Set the second-largest bar equal to the largest bar.', chart_type: 'vertical_bar' },
    types: ['vertical_bar', 'horizontal_bar'],
    fault: ({ draft, edited }) => {
      const match = /^arg(max|min)\((.*)\)$/s.exec(draft.program.trim());
      if (!match?.[2]) return false;
      const ties = runProgram(edited, `count(where(${match[2]}, "==", ${match[1]}(${match[2]})))`);
      return ties.ok && typeof ties.value === 'number' && ties.value > 1;
    },
  },
];

/** The items a proposal's text makes over the demo's charts of the given types. */
export function demoItems(text: string, types: readonly ChartType[], charts = 150): ItemOnChart[] {
  return [...demoCharts({ charts, seed: 5 })]
    .filter((chart) => types.includes(chart.type))
    .flatMap((chart, i) =>
      chart.questions.flatMap((qa, q) => {
        const result = offlineItem({ table: chart.table, chartType: chart.type, title: chart.title, qa, proposal: { id: 1, text }, seed: i * 10 + q });
        if (!result.ok) return [];
        const applied = applyEdit(chart.table, result.draft.edit);
        return applied.ok ? [{ draft: result.draft, table: chart.table, edited: applied.table }] : [];
      }),
    );
}

export interface ClassEffect {
  rule: FeedbackRuleId;
  revised: string;
  before: { items: number; faulty: number };
  after: { items: number; faulty: number };
}

/** One class: the proposal's items, its revision from a rejection in that class's words, the revision's items. */
export function classEffect(feedbackClass: FeedbackClass): ClassEffect {
  const rejection: FeedbackEntry = { item_id: 1, question: 'q', decision: 'reject', failed: ['rationality'], notes: '', comment: feedbackClass.comment, correction: '' };
  const revision = reviseFromFeedback(feedbackClass.proposal, [rejection]);
  if (!revision) throw new Error(`${feedbackClass.rule}: the reviser did not revise "${feedbackClass.proposal.text}"`);
  const count = (items: ItemOnChart[]) => ({ items: items.length, faulty: items.filter(feedbackClass.fault).length });
  return {
    rule: feedbackClass.rule,
    revised: revision.text,
    before: count(demoItems(feedbackClass.proposal.text, feedbackClass.types)),
    after: count(demoItems(revision.text, feedbackClass.types)),
  };
}
