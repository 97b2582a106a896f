import { answersAgree, labelKey } from '../../../shared/table/answer-compare';
import type { DataTable } from '../../../shared/table/model';
import { runProgram, type Scalar } from '../../../shared/table/program';
import { literal } from './phrasing';

/**
 * A question over a chart group as a program, for the offline engine. Its rules know four
 * forms, the ones the demo's group questions are written in (S1 and S2 are series names, ROW a
 * row label, AXIS the label column's name lower-cased):
 *
 * - difference: "What is the difference between {S1} in the first chart and {S2} in the second chart in {ROW}?"
 *   → `diff(value(1, "ROW", "S1"), value(2, "ROW", "S2"))`
 * - higher: "Is {S1} in the first chart higher than {S2} in the second chart in {ROW}?"
 *   → `if(value(1, "ROW", "S1") > value(2, "ROW", "S2"), "Yes", "No")`
 * - at_highest: "In the {AXIS} when {S1} in the first chart was highest, what was {S2} in the second chart?"
 *   → `value(2, chart(1, argmax(series("S1"))), "S2")`
 * - total: "What is the total of {S1} in the first chart and {S2} in the second chart in {ROW}?"
 *   → `value(1, "ROW", "S1") + value(2, "ROW", "S2")`
 *
 * Names are matched to the tables' own spelling (case and spacing tolerant), and a program is
 * kept only when it reproduces the question's label on the unedited group: a question it
 * cannot read is one the engine makes no item for, as for one chart.
 */

export const GROUP_QUESTION_FORMS = ['difference', 'higher', 'at_highest', 'total'] as const;
export type GroupQuestionForm = (typeof GROUP_QUESTION_FORMS)[number];

/** What the question reads of one chart: the series and the rows its answer moves with. */
export interface ChartReading {
  /** 1-based position in the group. */
  chart: number;
  series: string;
  rows: string[];
}

export interface GroupQuestionProgram {
  form: GroupQuestionForm;
  program: string;
  /** The program's answer on the unedited group, as the verifier shows it. */
  answer: string;
  /** Per chart the question reads, what it reads there: where an assumption can move the answer. */
  reads: ChartReading[];
  /**
   * The same question in the grammar of a hypothetical, its words otherwise its own ("What is"
   * → "What would be", "Is X … higher" → "Would X … be higher", "was highest, what was" →
   * "would be highest, what would … be").
   */
  hypothetical: string;
}

/** The forms' words; every capture is lazy, so a name may hold spaces but not the forms' own joints. */
const FORMS: { form: GroupQuestionForm; pattern: RegExp }[] = [
  { form: 'difference', pattern: /^what is the difference between (.+?) in the first chart and (.+?) in the second chart in (.+?)\s*\?$/i },
  { form: 'higher', pattern: /^is (.+?) in the first chart higher than (.+?) in the second chart in (.+?)\s*\?$/i },
  { form: 'at_highest', pattern: /^in the (.+?) when (.+?) in the first chart was highest, what was (.+?) in the second chart\s*\?$/i },
  { form: 'total', pattern: /^what is the total of (.+?) in the first chart and (.+?) in the second chart in (.+?)\s*\?$/i },
];

/** How far a computed number may be from the label beyond the label's own rounding (as for one chart). */
const LABEL_TOLERANCE = 0.005;

/**
 * The question's program over `tables` (the group's charts in position order), or null when
 * its words fit none of the forms, a name is not one of the charts', or the program does not
 * reproduce `label` (left out: not checked).
 */
export function groupQuestionProgram(query: string, tables: readonly DataTable[], label?: string): GroupQuestionProgram | null {
  if (tables.length < 2) return null;
  const [first, second] = tables as [DataTable, DataTable];
  const text = query.trim().replace(/\s+/g, ' ');
  for (const { form, pattern } of FORMS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const candidate = form === 'at_highest' ? atHighest(match, first, second) : cellPair(form, match, first, second);
    if (!candidate) return null;
    const result = runProgram(tables, candidate.program);
    if (!result.ok) return null;
    if (label !== undefined && !reproduces(result.value, label, tables)) return null;
    return { ...candidate, answer: result.answer, hypothetical: hypotheticalOf(form, match) };
  }
  return null;
}

function hypotheticalOf(form: GroupQuestionForm, match: RegExpExecArray): string {
  const [, a = '', b = '', c = ''] = match;
  switch (form) {
    case 'difference':
      return `What would be the difference between ${a} in the first chart and ${b} in the second chart in ${c}?`;
    case 'total':
      return `What would be the total of ${a} in the first chart and ${b} in the second chart in ${c}?`;
    case 'higher':
      return `Would ${a} in the first chart be higher than ${b} in the second chart in ${c}?`;
    case 'at_highest':
      return `In the ${a} when ${b} in the first chart would be highest, what would ${c} in the second chart be?`;
  }
}

type Candidate = Omit<GroupQuestionProgram, 'answer' | 'hypothetical'>;

function cellPair(form: Exclude<GroupQuestionForm, 'at_highest'>, match: RegExpExecArray, first: DataTable, second: DataTable): Candidate | null {
  const s1 = seriesOf(first, match[1]);
  const s2 = seriesOf(second, match[2]);
  const row1 = rowOf(first, match[3]);
  const row2 = rowOf(second, match[3]);
  if (s1 === null || s2 === null || row1 === null || row2 === null) return null;
  const a = `value(1, ${literal(row1)}, ${literal(s1)})`;
  const b = `value(2, ${literal(row2)}, ${literal(s2)})`;
  const program = form === 'difference' ? `diff(${a}, ${b})` : form === 'higher' ? `if(${a} > ${b}, "Yes", "No")` : `${a} + ${b}`;
  return { form, program, reads: [{ chart: 1, series: s1, rows: [row1] }, { chart: 2, series: s2, rows: [row2] }] };
}

function atHighest(match: RegExpExecArray, first: DataTable, second: DataTable): Candidate | null {
  const s1 = seriesOf(first, match[2]);
  const s2 = seriesOf(second, match[3]);
  if (s1 === null || s2 === null || !(match[1] ?? '').trim()) return null;
  const program = `value(2, chart(1, argmax(series(${literal(s1)}))), ${literal(s2)})`;
  // Chart 1: any row may become the highest; chart 2: the row the highest names (resolved by the caller on the table it edits).
  const peak = runProgram([first, second], `chart(1, argmax(series(${literal(s1)})))`);
  const peakRow = peak.ok && typeof peak.value === 'string' ? rowOf(second, peak.value) : null;
  if (peakRow === null) return null;
  return {
    form: 'at_highest',
    program,
    reads: [
      { chart: 1, series: s1, rows: first.rows.map((row) => row.label) },
      { chart: 2, series: s2, rows: [peakRow] },
    ],
  };
}

function seriesOf(table: DataTable, name: string | undefined): string | null {
  if (!name) return null;
  const key = labelKey(name);
  return table.series.find((series) => labelKey(series) === key) ?? null;
}

function rowOf(table: DataTable, name: string | undefined): string | null {
  if (!name) return null;
  const key = labelKey(name);
  return table.rows.find((row) => labelKey(row.label) === key)?.label ?? null;
}

/** Labels exactly (as the verifier compares them), numbers within the label's rounding or 0.5%. */
function reproduces(value: Scalar, label: string, tables: readonly DataTable[]): boolean {
  if (typeof value !== 'number') return answersAgree(value, label, tables);
  const text = label.trim().replace(/%$/, '').replace(/(\d),(\d{3})/g, '$1$2');
  if (!/^-?\d+(\.\d+)?$/.test(text)) return false;
  const target = Number(text);
  const halfUnit = 0.5 * 10 ** -(text.split('.')[1]?.length ?? 0);
  const gap = Math.abs(value - target);
  return gap <= halfUnit + 1e-9 || gap <= LABEL_TOLERANCE * Math.abs(target);
}
