import type { DataTable } from '../../../shared/table/model';
import { runProgram } from '../../../shared/table/program';
import { isMulti, measure } from './edit-helpers';
import { literal, nameOf, niceBetween, plural } from './phrasing';
import type { EditPlan } from './plan-edit';
import type { TableFacts } from '../../../shared/table/table-facts';

/**
 * Question templates over the edited table. Each comes with its program in the table
 * language; answers are never written here, only computed by running the program.
 */
export const QUESTION_TEMPLATES = ['argmax', 'argmin', 'second', 'value', 'diff', 'compare', 'ratio', 'sum', 'avg', 'count', 'row_argmax'] as const;
export type QuestionTemplate = (typeof QUESTION_TEMPLATES)[number];

export interface QuestionCandidate {
  template: QuestionTemplate;
  text: string;
  program: string;
  /** The computation in words, given the answer and a way to evaluate helper programs on the edited table. */
  explain: (answer: string, run: (program: string) => string) => string;
}

/** At most this many count thresholds per item: one per changed cell is plenty. */
const MAX_THRESHOLDS = 2;

/**
 * The candidates for one plan. `asked` is the row the factual question names, if any: it
 * comes first among the rows questions are about, beside the changed row and its partner.
 */
export function questionCandidates(facts: TableFacts, plan: EditPlan, asked: string | null = null): QuestionCandidate[] {
  const { column, edited } = plan;
  const s = literal(column.name);
  const series = `series(${s})`;
  const m = measure(column);
  const forS = isMulti(facts) ? ` for ${nameOf(column.name)}` : '';
  const noun = facts.chartType === 'pie' ? 'slice' : facts.rowNoun;
  const present = (table: DataTable, label: string) => runProgram(table, `value(${literal(label)}, ${s})`).ok;
  const both = column.cells.map((cell) => cell.label).filter((label) => present(edited, label));
  const subjects = [...new Set([asked, plan.row, plan.partner])].filter((label): label is string => label !== null && both.includes(label));
  const value = (label: string) => `value(${literal(label)}, ${s})`;

  const out: QuestionCandidate[] = [
    {
      template: 'argmax',
      text: `Which ${noun} would then have the highest ${m}${forS}?`,
      program: `argmax(${series})`,
      explain: (answer, run) => `${nameOf(answer)} then has the highest ${m}${forS} (${run(`max(${series})`)})`,
    },
    {
      template: 'argmin',
      text: `Which ${noun} would then have the lowest ${m}${forS}?`,
      program: `argmin(${series})`,
      explain: (answer, run) => `${nameOf(answer)} then has the lowest ${m}${forS} (${run(`min(${series})`)})`,
    },
    {
      template: 'second',
      text: `Which ${noun} would then have the second highest ${m}${forS}?`,
      program: `argmax(where(${series}, "<", max(${series})))`,
      explain: (answer, run) =>
        `after the highest ${m} (${run(`max(${series})`)}), the next is ${nameOf(answer)} (${run(`max(where(${series}, "<", max(${series})))`)})`,
    },
    {
      template: 'avg',
      text: `What would be the average ${m}${forS}, rounded to two decimals?`,
      program: `round(avg(${series}), 2)`,
      explain: (answer, run) => `the ${run(`count(${series})`)} ${m}s then sum to ${run(`sum(${series})`)}, an average of ${answer}`,
    },
  ];
  // A pie's slices always sum to 100: asking for the total would test nothing.
  if (!column.whole) {
    out.push({
      template: 'sum',
      text: `What would be the total of all ${m}s${forS}?`,
      program: `sum(${series})`,
      explain: (answer, run) => `the ${run(`count(${series})`)} ${m}s then add up to ${answer}`,
    });
  }
  for (const x of subjects.slice(0, 2)) {
    out.push({
      template: 'value',
      text: `What would the ${m} of ${nameOf(x)}${forS} be?`,
      program: value(x),
      explain: (answer) => `${nameOf(x)} is then ${answer}`,
    });
  }
  const a = subjects[0] ?? both[0] ?? null;
  const b = subjects[1] ?? both.find((label) => label !== a) ?? null;
  if (a !== null && b !== null) {
    const pair = (answer: string, run: (program: string) => string) => `${nameOf(a)} is then ${run(value(a))} and ${nameOf(b)} is ${run(value(b))}`;
    out.push(
      {
        template: 'diff',
        text: `What would be the difference between the ${m}s of ${nameOf(a)} and ${nameOf(b)}${forS}?`,
        program: `diff(${value(a)}, ${value(b)})`,
        explain: (answer, run) => `${pair(answer, run)}, a difference of ${answer}`,
      },
      {
        template: 'compare',
        text: `Would ${nameOf(a)} then have a higher ${m} than ${nameOf(b)}${forS}?`,
        program: `${value(a)} > ${value(b)}`,
        explain: (answer, run) => `${pair(answer, run)}, so the answer is ${answer}`,
      },
      {
        template: 'ratio',
        text: `What would be the ratio of the ${m} of ${nameOf(a)} to that of ${nameOf(b)}${forS}, rounded to two decimals?`,
        program: `round(ratio(${value(a)}, ${value(b)}), 2)`,
        explain: (answer, run) => `${pair(answer, run)}, a ratio of ${answer}`,
      },
    );
  }
  for (const threshold of thresholds(plan).slice(0, MAX_THRESHOLDS)) {
    const shown = `${threshold}${column.percent ? '%' : ''}`;
    out.push({
      template: 'count',
      text: `How many ${plural(noun)} would then have a ${m} above ${shown}${forS}?`,
      program: `count(where(${series}, ">", ${threshold}))`,
      explain: (answer) => `${answer} ${answer === '1' ? noun : plural(noun)} then ${answer === '1' ? 'has' : 'have'} a ${m} above ${shown}`,
    });
  }
  const x = subjects[0];
  if (isMulti(facts) && x !== undefined) {
    out.push({
      template: 'row_argmax',
      text: `Which series would then have the highest ${m} for ${nameOf(x)}?`,
      program: `argmax(row(${literal(x)}))`,
      explain: (answer, run) => `for ${nameOf(x)}, ${nameOf(answer)} is then the highest (${run(`max(row(${literal(x)}))`)})`,
    });
  }
  return out;
}

/** Round numbers a changed, added or removed cell crosses, so "how many above T" moves with the edit. */
function thresholds(plan: EditPlan): number[] {
  const out: number[] = [];
  const name = plan.column.name;
  for (const change of plan.changes) {
    if (change.series !== name || change.before === null || change.after === null) continue;
    const between = niceBetween(Math.min(change.before, change.after), Math.max(change.before, change.after));
    if (between !== null) out.push(between);
  }
  const crossed = [
    ...plan.removed_rows.map((label) => plan.column.cells.find((cell) => cell.label === label)?.value ?? null),
    ...plan.added_rows.map((label) => {
      const s = plan.edited.series.indexOf(name);
      return plan.edited.rows.find((row) => row.label === label)?.values[s] ?? null;
    }),
  ];
  for (const value of crossed) {
    if (value === null) continue;
    const below = niceBetween(value - Math.max(Math.abs(value) * 0.3, 1e-4), value);
    if (below !== null) out.push(below);
  }
  return [...new Set(out)];
}
