import type { ChartType } from '../../../shared/domain/chart-types';
import { answersAgree } from '../../../shared/table/answer-compare';
import { normalizeLabel } from '../../../shared/table/labels';
import { questionText, tableMentions, type Mention } from '../../../shared/table/label-mentions';
import type { DataTable } from '../../../shared/table/model';
import { runProgram, type Scalar } from '../../../shared/table/program';
import { colourWordsIn, GENERIC_COLOUR_WORDS } from '../../../shared/domain/colour-words';
import { literal } from './phrasing';
import { yesNoProgram } from './yes-no-program';

/**
 * The factual question itself as a program. The offline engine asks the factual question
 * under an assumption, so it must compute that question's answer on the changed table: it
 * reads the question's shape from its words (ChartQA's and the demo's: lookups, extremes,
 * differences, sums, averages, counts, comparisons, "which row has value N"), fills it with
 * the rows and series the question names, and keeps a candidate program only when it
 * reproduces the factual label on the original table. A question no candidate reproduces is
 * one the engine cannot program — it then makes no item, rather than asking another question.
 */

export type QuestionShape =
  | 'lookup'
  | 'argmax'
  | 'argmin'
  | 'second_max'
  | 'second_min'
  | 'max'
  | 'min'
  | 'row_argmax'
  | 'row_argmin'
  | 'difference'
  | 'change'
  | 'sum'
  | 'average'
  | 'median'
  | 'ratio'
  | 'count_where'
  | 'count_rows'
  | 'compare'
  | 'row_of_value';

export interface QuestionProgram {
  program: string;
  shape: QuestionShape;
  /** Rows the answer reads one by one (a lookup's row, a difference's pair), in the question's order. */
  rows: string[];
  /** The series it reads; empty when the table has one. */
  series: string[];
  /** The program's answer on the original table. */
  answer: string;
  /**
   * Programs true on a table where the question asks what it asks of the original (a Yes/No
   * question's ranks untied, its stated count of rows kept); an edit must keep them true.
   */
  conditions?: string[];
  /**
   * The question names none of the table's several series, and the factual label is reproduced
   * on one series only: the label, not a guess, says which series it reads.
   */
  seriesSettledByLabel?: boolean;
}

interface Parsed {
  query: string;
  q: string;
  rows: Mention[];
  series: Mention[];
  numbers: { value: number; at: number; text: string }[];
  /** The table's series, when it has more than one. */
  multi: boolean;
}

const MAX_WORDS = /\b(highest|largest|biggest|greatest|most|maximum|max|peak|peaked|top|leader|leading|led|lead|leads|dominated?|dominat\w*|tallest|best|longest|ranked first|strongest)\b/;
const MIN_WORDS = /\b(lowest|smallest|least|fewest|minimum|min|shortest|worst|bottom|weakest)\b/;
const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100,
};

/** A cell of the table in program text. */
function cell(parsed: Parsed, row: string, series: string | null): string {
  return series === null ? `value(${literal(row)})` : `value(${literal(row)}, ${literal(series)})`;
}

function col(series: string | null): string {
  return series === null ? 'series()' : `series(${literal(series)})`;
}

/**
 * The program of `query` over `table` that reproduces `label`, or null. Candidates come in
 * order of how literally they read the question; the first that reproduces the label wins.
 */
export function questionProgram(query: string, label: string, table: DataTable, chartType?: ChartType): QuestionProgram | null {
  // "the light green bar": which series a colour stands for is on the image, not in the table —
  // unless the chart has one series drawn in one colour ("how many blue bars exceed …").
  const labels = [...table.series, ...table.rows.map((row) => row.label)];
  const oneColour = table.series.length === 1 && chartType !== 'pie';
  if (!oneColour && colourWordsIn(query, labels).some((word) => !GENERIC_COLOUR_WORDS.has(word))) return null;
  const parsed = parse(query, table);
  const found: QuestionProgram[] = [];
  for (const candidate of candidates(parsed, table, label)) {
    const program = roundedAsAsked(parsed.q, candidate.program);
    const result = runProgram(table, program);
    if (!result.ok || !reproduces(result.value, label, table)) continue;
    const made = { ...candidate, program, answer: result.answer };
    // A question that names none of several series: the series is the label's to settle.
    if (!parsed.multi || parsed.series.length > 0) return made;
    found.push(made);
  }
  const [first] = found;
  if (!first) return null;
  // Read the same way on another series, the label reproduces too: which one the question means is a guess.
  const sameShape = found.filter((other) => other.shape === first.shape && other.rows.join('\n') === first.rows.join('\n'));
  return { ...first, seriesSettledByLabel: sameShape.every((other) => other.series.join('\n') === first.series.join('\n')) };
}

type Candidate = Omit<QuestionProgram, 'answer'>;

/** How far a computed number may be from the label beyond the label's own rounding: ChartQA labels are the table's values. */
const LABEL_TOLERANCE = 0.005;

/**
 * Whether a candidate reproduces the factual label: labels exactly (as the verifier compares
 * them), numbers within the label's rounding (half a unit of its last digit) or 0.5%. The
 * benchmark's 5% would let a neighbouring row's value pass for the asked one.
 */
function reproduces(value: Scalar, label: string, table: DataTable): boolean {
  return typeof value === 'number' ? numberAgreesWithLabel(value, label) : answersAgree(value, label, [table]);
}

/** A label as a number ("1,833", "14.2%"), or null when it is not one. */
export function labelNumber(label: string): number | null {
  const text = label.trim().replace(/%$/, '').replace(/(\d),(\d{3})/g, '$1$2');
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : null;
}

/** Half a unit of a number label's last digit: "9.9" stands for anything from 9.85 to 9.95. */
export function labelHalfUnit(label: string): number {
  return 0.5 * 10 ** -(label.trim().replace(/%$/, '').split('.')[1]?.length ?? 0);
}

/** A number the label stands for: within its rounding, or LABEL_TOLERANCE of it. */
export function numberAgreesWithLabel(value: number, label: string): boolean {
  const target = labelNumber(label);
  if (target === null) return false;
  const gap = Math.abs(value - target);
  return gap <= labelHalfUnit(label) + 1e-9 || gap <= LABEL_TOLERANCE * Math.abs(target);
}

/** "rounded to two decimals", "to the nearest whole number": the program rounds as the question asks. */
function roundedAsAsked(q: string, program: string): string {
  const digits = /\bround(?:ed)? (?:off )?to (one|two|three|four|\d) decimal/.exec(q);
  if (digits?.[1]) return `round(${program}, ${NUMBER_WORDS[digits[1]] ?? Number(digits[1])})`;
  if (/\b(nearest (whole|integer)|whole number|round(ed)? to (an )?integer)\b/.test(q)) return `round(${program})`;
  return program;
}

/** The question with the labels it names blanked out. */
function outsideMentions(parsed: Parsed): string {
  let text = parsed.q;
  for (const m of [...parsed.rows, ...parsed.series]) text = text.slice(0, m.at) + ' '.repeat(m.end - m.at) + text.slice(m.end);
  return text;
}

function parse(query: string, table: DataTable): Parsed {
  const q = questionText(query);
  const { rows, series } = tableMentions(query, table.rows.map((row) => row.label), table.series);
  const numbers = [...q.matchAll(/(?<![\w.])(-?\d[\d,]*(?:\.\d+)?)\s*(%|percent)?/g)]
    .map((m) => ({ value: Number((m[1] ?? '').replace(/,/g, '')), at: m.index, text: m[0] }))
    .filter((n) => Number.isFinite(n.value) && ![...rows, ...series].some((m) => n.at >= m.at && n.at < m.end));
  for (const [word, value] of Object.entries(NUMBER_WORDS)) {
    for (const m of q.matchAll(new RegExp(`\\b${word}\\b(?=\\s*(percent|%|points?|times)?)`, 'g'))) {
      if (/\b(two|three) (extreme|years|countries)\b/.test(q.slice(m.index, m.index + 20))) continue;
      numbers.push({ value, at: m.index, text: m[0] });
    }
  }
  numbers.sort((a, b) => a.at - b.at);
  return { query, q, rows, series, numbers, multi: table.series.length > 1 };
}

/** The series a question is about: the one it names, else each in turn on a table of several. */
function seriesChoices(parsed: Parsed, table: DataTable): (string | null)[] {
  if (!parsed.multi) return [null];
  if (parsed.series[0]) return [parsed.series[0].label];
  return [...table.series];
}

function* candidates(parsed: Parsed, table: DataTable, label: string): Generator<Candidate> {
  const { q } = parsed;
  const rows = parsed.rows.map((m) => m.label);
  const names = parsed.series.map((m) => m.label);
  const choices = seriesChoices(parsed, table);
  const asksLabel = /^\s*(which|what|who|in which|in what|during which|for which)\b/.test(q) && !/^\s*what (is|was|were|are|'s) the (highest|lowest|largest|smallest|maximum|minimum|biggest|average|mean|median|sum|total|difference|ratio|number|value)\b/.test(q);
  // A Yes/No label asks a comparison, unless Yes or No is itself a row ("Which option has 16%?" → "Yes").
  const yesNo = /^(yes|no)$/i.test(label.trim()) && !table.rows.some((row) => normalizeLabel(row.label) === normalizeLabel(label));
  const seriesOf = (s: string | null) => (s === null ? [] : [s]);

  if (yesNo) {
    yield* comparisons(parsed, table);
    return;
  }
  if (/\bhow many\b|\bnumber of\b|\bcount\b/.test(q)) {
    const threshold = thresholdOf(parsed);
    if (threshold) {
      for (const s of choices) yield { program: `count(where(${col(s)}, "${threshold.op}", ${threshold.value}))`, shape: 'count_where', rows: [], series: seriesOf(s) };
    }
    if (/\b(colou?rs?|series|lines|legends?|groups)\b/.test(q) && !/\bbars?\b.*\b(exceed|above|more than)/.test(q)) {
      yield { program: 'count(series_names())', shape: 'count_rows', rows: [], series: [] };
    }
    yield { program: 'count(rows())', shape: 'count_rows', rows: [], series: [] };
  }
  if (/\bratio\b|\bhow many times\b|\btimes (higher|larger|more|bigger|greater)\b/.test(q)) {
    yield* pairs(parsed, choices, (a, b) => `ratio(${a}, ${b})`, 'ratio');
  }
  if (/\b(differ\w*|gap)\b/.test(q)) {
    yield* pairs(parsed, choices, (a, b) => `diff(${a}, ${b})`, 'difference');
    for (const s of choices) {
      if (MAX_WORDS.test(q) && MIN_WORDS.test(q)) yield { program: `diff(max(${col(s)}), min(${col(s)}))`, shape: 'difference', rows: [], series: seriesOf(s) };
      if (MAX_WORDS.test(q)) {
        yield { program: `diff(max(${col(s)}), min(${col(s)}))`, shape: 'difference', rows: [], series: seriesOf(s) };
        for (const r of rows) yield { program: `diff(max(${col(s)}), ${cell(parsed, r, s)})`, shape: 'difference', rows: [r], series: seriesOf(s) };
      }
    }
  }
  if (/\bhow much (more|less|higher|lower|larger|smaller|bigger)\b|\b(increase|decrease|grow|grew|growth|change|changed|moved?|rise|rose|fall|fell|drop|dropped|gain|lost)\b/.test(q)) {
    // "from A to B": B minus A; "how much more A than B": A minus B; "less": B minus A. Signed.
    const less = /\bhow much (less|lower|smaller)\b/.test(q);
    const reversed = /\bfrom\b/.test(q) || less;
    yield* pairs(parsed, choices, (a, b) => (reversed ? `${b} - ${a}` : `${a} - ${b}`), 'change');
    yield* pairs(parsed, choices, (a, b) => `diff(${a}, ${b})`, 'difference');
  }
  if (/\b(sum|total|combined|together|altogether|add up)\b/.test(q)) {
    yield* lists(parsed, choices, (items) => `sum(${items.join(', ')})`, 'sum');
    if (names.length >= 2 && MAX_WORDS.test(q)) yield { program: `sum(${names.map((s) => `max(${col(s)})`).join(', ')})`, shape: 'sum', rows: [], series: names };
    for (const s of choices) yield { program: `sum(${col(s)})`, shape: 'sum', rows: [], series: seriesOf(s) };
  }
  if (/\b(average|mean)\b/.test(q)) {
    for (const s of choices) {
      if (/\bextreme\b/.test(q)) yield { program: `avg(max(${col(s)}), min(${col(s)}))`, shape: 'average', rows: [], series: seriesOf(s) };
    }
    yield* lists(parsed, choices, (items) => `avg(${items.join(', ')})`, 'average');
    for (const s of choices) yield { program: `avg(${col(s)})`, shape: 'average', rows: [], series: seriesOf(s) };
  }
  // "The middle bar" is a position: once the edit reorders the bars a reader cannot tell which one it means.
  if (/\bmedian\b/.test(q) && !/\bmiddle\b/.test(q)) {
    for (const s of choices) {
      yield { program: `median(${col(s)})`, shape: 'median', rows: [], series: seriesOf(s) };
      if (asksLabel) yield { program: `argmax(where(${col(s)}, "==", median(${col(s)})))`, shape: 'argmax', rows: [], series: seriesOf(s) };
    }
  }
  if (/\bsecond[- ](largest|highest|biggest|most|greatest)\b/.test(q)) {
    for (const s of choices) yield { program: `argmax(where(${col(s)}, "<", max(${col(s)})))`, shape: 'second_max', rows: [], series: seriesOf(s) };
  }
  if (/\bsecond[- ](smallest|lowest|least)\b/.test(q)) {
    for (const s of choices) yield { program: `argmin(where(${col(s)}, ">", min(${col(s)})))`, shape: 'second_min', rows: [], series: seriesOf(s) };
  }
  // "In which year are A and B the same?": the row where two series are equal, which a changed
  // chart may no longer have (then there is no answer, and no item). "Where do the lines
  // intersect?" is not asked: lines that no longer meet leave only "the closest year", which a
  // reviewer does not take for the question.
  const pairing = /\b(same|equal)\b/.test(q) && !/\b(intersect\w*|cross\w*|meet)\b/.test(q) ? 'equal' : null;
  const meeting = (a: string, b: string) => `argmax(where(abs(${a} - ${b}), "==", 0))`;
  if (asksLabel && pairing && names.length >= 2 && names[0] && names[1]) {
    yield { program: meeting(col(names[0]), col(names[1])), shape: 'row_of_value', rows: [], series: [names[0], names[1]] };
  }
  if (asksLabel && pairing && rows.length >= 2 && rows[0] && rows[1]) {
    yield { program: meeting(`row(${literal(rows[0])})`, `row(${literal(rows[1])})`), shape: 'row_of_value', rows: [rows[0], rows[1]], series: [] };
  }
  const extreme = MAX_WORDS.test(q) ? 'max' : MIN_WORDS.test(q) ? 'min' : null;
  if (extreme) {
    const arg = extreme === 'max' ? 'argmax' : 'argmin';
    // "In 2019, which group had the highest value?": across the series of one row.
    if (parsed.multi && rows.length === 1 && names.length === 0 && rows[0]) {
      yield { program: `${arg}(row(${literal(rows[0])}))`, shape: extreme === 'max' ? 'row_argmax' : 'row_argmin', rows: [rows[0]], series: [] };
    }
    for (const s of choices) {
      if (asksLabel) yield { program: `${arg}(${col(s)})`, shape: extreme === 'max' ? 'argmax' : 'argmin', rows: [], series: seriesOf(s) };
      yield { program: `${extreme}(${col(s)})`, shape: extreme, rows: [], series: seriesOf(s) };
      if (!asksLabel) yield { program: `${arg}(${col(s)})`, shape: extreme === 'max' ? 'argmax' : 'argmin', rows: [], series: seriesOf(s) };
    }
  }
  // "Which option has a difference of 5%, compared with yes?": the row that far from the row named.
  const gap = /\bdifference of\b/.test(q) ? parsed.numbers[0] : undefined;
  if (asksLabel && gap && rows.length === 1 && rows[0]) {
    for (const s of choices) {
      yield { program: `argmax(where(abs(${col(s)} - ${cell(parsed, rows[0], s)}), "==", ${gap.value}))`, shape: 'row_of_value', rows: [rows[0]], series: seriesOf(s) };
    }
  }
  // "Which option has 16%?", "In what year was the rate 9.4?": the row holding a value.
  if (asksLabel) {
    for (const n of parsed.numbers) {
      for (const s of choices) yield { program: `argmax(where(${col(s)}, "==", ${n.value}))`, shape: 'row_of_value', rows: [], series: seriesOf(s) };
    }
  }
  // "What is the increase by 2018?" asks a change: a level that happens to equal the label is not its answer.
  // Words inside a label the question names ("What is the value of 'Increase'?") are the label's, not the question's.
  if (!/\b(increase[sd]?|decrease[sd]?|change[sd]?|growth|grew|rise|rose|fall|fell|drop|gain|loss|difference)\b/.test(outsideMentions(parsed))) {
    for (const r of rows) {
      for (const s of choices) yield { program: cell(parsed, r, s), shape: 'lookup', rows: [r], series: seriesOf(s) };
    }
  }
}

/** "How many … more than 70", "exceed 520000", "is 70": the comparison a count asks for. */
function thresholdOf(parsed: Parsed): { op: string; value: number } | null {
  const { q } = parsed;
  const n = parsed.numbers.find((num) => !/^(19|20)\d\d$/.test(String(num.value)) || parsed.numbers.length === 1);
  if (!n) return null;
  const before = q.slice(Math.max(0, n.at - 30), n.at);
  if (/\b(at least|or more)\s*$/.test(before)) return { op: '>=', value: n.value };
  if (/\b(at most|or less|or fewer)\s*$/.test(before)) return { op: '<=', value: n.value };
  if (/\b(more than|greater than|higher than|larger than|bigger than|above|over|exceed\w*|exceeding)\s*$/.test(before)) return { op: '>', value: n.value };
  if (/\b(less than|fewer than|lower than|smaller than|below|under)\s*$/.test(before)) return { op: '<', value: n.value };
  if (/\b(is|are|was|were|equal to|exactly|of|at)\s*$/.test(before) || /^\s*%?\s*(popular|each)/.test(q.slice(n.at + n.text.length))) return { op: '==', value: n.value };
  return null;
}

/** Two operands the question names: two rows of a series, or two series of a row. */
function* pairs(parsed: Parsed, choices: (string | null)[], make: (a: string, b: string) => string, shape: QuestionShape): Generator<Candidate> {
  const rows = parsed.rows.map((m) => m.label);
  const names = parsed.series.map((m) => m.label);
  if (rows.length >= 2 && rows[0] && rows[1]) {
    for (const s of choices) yield { program: make(cell(parsed, rows[0], s), cell(parsed, rows[1], s)), shape, rows: [rows[0], rows[1]], series: s === null ? [] : [s] };
  }
  if (names.length >= 2 && names[0] && names[1]) {
    for (const r of rows.length > 0 ? rows : []) {
      yield { program: make(cell(parsed, r, names[0]), cell(parsed, r, names[1])), shape, rows: [r], series: [names[0], names[1]] };
    }
  }
}

/** Several operands the question names: rows of a series, or series of a row. */
function* lists(parsed: Parsed, choices: (string | null)[], make: (items: string[]) => string, shape: QuestionShape): Generator<Candidate> {
  const rows = parsed.rows.map((m) => m.label);
  const names = parsed.series.map((m) => m.label);
  if (rows.length >= 2) {
    for (const s of choices) yield { program: make(rows.map((r) => cell(parsed, r, s))), shape, rows, series: s === null ? [] : [s] };
  }
  if (names.length >= 2 && rows.length === 1 && rows[0]) {
    const r = rows[0];
    yield { program: make(names.map((s) => cell(parsed, r, s))), shape, rows: [r], series: names };
  }
}

/** Yes/No questions: the whole question read by the Yes/No grammar, or nothing (a wrong program reproduces Yes or No half the time). */
function* comparisons(parsed: Parsed, table: DataTable): Generator<Candidate> {
  const found = yesNoProgram(parsed.query, table);
  if (found) yield { ...found, shape: 'compare' };
}
