import { mulberry32 } from '../random';
import { resultsAgree } from './answer-compare';
import { applyEdit } from './edit';
import { isPercentSeries } from './cell';
import { nearHundred, sumOf } from './wholes';
import { labelText } from './edit-apply';
import type { Edit } from './edit';
import { findLabelIndex } from './labels';
import type { Finding } from './lint';
import type { DataTable } from './model';
import { runProgram, type Scalar } from './program';
import { cellsRead, programReads } from './program/reads';

/**
 * Items whose answer a reader gets without reading the chart: the assumption says where the
 * changed value now ranks, the assumption alone fixes every value the question reads, any
 * change at all would give the answer, or the answer is a row the assumption made up. A strict
 * reviewer rejects each, so they are errors.
 */

export interface GiveawayInput {
  assumption: string;
  program: string;
  original: DataTable;
  edited: DataTable;
  edit: Edit | null;
}

/** "…, taking it above Italy", "until it becomes the largest", "overtaking Spain": where the change leaves the value among the others. */
const RANK_CLAUSES: readonly RegExp[] = [
  /\b(taking|making|putting|bringing|pushing|lifting|raising|lowering|dropping|moving|placing|sending|leaving)\s+(it|them|this|that|the \w+)\s+(just |well |slightly )?(above|below|over|under|past|ahead of|behind|beyond|level with)\b/i,
  /\b(so that|until|such that|enough that|which (would )?(make|put|take)s?)\s+(it|they|this|that|[\w'’]+)\s+(would\s+)?(become|becomes|exceed|exceeds|overtake|overtakes|surpass|surpasses|pass|passes|outrank|outranks|top|tops|lead|leads|trail|trails|fall below|falls below|drop below|drops below|rise above|rises above|is the|are the)\b/i,
  /\b(becoming|to become|making it|now|thereby|thus) (the )?(new )?(largest|highest|biggest|greatest|smallest|lowest|least|top|leader|leading|first|last|second|most|fewest)\b/i,
  /\b(overtaking|surpassing|exceeding|outranking|outpacing|overtakes|surpasses|outranks|outpaces|falling below|dropping below|rising above|moving ahead of|falling behind)\s+(\w)/i,
  /\b(above|below|higher than|lower than|more than|less than) (all|every|each|any) (the )?(other|others|rest)\b/i,
];

export function rankClause(assumption: string): string | null {
  for (const pattern of RANK_CLAUSES) {
    const match = pattern.exec(assumption);
    if (match) return match[0];
  }
  return null;
}

function resultOf(table: DataTable, program: string): Scalar | null {
  const result = runProgram(table, program);
  return result.ok ? result.value : null;
}

export function giveawayFindings(input: GiveawayInput): Finding[] {
  const findings: Finding[] = [];
  const after = resultOf(input.edited, input.program);
  const before = resultOf(input.original, input.program);
  const clause = rankClause(input.assumption);
  if (clause !== null) {
    const ordinal = typeof after === 'string' || typeof after === 'boolean';
    findings.push({
      code: 'rank_clause',
      severity: ordinal ? 'error' : 'warning',
      message: `the assumption says where the changed value ranks ("${clause}")${ordinal ? ', which gives the answer away: the reader no longer compares the values on the chart' : '; state the change only, and let the chart show where it lands'}`,
    });
  }
  const determined = determinedByAssumption(input) ?? stepAlone(input, after) ?? gapFromNothing(input.assumption, before, after);
  if (determined) findings.push(determined);
  else if (after !== null && before !== null && (typeof after !== 'number' || noneLeftEqual(input.program, after))) {
    const anyChange = givenByAnyChange(input, before, after) ?? whateverTheValues(input, after);
    if (anyChange) findings.push(anyChange);
  }
  const partner = swapPartner(input.edit, before, after);
  if (partner) findings.push(partner);
  if (typeof after === 'string') {
    const originalRows = new Set(input.original.rows.map((row) => row.label));
    const added = input.edited.rows.find((row) => !originalRows.has(row.label) && row.label === after);
    if (added) {
      findings.push({
        code: 'added_row_answer',
        severity: 'error',
        message: `the answer is ${JSON.stringify(after)}, the row the assumption adds: a made-up row the reader learns from the assumption, not from the chart`,
      });
    }
  }
  return findings;
}

const labelKey = (label: string) => label.trim().replace(/\*+$/, '').trim().toLowerCase();

/**
 * The factual answer's row swapped with another, and the answer that other row: a reader who
 * remembers the chart's answer (Bridgestone leads) answers the partner the assumption names
 * (Goodyear) without reading a value. A strict reviewer takes it for a give-away.
 */
function swapPartner(edit: Edit | null, before: Scalar | null, after: Scalar | null): Finding | null {
  if (typeof before !== 'string' || typeof after !== 'string' || labelKey(before) === labelKey(after)) return null;
  for (const op of edit ?? []) {
    if (op.op !== 'swap') continue;
    const keys = op.rows.map((row) => labelKey(String(row)));
    if (keys.includes(labelKey(before)) && keys.includes(labelKey(after))) {
      return {
        code: 'answer_from_assumption',
        severity: 'error',
        message: `the answer ${JSON.stringify(after)} is the row the assumption swaps with the factual answer ${JSON.stringify(before)}: whoever remembers the chart's answer names its swap partner without reading a value`,
      };
    }
  }
  return null;
}

/** The cells of `edited` the edit's `set` ops write (row and series index), in edit order. */
function setCellsOf(edit: Edit, edited: DataTable): { r: number; s: number }[] {
  const rowLabels = edited.rows.map((row) => row.label);
  return edit.flatMap((op) => {
    if (op.op !== 'set') return [];
    const r = findLabelIndex(rowLabels, labelText(op.row));
    const s = op.series === undefined ? (edited.series.length === 1 ? 0 : -1) : findLabelIndex(edited.series, labelText(op.series));
    return r !== -1 && s !== -1 ? [{ r, s }] : [];
  });
}

/** Numbers written in the assumption (1,200 as 1200; 45% as 45). */
function statedNumbers(assumption: string): number[] {
  return [...assumption.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/-?\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
}

const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Every value the program reads is fixed by the assumption: a cell it sets (one value, or a
 * stated trend), a row it adds, or a value it quotes ("the same as 2009 (5.27)"). The answer —
 * a difference of 0 between two years set equal, a value on a stated trend — then needs no chart.
 */
function determinedByAssumption({ assumption, program, original, edited, edit }: GiveawayInput): Finding | null {
  if (edit === null) return null;
  const reads = programReads(program, edited);
  if (reads === null || reads.labels) return null;
  const read = cellsRead(reads, edited);
  if (read.size === 0) return null;
  const stated = statedNumbers(assumption);
  const fixed = new Set<string>();
  const setCells = setCellsOf(edit, edited).map(({ r, s }): [number, number] => [r, s]);
  // A set cell is fixed by the words when they state its value, or when every set cell lies on
  // one trend they state ("a constant 1 every period, starting from 27"); a swap written as two
  // sets, or values scaled and rounded one by one, state nothing.
  const setValues = setCells.map(([r, s]) => edited.rows[r]?.values[s]).filter((v): v is number => v !== null && v !== undefined);
  const trend = setValues.length >= 3 ? statedTrend(setValues, stated, edited.rows.length) : null;
  const onTrend = (value: number) => trend !== null && onStatedTrend(value, [trend.start], [trend.step], edited.rows.length);
  for (const [r, s] of setCells) {
    const value = edited.rows[r]?.values[s];
    if (value === null || value === undefined) continue;
    if (stated.some((n) => same(n, value)) || onTrend(value)) fixed.add(`${r},${s}`);
  }
  const originalRows = new Set(original.rows.map((row) => row.label));
  edited.rows.forEach((row, r) => {
    if (!originalRows.has(row.label)) row.values.forEach((_, s) => fixed.add(`${r},${s}`));
  });
  const isFixed = (key: string) => {
    if (fixed.has(key)) return true;
    const [r, s] = key.split(',').map(Number) as [number, number];
    const value = edited.rows[r]?.values[s];
    // A cell the edit left as it was can lie on the stated trend too (2011 already at 70 + 3).
    return value !== null && value !== undefined && (stated.some((n) => same(n, value)) || onTrend(value));
  };
  // Missing cells are skipped by the program's aggregates: they fix nothing, but they must not make a read look fixed.
  const present = [...read].filter((key) => {
    const [r, s] = key.split(',').map(Number) as [number, number];
    return edited.rows[r]?.values[s] !== null && edited.rows[r]?.values[s] !== undefined;
  });
  if (present.length === 0 || !present.every(isFixed)) return null;
  return {
    code: 'answer_from_assumption',
    severity: 'error',
    message: 'every value the question reads is fixed by the assumption itself (set, added or quoted in it), so the answer follows from the assumption alone, with no chart reading',
  };
}

/**
 * "Grown by a constant 0.05 points every year after 1999, starting from its 1999 level", then
 * the difference between 2003 and 2009: the start is the chart's, but every value the question
 * reads is set on one line of the stated step, and the answer (6 × 0.05) is the same wherever
 * that line starts — the chart's value cancels out, the step alone answers. Decided by moving
 * the whole stated line by a constant: an answer that does not move needs no chart.
 */
function stepAlone({ assumption, program, edited, edit }: GiveawayInput, after: Scalar | null): Finding | null {
  if (edit === null || typeof after !== 'number') return null;
  const reads = programReads(program, edited);
  if (reads === null || reads.labels) return null;
  const cells = setCellsOf(edit, edited);
  if (cells.length < 3 || new Set(cells.map((cell) => cell.s)).size !== 1) return null;
  cells.sort((a, b) => a.r - b.r);
  const values = cells.map(({ r, s }) => edited.rows[r]?.values[s]);
  if (values.some((value) => value === null || value === undefined)) return null;
  const steps = (values as number[]).slice(1).map((value, i) => value - (values[i] as number));
  const step = steps[0] ?? 0;
  const tolerance = 1e-6 * Math.max(1, Math.abs(step));
  if (step === 0 || steps.some((each) => Math.abs(each - step) > tolerance)) return null;
  if (!statedNumbers(assumption).some((n) => Math.abs(Math.abs(n) - Math.abs(step)) <= tolerance)) return null;
  const set = new Set(cells.map(({ r, s }) => `${r},${s}`));
  const read = [...cellsRead(reads, edited)].filter((key) => {
    const [r, s] = key.split(',').map(Number) as [number, number];
    return edited.rows[r]?.values[s] !== null && edited.rows[r]?.values[s] !== undefined;
  });
  if (read.length === 0 || !read.every((key) => set.has(key))) return null;
  const shift = 7.31 * Math.abs(step) + 1;
  const moved: DataTable = { ...edited, rows: edited.rows.map((row, r) => ({ ...row, values: row.values.map((value, s) => (value !== null && set.has(`${r},${s}`) ? value + shift : value)) })) };
  const elsewhere = resultOf(moved, program);
  if (typeof elsewhere !== 'number' || Math.abs(elsewhere - after) > 1e-9 * Math.max(1, Math.abs(after))) return null;
  return {
    code: 'answer_from_assumption',
    severity: 'error',
    message: `every value the question reads lies on the line the assumption states (a step of ${Math.abs(step)} each period), and the answer is the same wherever that line starts: it follows from the stated step alone, with no chart reading`,
  };
}

/**
 * A gap of 0 on the chart (2003 and 2009 at the same rate) and the change the assumption states
 * as the new answer ("2003 raised by 2 points" → a difference of 2): whoever remembers the two
 * were equal reads the answer off the assumption.
 */
function gapFromNothing(assumption: string, before: Scalar | null, after: Scalar | null): Finding | null {
  if (before !== 0 || typeof after !== 'number' || after === 0) return null;
  if (!statedNumbers(assumption).some((n) => same(Math.abs(n), Math.abs(after)))) return null;
  return {
    code: 'answer_from_assumption',
    severity: 'error',
    message: `on the chart the answer is 0 and the assumption states the change (${after}) that becomes the answer: whoever remembers the two values were equal needs no chart`,
  };
}

/** `value` is `start + k × step` for a stated start and step and a whole k of at most `periods`. */
function onStatedTrend(value: number, starts: readonly number[], steps: readonly number[], periods: number): boolean {
  for (const start of starts) {
    for (const step of steps) {
      if (step === 0) continue;
      const k = (value - start) / step;
      if (k >= 1 && k <= periods && Math.abs(k - Math.round(k)) < 1e-6) return true;
    }
  }
  return false;
}

/** The stated start and step that every one of `values` lies on, if any. */
function statedTrend(values: readonly number[], stated: readonly number[], periods: number): { start: number; step: number } | null {
  for (const start of stated) {
    for (const step of stated) {
      if (step !== 0 && values.every((value) => onStatedTrend(value, [start], [step], periods))) return { start, step };
    }
  }
  return null;
}

/** Random charts the "whatever the values" check draws, and how many must answer for it to speak. */
const VALUE_SAMPLES = 24;
const MIN_ANSWERED = 16;

/**
 * A Yes/No or label that the edit gives on any chart of this shape: the chart's values drawn at
 * random (shares within 0–100, other values up to twice the column's largest), the edit applied,
 * the program run. When every drawn chart gives the item's answer, the answer follows from the
 * assumption alone: every share cut by a quarter can never average above 90; with one of three
 * bars removed, "the two smallest" are all of them and always outweigh the largest. Charts are
 * drawn from a fixed seed, so a verdict never changes between runs.
 */
function whateverTheValues({ program, original, edit }: GiveawayInput, after: Scalar): Finding | null {
  if (edit === null) return null;
  const random = mulberry32(0x5eed);
  const bounds = original.series.map((_, s) => {
    const values = original.rows.map((row) => row.values[s]).filter((v): v is number => v !== null && v !== undefined);
    const share = isPercentSeries(original, s) || (values.length > 0 && values.every((v) => v >= 0 && v <= 100) && nearHundred(sumOf(values)));
    return share ? 100 : 2 * Math.max(1, ...values.map(Math.abs));
  });
  let answered = 0;
  for (let n = 0; n < VALUE_SAMPLES; n++) {
    const drawn: DataTable = { ...original, rows: original.rows.map((row) => ({ ...row, values: row.values.map((v, s) => (v === null ? null : random() * (bounds[s] ?? 1))) })) };
    const applied = applyEdit(drawn, edit);
    if (!applied.ok) continue;
    const result = resultOf(applied.table, program);
    if (result === null) continue;
    if (!resultsAgree(result, after, [original])) return null;
    answered++;
  }
  if (answered < MIN_ANSWERED) return null;
  return {
    code: 'answer_from_assumption',
    severity: 'error',
    message: `the edit gives ${typeof after === 'boolean' ? (after ? 'Yes' : 'No') : JSON.stringify(after)} whatever the chart's values: on ${answered} charts of this shape with values drawn at random, the same answer — it follows from the assumption, not from reading the chart`,
  };
}

const EQUAL_COUNT = /^\s*count\(where\(.*,\s*"==",\s*-?\d+(\.\d+)?\)\)\s*$/s;

/**
 * "For how many years is the score 70?" → 0 once every value moves ("every value raised by
 * 10%"): no value is left exactly at 70 after almost any change, so the 0 is checked as a
 * Yes/No is (one counted row moved out leaves a count the reader must still make).
 */
function noneLeftEqual(program: string, after: number): boolean {
  return after === 0 && EQUAL_COUNT.test(program);
}

/** How far towards the edit the "any change" probe moves each changed cell. */
const PROBE_STEP = 1e-6;

/**
 * A Yes/No or a label that the smallest change in the same direction already gives: "Are A and
 * B equal?" → No once either moves; a tie for the largest broken by any raise. The answer then
 * follows from there being a change, not from the chart's values.
 */
function givenByAnyChange({ program, original, edited }: GiveawayInput, before: Scalar, after: Scalar): Finding | null {
  if (edited.rows.length !== original.rows.length || edited.series.length !== original.series.length) return null;
  if (edited.rows.some((row, r) => row.label !== original.rows[r]?.label) || edited.series.some((name, s) => name !== original.series[s])) return null;
  const tables = [original, edited];
  if (resultsAgree(before, after, tables)) return null;
  // A bar drawn where there was none (or taken away) has no "smaller change" towards it: the probe would be the edit itself.
  if (original.rows.some((row, r) => row.values.some((v, s) => (v === null) !== ((edited.rows[r]?.values[s] ?? null) === null)))) return null;
  const probe: DataTable = {
    ...original,
    rows: original.rows.map((row, r) => ({
      ...row,
      values: row.values.map((v, s) => {
        const e = edited.rows[r]?.values[s] ?? null;
        return v === null || e === null ? e : v + PROBE_STEP * (e - v);
      }),
    })),
  };
  const probed = resultOf(probe, program);
  if (probed === null || !resultsAgree(probed, after, tables)) return null;
  return {
    code: 'answer_from_assumption',
    severity: 'error',
    message: `any change in the assumption's direction, however small, already gives ${typeof after === 'boolean' ? (after ? 'Yes' : 'No') : JSON.stringify(after)}: the answer follows from there being a change, not from the chart's values`,
  };
}
