import type { FalseValueSource, PairSkipReason, PairWording } from '../export/pairs-record';
import { labelKey } from '../table/answer-compare';
import type { DataTable } from '../table/model';
import { assertValue, type WordingOptions } from './pair-wording';
import { correctUnder, SCORING_RULES } from './scoring-rules';

/**
 * Judgement pairs from hypothetical items (ChartBench's Acc+ task over Chart-HQA): the item's
 * question under its assumption asserted with its verified answer (true, "Yes") and with a
 * plausible wrong value (false, "No"). The wrong value is, in order of preference:
 * 1. the item's original factual answer, when the assumption moved the answer beyond tolerance —
 *    a model that answers from the unedited chart (the memory bias the benchmark measures)
 *    says yes to exactly this one;
 * 2. for a count, the nearest other count;
 * 3. the nearest other value of the edited table in the answer's own series or row (or, for a
 *    computed answer, in the series and rows its program names), of the answer's sign and within
 *    a factor of ten of it — a 5.27 is no plausible answer to a change of −0.63.
 * A value that differs from the answer only in its sign is never used (a size or a signed change?).
 * A value is usable only when it is wrong under every scoring rule (scoring-rules.ts) once
 * written in the answer's format, so no rule calls the false assertion right. Deterministic: no
 * randomness, ties go to the table's order.
 */

export interface PairItem {
  /** The full hypothetical question, assumption included. */
  question: string;
  assumption: string;
  /** The verified answer (reviewers' corrections applied). */
  answer: string;
  /** The factual question's answer on the unedited chart. */
  original_label: string;
  /** Whether the question is the factual one under the assumption: only then is the original label an answer to it. */
  same_question: boolean;
  /** The item's program, which names the series and rows the answer comes from. */
  program: string;
}

export interface DerivedPair {
  /** The true assertion (label Yes). */
  yes: string;
  /** The false assertion (label No). */
  no: string;
  false_value: string;
  false_value_source: FalseValueSource;
  wording: PairWording;
}

export interface SkippedPair {
  skipped: PairSkipReason;
}

export type PairDerivation = DerivedPair | SkippedPair;

export const isSkipped = (derivation: PairDerivation): derivation is SkippedPair => 'skipped' in derivation;

/** A number as an answer writes it: prefix, digits, separators, decimals, unit. */
export interface NumberFormat {
  value: number;
  prefix: string;
  suffix: string;
  decimals: number;
  /** Thousands separated by commas ("1,200"). */
  grouped: boolean;
}

const UNITS = String.raw`%|\s?(?:percent|per cent|thousand|million|billion|trillion|k|m|bn|mn|pp|points?|USD|EUR|GBP|years?|days?|hours?|minutes?)`;
const NUMERIC_ANSWER = new RegExp(String.raw`^(US\$|[$€£¥])?\s?([-+]?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(${UNITS})?$`, 'i');

/** "1,200", "-3.50", "45%", "$7.2 billion" as a format; null for anything else (Yes/No, names, ranges). */
export function parseNumericAnswer(text: string): NumberFormat | null {
  const m = NUMERIC_ANSWER.exec(text.trim());
  if (!m || m[3] === undefined) return null;
  const digits = m[3];
  const value = Number(digits.replace(/,/g, '')) * (m[2] === '-' ? -1 : 1);
  if (!Number.isFinite(value)) return null;
  return { value, prefix: m[1] ?? '', suffix: m[4] ?? '', decimals: /\.(\d+)$/.exec(digits)?.[1]?.length ?? 0, grouped: digits.includes(',') };
}

/** Half away from zero on the decimal value (1.005 → 1.01), through the exponent, not a binary multiply. */
function roundHalfUp(value: number, decimals: number): number {
  const magnitude = Number(`${Math.round(Number(`${Math.abs(value)}e${decimals}`))}e-${decimals}`);
  const rounded = Number.isFinite(magnitude) ? magnitude : Math.round(Math.abs(value) * 10 ** decimals) / 10 ** decimals;
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

/**
 * `value` written as `format` writes its number: its separators, prefix and unit, and its decimals
 * (half-up) — or `minDecimals`, when a value needs more to stay itself (0.63 beside an answer "0"
 * is "0.63", not a rounded "1" that no one would answer).
 */
export function formatLike(format: NumberFormat, value: number, minDecimals = 0): string {
  const decimals = Math.max(format.decimals, minDecimals);
  const rounded = roundHalfUp(value, decimals);
  const [whole = '0', fraction] = Math.abs(rounded).toFixed(decimals).split('.');
  const grouped = format.grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  const sign = rounded < 0 ? '-' : '';
  return `${format.prefix}${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`}${format.suffix}`;
}

/** The text the scoring rules compare: the number with its `%`, without currency or unit words. */
function comparable(format: NumberFormat, text: string): string {
  const parsed = parseNumericAnswer(text);
  const number = parsed ? String(parsed.value) : text;
  return format.suffix === '%' ? `${number}%` : number;
}

/** Wrong for `answer` under every rule, and not the same text. */
function wrongUnderEveryRule(format: NumberFormat, answer: string, candidate: string): boolean {
  if (candidate.trim() === answer.trim()) return false;
  const target = comparable(format, answer);
  const prediction = comparable(format, candidate);
  return SCORING_RULES.every((rule) => !correctUnder(rule, prediction, target));
}

/** Names a program mentions: its string literals ("series(\"Female\")", "value(\"2019\")"). */
function programNames(program: string): Set<string> {
  const names = new Set<string>();
  for (const m of program.matchAll(/"((?:[^"\\]|\\.)*)"/g)) if (m[1] !== undefined) names.add(labelKey(m[1]));
  return names;
}

/** Whether the answer names a row or series (a year that is a row label, an argmax): not an amount, so a pair about amounts does not fit it. */
function isLabelAnswer(answer: string, table: DataTable, program: string): boolean {
  if (/^\s*arg(max|min)\s*\(/.test(program)) return true;
  const key = labelKey(answer);
  return table.rows.some((row) => labelKey(row.label) === key) || table.series.some((name) => labelKey(name) === key);
}

interface Cell {
  row: number;
  series: number;
  value: number;
}

function cellsOf(table: DataTable): Cell[] {
  const cells: Cell[] = [];
  table.rows.forEach((row, r) =>
    row.values.forEach((value, s) => {
      if (value !== null && Number.isFinite(value)) cells.push({ row: r, series: s, value });
    }),
  );
  return cells;
}

/** The decimals a cell is written with ("12.50" → 2); an edited cell's raw text is its new value's. */
function cellDecimals(table: DataTable, cell: Cell): number {
  const raw = table.rows[cell.row]?.raw[cell.series] ?? '';
  return /\.(\d+)/.exec(raw.replace(/,/g, ''))?.[1]?.length ?? 0;
}

/**
 * The cells a wrong value may come from: the answer's own series and row when the answer is a
 * cell (the one the program names, if several hold it); else the series and rows the program
 * names; else the whole table.
 */
function candidateCells(table: DataTable, format: NumberFormat, program: string): Cell[] {
  const cells = cellsOf(table);
  const names = programNames(program);
  const named = (cell: Cell) => names.has(labelKey(table.rows[cell.row]?.label ?? '')) || names.has(labelKey(table.series[cell.series] ?? ''));
  const target = roundHalfUp(format.value, format.decimals);
  const holding = cells.filter((cell) => roundHalfUp(cell.value, format.decimals) === target);
  const answerCell = holding.find(named) ?? holding[0];
  if (answerCell) return cells.filter((cell) => cell !== answerCell && (cell.series === answerCell.series || cell.row === answerCell.row));
  const inNamed = cells.filter(named);
  return inNamed.length > 0 ? inNamed : cells;
}

/** A count's nearest other count that every rule calls wrong (never below zero); none for a huge count. */
function nearbyCount(format: NumberFormat, answer: string): string | null {
  const MAX_STEP = 1000;
  for (let step = 1; step <= MAX_STEP; step++) {
    for (const value of [format.value + step, format.value - step]) {
      if (value < 0) continue;
      const text = formatLike(format, value);
      if (wrongUnderEveryRule(format, answer, text)) return text;
    }
  }
  return null;
}

/**
 * A value differing from the answer in its sign alone is no clear falsehood: "how many points
 * would it move" is read as a size as often as a signed change (0.63 for a move of −0.63).
 */
const signOnly = (candidate: number, answer: number) => candidate !== answer && Math.abs(candidate) === Math.abs(answer);

/** Table values this many times larger or smaller than the answer are not a plausible answer to its question. */
const PLAUSIBLE_FACTOR = 10;

/** A table value that could be taken for the answer: same sign, and within PLAUSIBLE_FACTOR of it (any small value beside a zero answer). */
function plausibleBeside(candidate: number, answer: number): boolean {
  if (answer === 0) return Math.abs(candidate) <= PLAUSIBLE_FACTOR;
  if (Math.sign(candidate) !== Math.sign(answer)) return false;
  const ratio = Math.abs(candidate / answer);
  return ratio <= PLAUSIBLE_FACTOR && ratio >= 1 / PLAUSIBLE_FACTOR;
}

function falseValue(item: PairItem, format: NumberFormat, table: DataTable): { value: string; source: FalseValueSource } | null {
  const original = parseNumericAnswer(item.original_label);
  if (item.same_question && original && !signOnly(original.value, format.value)) {
    const text = formatLike(format, original.value, original.decimals);
    if (wrongUnderEveryRule(format, item.answer, text)) return { value: text, source: 'original_label' };
  }
  if (/^\s*count\s*\(/.test(item.program) && Number.isInteger(format.value) && format.decimals === 0) {
    const text = nearbyCount(format, item.answer);
    return text === null ? null : { value: text, source: 'nearby_count' };
  }
  let best: { text: string; distance: number } | null = null;
  for (const cell of candidateCells(table, format, item.program)) {
    if (!plausibleBeside(cell.value, format.value) || signOnly(cell.value, format.value)) continue;
    const text = formatLike(format, cell.value, cellDecimals(table, cell));
    if (!wrongUnderEveryRule(format, item.answer, text)) continue;
    const distance = Math.abs(cell.value - format.value);
    if (best === null || distance < best.distance) best = { text, distance };
  }
  return best === null ? null : { value: best.text, source: 'edited_table' };
}

/** The judgement pair of an accepted item on its edited table, or why it has none. */
export function derivePairs(item: PairItem, editedTable: DataTable, options: WordingOptions = {}): PairDerivation {
  const format = parseNumericAnswer(item.answer);
  if (format === null) return { skipped: 'not_numeric' };
  if (isLabelAnswer(item.answer, editedTable, item.program)) return { skipped: 'label_answer' };
  const wrong = falseValue(item, format, editedTable);
  if (wrong === null) return { skipped: 'no_wrong_value' };
  const yes = assertValue(item.question, item.assumption, item.answer.trim(), options);
  const no = assertValue(item.question, item.assumption, wrong.value, options);
  return { yes: yes.text, no: no.text, false_value: wrong.value, false_value_source: wrong.source, wording: yes.wording };
}
