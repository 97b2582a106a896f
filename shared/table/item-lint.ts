import type { ChartType } from '../domain/chart-types';
import { implausibleChanges } from './change-magnitude';
import type { Edit } from './edit';
import { diffTables } from './edit-apply';
import { giveawayFindings } from './giveaway-checks';
import { countFindings, readingFindings } from './reading-checks';
import type { Finding } from './lint';
import type { DataTable } from './model';
import { nearHundred, PERCENT_SUM_TOLERANCE, sumOf } from './wholes';
import { parseProgram, type Node } from './program';
import { cellsRead, programReads } from './program/reads';

/**
 * Item lint: what the layout lint cannot see because it needs the item's words and program —
 * an assumption that gives the answer away, an answer the assumption alone decides, a program
 * that reads what the question does not ask, a total of things that do not add up, a value or a
 * change no such chart could show. Errors are what a strict reviewer rejects: generated items
 * with one are kept from reviewers (item-service.ts).
 */

export interface ItemLintInput {
  chartType: ChartType;
  title: string;
  assumption: string;
  program: string;
  /** The answer the item ships (or the recomputed one when the item has none). */
  answer: string;
  original: DataTable;
  /** Null when the edit did not apply. */
  edited: DataTable | null;
  /** The question as asked, without its assumption; the reading checks need it. */
  question?: string;
  /** The parsed edit, when it applied: which cells the assumption sets. */
  edit?: Edit | null;
  /** Settings `max_change_share` (change-magnitude.ts). */
  maxChangeShare?: number;
}

/** Series (or titles) whose values are levels, rates or indices: a sum of them measures nothing. */
const NON_ADDITIVE =
  /\b(temperature|°[cf]|degrees?|rate|rates|ratio|index|indices|average|avg|mean|median|per capita|per \w+|score|rating|price|prices|growth|inflation|yield|density|speed|percentile|share|proportion|penetration|margin|gdp per)\b/i;
/** Headers that name a share of a whole even when cells carry no `%`. */
const SHARE_HEADER = /\b(share|percent|percentage|proportion|%)\b/i;
/** Headers of ratings on a fixed scale. */
const RATING_HEADER = /\b(rating|ratings|score|scores|stars|satisfaction)\b/i;
/** Headers of quantities that cannot be negative (counts, money, sizes). */
const AMOUNT_HEADER =
  /\b(number|count|population|people|revenue|sales|income|turnover|spending|expenditure|users|visitors|students|employees|units|shipments|production|volume|amount|value in|in (million|billion|thousand)s?|tons|tonnes|passengers|arrests|cases|deaths|births)\b/i;
/** Rating scales a column may be on: the smallest one holding every original value. */
const RATING_SCALES = [5, 7, 10, 100];

export function lintItem(input: ItemLintInput): Finding[] {
  const { edited } = input;
  if (edited === null) return [...meaninglessAggregates(input), ...estimatedReadings(input)];
  const stated = statesAnswer(input);
  const giveaways = giveawayFindings({ assumption: input.assumption, program: input.program, original: input.original, edited, edit: input.edit ?? null })
    // "Suppose X were 45. What is X?" is said once, by the older, more specific finding.
    .filter((finding) => stated.length === 0 || finding.code !== 'answer_from_assumption');
  const question = input.question ?? '';
  return [
    ...stated,
    ...giveaways,
    ...meaninglessAggregates(input),
    ...implausibleValues(input, edited),
    ...implausibleChanges(input.original, edited, input.maxChangeShare),
    ...(question.trim() === '' ? [] : readingFindings({ question, program: input.program, title: input.title, original: input.original, edited })),
    ...countFindings({ question, title: input.title, original: input.original, edited }),
    ...estimatedReadings(input),
  ];
}

/** How many estimated cells a finding names before "and N more". */
const ESTIMATES_NAMED = 3;

/**
 * The program reads values the extraction estimated from the axis (shared/table/model.ts
 * `estimated`): the answer rests on a reading a printed label would not have needed, a few
 * percent off at worst. A cell the edit sets is the assumption's, not the chart's: left out (one it
 * scales or shifts still rests on the estimate: kept). A
 * program whose reads cannot be found from its text claims nothing.
 */
function estimatedReadings({ program, original, edited, edit }: Pick<ItemLintInput, 'program' | 'original' | 'edited' | 'edit'>): Finding[] {
  if (!original.rows.some((row) => row.estimated?.some(Boolean))) return [];
  const reads = programReads(program, original);
  if (reads === null) return [];
  const editedRows = new Map((edited?.rows ?? []).map((row) => [row.label, row]));
  // Only a `set` writes a cell the chart's reading no longer enters; a scale or an add of an estimate is as far off as the estimate.
  const unmarked = (label: string | number) => String(label).replace(/\*+$/, '').trim();
  const setCells = new Set((edit ?? []).flatMap((op) => (op.op === 'set' ? [`${unmarked(op.row)}\u0000${op.series === undefined ? '' : unmarked(op.series)}`] : [])));
  const setByEdit = (row: string, series: string) => setCells.has(`${unmarked(row)}\u0000${unmarked(series)}`) || (original.series.length === 1 && setCells.has(`${unmarked(row)}\u0000`));
  const estimated = [...cellsRead(reads, original)].flatMap((key) => {
    const [r = -1, s = -1] = key.split(',').map(Number);
    const row = original.rows[r];
    if (!row?.estimated?.[s]) return [];
    const after = edited === null ? row : editedRows.get(row.label);
    const series = original.series[s] ?? '';
    const afterAt = edited === null ? s : edited.series.indexOf(series);
    // Removed with its row or series, or set by the edit: not read from the chart.
    if (!after || afterAt < 0 || (after.values[afterAt] !== row.values[s] && setByEdit(row.label, series))) return [];
    return [`${JSON.stringify(row.label)} × ${JSON.stringify(series)} (${row.raw[s] ?? ''})`];
  });
  if (estimated.length === 0) return [];
  const named = estimated.slice(0, ESTIMATES_NAMED).join(', ');
  const more = estimated.length > ESTIMATES_NAMED ? ` and ${estimated.length - ESTIMATES_NAMED} more` : '';
  return [
    {
      code: 'estimated_value',
      severity: 'warning',
      message: `the answer depends on ${estimated.length === 1 ? 'a value' : 'values'} estimated from the chart's axis, not printed on it: ${named}${more}; check ${estimated.length === 1 ? 'it' : 'them'} against the image`,
    },
  ];
}

/**
 * "Suppose Slovenia were 0. What would Slovenia be?": the answer is a number the assumption
 * itself writes into the table (an edited or added cell), so no chart reading is needed.
 */
function statesAnswer({ assumption, answer, original, edited }: ItemLintInput): Finding[] {
  const value = plainNumber(answer);
  if (value === null || edited === null) return [];
  const stated = [...assumption.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/-?\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
  if (!stated.includes(value)) return [];
  const originalLabels = new Set(original.rows.map((row) => row.label));
  const written = [
    ...diffTables(original, edited).map((change) => change.after),
    ...edited.rows.filter((row) => !originalLabels.has(row.label)).flatMap((row) => row.values),
  ];
  if (!written.some((cell) => cell !== null && Math.abs(cell - value) <= 1e-9 * Math.max(1, Math.abs(value)))) return [];
  return [
    {
      code: 'assumption_states_answer',
      severity: 'error',
      message: `the assumption already states the answer (${answer.trim()}): the question asks for a value the assumption sets, so it needs no chart reading`,
    },
  ];
}

/** `1,200`, `45%`, `-3.5` as plain numbers; null for anything else. */
function plainNumber(text: string): number | null {
  const body = text.trim().replace(/%$/, '').replace(/(\d),(\d{3})/g, '$1$2');
  if (!/^-?\d+(\.\d+)?$/.test(body)) return null;
  return Number(body);
}

/** sum() over a series or row whose values are not parts of one whole. */
function meaninglessAggregates({ chartType, title, program, original }: ItemLintInput): Finding[] {
  let tree: Node;
  try {
    tree = parseProgram(program);
  } catch {
    return [];
  }
  const findings: Finding[] = [];
  for (const target of summedLists(tree)) {
    const reason = target.kind === 'series' ? seriesReason(original, chartType, title, target.name) : rowReason(original, chartType, target.name ?? '');
    if (reason === null) continue;
    findings.push({
      code: 'meaningless_aggregate',
      severity: 'warning',
      message: `the program sums ${target.kind === 'series' ? `the series ${JSON.stringify(target.name ?? original.series[0])}` : `the row ${JSON.stringify(target.name)}`}, but ${reason}: its total measures nothing`,
    });
  }
  return findings;
}

interface Summed {
  kind: 'series' | 'row';
  /** null: `series()` on a one-series table. */
  name: string | null;
}

/** The lists that a `sum(…)` call adds up, found anywhere in the program. */
function summedLists(node: Node): Summed[] {
  const out: Summed[] = [];
  const visit = (n: Node) => {
    if (n.kind === 'call') {
      if (n.name.toLowerCase() === 'sum') {
        for (const arg of n.args) {
          if (arg.kind !== 'call') continue;
          const fn = arg.name.toLowerCase();
          const first = arg.args[0];
          const name = first && (first.kind === 'string' || first.kind === 'number') ? String(first.value) : null;
          if (fn === 'series') out.push({ kind: 'series', name });
          if (fn === 'row' && name !== null) out.push({ kind: 'row', name });
        }
      }
      n.args.forEach(visit);
    } else if (n.kind === 'binary') {
      visit(n.left);
      visit(n.right);
    } else if (n.kind === 'negate' || n.kind === 'not') {
      visit(n.operand);
    }
  };
  visit(node);
  return out;
}

function columnCells(table: DataTable, name: string | null): { raw: string; value: number }[] {
  const s = name === null ? 0 : table.series.findIndex((series) => series.trim().toLowerCase() === name.trim().toLowerCase());
  if (s === -1) return [];
  return table.rows.flatMap((row) => {
    const value = row.values[s];
    return value === null || value === undefined ? [] : [{ raw: row.raw[s] ?? '', value }];
  });
}


function seriesReason(table: DataTable, chartType: ChartType, title: string, name: string | null): string | null {
  const header = name ?? table.series[0] ?? '';
  const cells = columnCells(table, name);
  const total = cells.reduce((sum, cell) => sum + cell.value, 0);
  const percent = cells.some((cell) => /%\s*\*?$/.test(cell.raw.trim())) || SHARE_HEADER.test(header);
  // Slices of a pie (or any share column that sums to 100) are parts of one whole.
  if (percent && (chartType === 'pie' || nearHundred(total))) return null;
  if (percent) return `its values are percentages that do not make up one whole (they sum to ${Math.round(total * 100) / 100})`;
  const words = `${header} ${table.label_header} ${title}`;
  const level = NON_ADDITIVE.exec(words);
  if (level && chartType !== 'pie') return `it measures ${level[0].toLowerCase()}, a level rather than an amount`;
  return null;
}

function rowReason(table: DataTable, chartType: ChartType, label: string): string | null {
  const row = table.rows.find((r) => r.label.trim().toLowerCase() === label.trim().toLowerCase());
  if (!row) return null;
  const percent = row.raw.some((raw) => /%\s*\*?$/.test(raw.trim())) || table.series.every((name) => SHARE_HEADER.test(name));
  const total = row.values.reduce<number>((sum, v) => sum + (v ?? 0), 0);
  if (percent && !(chartType === 'stacked_bar' && nearHundred(total)) && !nearHundred(total)) {
    return `its cells are percentages of different series, not parts of one whole (they sum to ${Math.round(total * 100) / 100})`;
  }
  const level = table.series.map((name) => NON_ADDITIVE.exec(name)).find((m) => m !== null);
  if (level) return `its series measure ${level[0].toLowerCase()}, a level rather than an amount`;
  return null;
}

/** Headers of the shares of one market: together they can never pass 100. */
const MARKET_SHARE = /\bmarket shares?\b/i;

/** Edited or added cells no such chart could show: a share past 100, a rating past its scale, a negative amount, a market past 100%. */
function implausibleValues({ original, title }: ItemLintInput, edited: DataTable): Finding[] {
  const findings: Finding[] = [];
  edited.series.forEach((name, e) => {
    if (!MARKET_SHARE.test(`${name} ${title}`)) return;
    const s = original.series.indexOf(name);
    const before = s === -1 ? 0 : sumOf(original.rows.map((row) => row.values[s]));
    const after = sumOf(edited.rows.map((row) => row.values[e]));
    if (before <= 100 + PERCENT_SUM_TOLERANCE && after > 100 + PERCENT_SUM_TOLERANCE) {
      findings.push({ code: 'implausible_value', severity: 'error', message: `the market shares of ${JSON.stringify(name)} now add up to ${Math.round(after * 100) / 100}%, more than the whole market` });
    }
  });
  const changes = diffTables(original, edited);
  const originalLabels = new Set(original.rows.map((row) => row.label));
  const added = edited.rows.filter((row) => !originalLabels.has(row.label));
  const touched = [
    ...changes.flatMap((change) => (change.after === null ? [] : [{ row: change.row, series: change.series, value: change.after }])),
    ...added.flatMap((row) => edited.series.flatMap((series, s) => (row.values[s] === null || row.values[s] === undefined ? [] : [{ row: row.label, series, value: row.values[s] }]))),
  ];
  for (const cell of touched) {
    const cells = columnCells(original, cell.series);
    const values = cells.map((c) => c.value);
    const reason = implausibility(cell.series, values, cell.value, title);
    if (reason === null) continue;
    findings.push({ code: 'implausible_value', severity: 'error', message: `${JSON.stringify(cell.row)} / ${JSON.stringify(cell.series)} becomes ${cell.value}: ${reason}` });
  }
  return findings;
}

function implausibility(header: string, values: readonly number[], value: number, title: string): string | null {
  if (values.length === 0) return null;
  const nonNegative = values.every((v) => v >= 0);
  if (SHARE_HEADER.test(header) && nonNegative && values.every((v) => v <= 100) && (value > 100 || value < 0)) {
    return 'the series is a share, and shares lie within 0–100';
  }
  // A chart titled "ratings" rates in every series, whatever each series is called.
  if ((RATING_HEADER.test(header) || RATING_HEADER.test(title)) && nonNegative) {
    const scale = RATING_SCALES.find((top) => values.every((v) => v <= top));
    if (scale !== undefined && (value > scale || value < 0)) return `the series is a rating on a scale of 0–${scale}, which the new value leaves`;
  }
  if (AMOUNT_HEADER.test(header) && nonNegative && value < 0) return 'the series counts or measures an amount, which cannot be negative';
  return null;
}
