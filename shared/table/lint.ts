import { z } from 'zod';
import type { ChartType } from '../domain/chart-types';
import { axisDirection, orderKey } from './axis-order';
import { labelText } from './edit-apply';
import type { Edit, EditError, EditOp, Label } from './edit';
import { findLabelIndex, unknownLabelMessage } from './labels';
import type { DataTable } from './model';
import { averageRow, combinedColumn, printedStep, type CombinedColumn, nearHundred, PARTIAL_WHOLE_FLOOR, PERCENT_SUM_TOLERANCE, rowsAreWholes, rowsArePartialWholes, seriesIsWhole, sumOf, totalColumns, totalRow, wholeColumn, withinParts } from './wholes';

/**
 * Layout lint: does the edited table still fit the chart it claims to be? Findings are advice
 * to reviewers and filters for curators, never a veto. Each code's rule is stated next to it.
 */
export const LINT_CODES = [
  /** Pie: a series whose slices summed to 100 (± PERCENT_SUM_TOLERANCE) no longer does. Error. */
  'pie_sum',
  /** Every row summed to ~100 (shares of one whole, on any chart type: wholes.ts rowsAreWholes) and an edited row no longer does. Error. */
  'stacked_row_sum',
  /**
   * A part became larger than its whole: a row of shares that made up most of one whole now
   * passes 100, or a series (or row) stays within the one named as the whole ("Total market")
   * no longer does. Error.
   */
  'part_exceeds_whole',
  /** A series or row that was the sum of others (a NET or Total) no longer is after the edit: it was left stale. Error. */
  'total_stale',
  /** A share (a `%` column, or any pie column) was edited to a value outside 0–100. Error. */
  'share_out_of_range',
  /** A count column (non-negative whole numbers under a count-like header) was edited below zero. Error. */
  'count_negative',
  /** A count (by its header, the chart's title or a "how many" question) was edited to a fractional value: 180.5 companies. Error. */
  'count_not_integer',
  /** An op names a row or series that does not exist at that point of the edit. Error. */
  'unknown_label',
  /** The edit leaves every label and value as it was: the hypothesis assumes nothing. Warning. */
  'no_change',
  /** The edit removes the table's last row. Error. */
  'removes_last_row',
  /** The edit removes the table's last series. Error. */
  'removes_last_series',
  /**
   * Line/area chart whose rows were an ordered x sequence (years, seasons, quarters) and no
   * longer are: an added row whose label is not on the axis, or repeats a position. (add_row
   * inserts at the label's place and swap never moves labels, so order breaks only so.) Warning.
   */
  'x_order_broken',
  /** Not a pie, but a series of shares whose values summed to ~100 (the shares of one whole) no longer does. Error. */
  'share_sum',
  /** The edit could not be applied for another reason (a series left out of a multi-series table, a duplicate row, …). Error. */
  'edit_error',
  // Item findings (shared/table/item-lint.ts and the verifier): they need the item's words, program or proposal.
  /** The answer is a number the assumption itself writes into the table. Error. */
  'assumption_states_answer',
  /**
   * The answer follows from the assumption alone: every value the program reads is set, added or
   * quoted by it (two years set equal, a stated trend), or any change in its direction already
   * gives the Yes/No or label. Error.
   */
  'answer_from_assumption',
  /** The assumption says where the changed value ranks ("taking it above Italy"): an error when the answer is a label or Yes/No, which it gives away; else a warning. */
  'rank_clause',
  /** The answer is a row the edit adds: the reader learns it from the assumption. Error. */
  'added_row_answer',
  /** The program reads a row or series the question does not name, and not one it does. Error. */
  'reads_other_label',
  /** The question asks across the periods ("over the years") and the program reads one period. Error. */
  'single_period',
  /** An edited cell moves beyond what the chart makes plausible (settings `max_change_share`; change-magnitude.ts). Error. */
  'implausible_change',
  /** The program sums values that are not parts of one whole (percentages across years, temperatures, rates, indices). Warning. */
  'meaningless_aggregate',
  /** An edited value no such chart could show: a share past 100, a rating past its scale, a negative amount. Error. */
  'implausible_value',
  /** The program gives the same answer on the unedited and the edited table: the assumption does not matter. Warning. */
  'answer_unchanged',
  /** The item asks the factual question, but its program on the unedited chart does not give the factual label. Warning. */
  'misses_factual_label',
  /** The edit does not perform the operation the item's proposal names. Warning. */
  'proposal_inconsistent',
  /** The item breaks a constraint its proposal's text carries from reviewers' feedback (shared/generation/proposal-constraints.ts). Error. */
  'proposal_constraint',
  /**
   * The model's reply gave an edit op a number the op does not use (strict structured output
   * makes it fill every field, e.g. `"factor": 2` on a `set`); it was dropped. Info.
   */
  'edit_normalised',
  /** A generated item's numeric answer had more decimals than the chart shows; it was rounded to them (answer-precision.ts). Info. */
  'answer_rounded',
  /**
   * The program reads a value the table's extraction estimated from the chart's axis rather than
   * read from a printed label (and the edit leaves it): the answer rests on an estimate. Warning.
   */
  'estimated_value',
] as const;
export const LintCodeSchema = z.enum(LINT_CODES);
export type LintCode = z.infer<typeof LintCodeSchema>;

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export const SeveritySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof SeveritySchema>;

export const FindingSchema = z.object({ code: LintCodeSchema, severity: SeveritySchema, message: z.string() });
export type Finding = z.infer<typeof FindingSchema>;

export { PERCENT_SUM_TOLERANCE } from './wholes';

/** Header words that mark a column of counts (people, things, events), not amounts or scores. */
const COUNT_HEADER =
  /\b(number|numbers|count|counts|people|persons|students|cases|arrests|goals|stores|shops|companies|firms|employees|users|visitors|passengers|deaths|births|units|vehicles|households|respondents|votes|seats|wins|players|patients|members|subscribers|downloads|tourists|arrivals)\b/i;

/** How many offending cells one finding names before summarising. */
const MAX_CELLS_NAMED = 5;

/**
 * Lints an edit. `edited` is null when the edit failed to apply; then only the label walk
 * and `applyErrors` speak, since there is no edited table to check.
 */
export function lintEdit(
  chartType: ChartType,
  original: DataTable,
  edited: DataTable | null,
  edit: Edit,
  applyErrors: readonly EditError[] = [],
): Finding[] {
  const findings = walkLabels(original, edit);
  for (const error of applyErrors) {
    // The label walk already reports unknown names and emptied tables, with more context.
    if (['unknown_row', 'unknown_series', 'last_row', 'last_series'].includes(error.code)) continue;
    findings.push({ code: 'edit_error', severity: 'error', message: error.message });
  }
  if (!edited) return findings;
  if (sameTable(original, edited)) {
    findings.push({ code: 'no_change', severity: 'warning', message: 'the edit changes nothing: the edited table equals the original' });
  }
  findings.push(...seriesSums(chartType, original, edited));
  if (rowsAreWholes(original, chartType)) findings.push(...stackedRowSums(original, edited));
  else if (rowsArePartialWholes(original)) findings.push(...partialRowSums(original, edited));
  findings.push(...totalsKept(original, edited));
  if (chartType === 'line' || chartType === 'area') findings.push(...xOrder(original, edited));
  findings.push(...valueRanges(chartType, original, edited));
  return findings;
}

/** Replays the edit on labels alone, so every bad name is reported, not only the first. */
function walkLabels(original: DataTable, edit: Edit): Finding[] {
  const rows = original.rows.map((row) => row.label);
  const series = [...original.series];
  const findings: Finding[] = [];
  const check = (index: number, op: EditOp, kind: 'row' | 'series', label: Label | undefined): number => {
    if (label === undefined) return -1;
    const labels = kind === 'row' ? rows : series;
    const found = findLabelIndex(labels, labelText(label));
    if (found === -1) {
      findings.push({ code: 'unknown_label', severity: 'error', message: `op ${index + 1} (${op.op}): ${unknownLabelMessage(kind, labelText(label), labels)}` });
    }
    return found;
  };
  edit.forEach((op, index) => {
    switch (op.op) {
      case 'set':
      case 'scale':
      case 'add':
        check(index, op, 'row', op.row);
        check(index, op, 'series', op.series);
        return;
      case 'swap':
        check(index, op, 'row', op.rows[0]);
        check(index, op, 'row', op.rows[1]);
        check(index, op, 'series', op.series);
        return;
      case 'remove_row': {
        const found = check(index, op, 'row', op.row);
        if (found === -1) return;
        if (rows.length === 1) {
          findings.push({ code: 'removes_last_row', severity: 'error', message: `op ${index + 1} removes ${JSON.stringify(rows[0])}, the table's last row` });
          return;
        }
        rows.splice(found, 1);
        return;
      }
      case 'remove_series': {
        const found = check(index, op, 'series', op.series);
        if (found === -1) return;
        if (series.length === 1) {
          findings.push({ code: 'removes_last_series', severity: 'error', message: `op ${index + 1} removes ${JSON.stringify(series[0])}, the table's last series` });
          return;
        }
        series.splice(found, 1);
        return;
      }
      case 'add_row':
        if (typeof op.values === 'object') for (const name of Object.keys(op.values)) check(index, op, 'series', name);
        if (findLabelIndex(rows, labelText(op.row)) === -1) rows.push(labelText(op.row));
        return;
    }
  });
  return findings;
}

/** Pie slices (an error) and any other shares of one whole (a warning: the whole is inferred) must still sum to 100. */
function seriesSums(chartType: ChartType, original: DataTable, edited: DataTable): Finding[] {
  const findings: Finding[] = [];
  const timeAxis = axisDirection(original.rows.map((row) => row.label)) !== null;
  original.series.forEach((name, s) => {
    const e = edited.series.indexOf(name);
    if (e === -1 || !seriesIsWhole(original, chartType, s, timeAxis)) return;
    const after = sumOf(edited.rows.map((row) => row.values[e]));
    if (nearHundred(after)) return;
    findings.push(
      chartType === 'pie'
        ? { code: 'pie_sum', severity: 'error', message: `the slices of ${JSON.stringify(name)} now sum to ${round2(after)} instead of 100; adjust the other slices so the pie stays a whole` }
        : {
            code: 'share_sum',
            severity: 'error',
            message: `the shares of ${JSON.stringify(name)} summed to 100 (parts of one whole) but now sum to ${round2(after)}; take the change from the other parts`,
          },
    );
  });
  return findings;
}

function stackedRowSums(original: DataTable, edited: DataTable): Finding[] {
  const broken = edited.rows.filter((row) => row.values.some((v) => v !== null) && !nearHundred(sumOf(row.values)));
  if (broken.length === 0) return [];
  const named = broken.slice(0, MAX_CELLS_NAMED).map((row) => `${JSON.stringify(row.label)} sums to ${round2(sumOf(row.values))}`);
  return [
    {
      code: 'stacked_row_sum',
      severity: 'error',
      message: `every row of this chart summed to 100 (the shares of one whole), but now ${named.join(', ')}${more(broken.length)}; take the change from the other parts`,
    },
  ];
}

/**
 * Rows that were most of one whole (80–100: the answers of a question, "Don't know" left out)
 * may not pass 100, nor fall below 80 (halving a row leaves half the people without an answer).
 */
function partialRowSums(original: DataTable, edited: DataTable): Finding[] {
  const changed = new Set(diffRows(original, edited));
  const over = edited.rows.filter((row) => changed.has(row.label) && sumOf(row.values) > 100 + PERCENT_SUM_TOLERANCE);
  const under = edited.rows.filter((row) => changed.has(row.label) && row.values.some((v) => v !== null) && sumOf(row.values) < PARTIAL_WHOLE_FLOOR);
  const named = (rows: DataTable['rows']) => rows.slice(0, MAX_CELLS_NAMED).map((row) => `${JSON.stringify(row.label)} sums to ${round2(sumOf(row.values))}`).join(', ') + more(rows.length);
  const findings: Finding[] = [];
  if (over.length > 0) {
    findings.push({ code: 'part_exceeds_whole', severity: 'error', message: `every row's shares made up most of one whole (${PARTIAL_WHOLE_FLOOR}–100), but now ${named(over)}: the parts exceed their whole` });
  }
  if (under.length > 0) {
    findings.push({ code: 'stacked_row_sum', severity: 'error', message: `every row's shares made up most of one whole (${PARTIAL_WHOLE_FLOOR}–100), but now ${named(under)}: take the change from the other answers` });
  }
  return findings;
}

/** NET/Total series and rows must still be the sum of their parts; a part stays within the series named as its whole. */
function totalsKept(original: DataTable, edited: DataTable): Finding[] {
  const findings: Finding[] = [];
  const changedRows = new Set(diffRows(original, edited));
  for (const { total, parts } of totalColumns(original)) {
    const name = original.series[total] ?? '';
    const e = edited.series.indexOf(name);
    const partIndexes = parts.map((p) => edited.series.indexOf(original.series[p] ?? ''));
    if (e === -1) continue;
    // A part removed from the legend leaves its NET counting it.
    const removed = parts.filter((_, i) => partIndexes[i] === -1).map((p) => JSON.stringify(original.series[p]));
    if (removed.length > 0) {
      findings.push({ code: 'total_stale', severity: 'error', message: `${JSON.stringify(name)} is the sum of its parts, but the edit removes ${removed.join(', ')} and leaves the total counting it` });
      continue;
    }
    const stale = edited.rows.filter((row) => {
      if (!changedRows.has(row.label) || row.values[e] === null || partIndexes.some((p) => row.values[p] === null)) return false;
      const totalValue = row.values[e] ?? 0;
      return Math.abs(totalValue - sumOf(partIndexes.map((p) => row.values[p]))) > Math.max(1, Math.abs(totalValue) * 0.01);
    });
    if (stale.length === 0) continue;
    const partNames = parts.map((p) => JSON.stringify(original.series[p])).join(' + ');
    findings.push({
      code: 'total_stale',
      severity: 'error',
      message: `${JSON.stringify(name)} is the sum ${partNames}, but after the edit it no longer is for ${stale.slice(0, MAX_CELLS_NAMED).map((row) => JSON.stringify(row.label)).join(', ')}${more(stale.length)}; change the total with its parts`,
    });
  }
  const t = totalRow(original);
  const totalLabel = t === null ? null : (original.rows[t]?.label ?? null);
  const editedTotal = totalLabel === null ? undefined : edited.rows.find((row) => row.label === totalLabel);
  if (editedTotal && [...changedRows].some((label) => label !== totalLabel) && edited.rows.length === original.rows.length) {
    const others = edited.rows.filter((row) => row !== editedTotal);
    const stale = edited.series.filter((_, s) => editedTotal.values[s] !== null && others.every((row) => row.values[s] !== null) && Math.abs((editedTotal.values[s] ?? 0) - sumOf(others.map((row) => row.values[s]))) > Math.max(1, Math.abs(editedTotal.values[s] ?? 0) * 0.01));
    if (stale.length > 0) {
      findings.push({ code: 'total_stale', severity: 'error', message: `the row ${JSON.stringify(totalLabel)} is the sum of the other rows, but after the edit it no longer is in ${stale.map((name) => JSON.stringify(name)).join(', ')}; change the total with its parts` });
    }
  }
  const combined = combinedColumn(original);
  const combinedName = combined === null ? null : (original.series[combined.combined] ?? '');
  if (combined !== null && combinedName !== null) {
    const c = edited.series.indexOf(combinedName);
    const parts = combined.parts.map((p) => edited.series.indexOf(original.series[p] ?? ''));
    const outside = c === -1 || parts.includes(-1) ? [] : edited.rows.filter((row) => changedRows.has(row.label) && (!withinParts(row, c, parts) || combinedStill(original, row, combined, c, parts)));
    if (outside.length > 0) {
      findings.push({
        code: 'total_stale',
        severity: 'error',
        message: `${JSON.stringify(combinedName)} is the combined rate of ${combined.parts.map((p) => JSON.stringify(original.series[p])).join(' and ')} and lies between them in every row, but after the edit it does not for ${outside
          .slice(0, MAX_CELLS_NAMED)
          .map((row) => JSON.stringify(row.label))
          .join(', ')}${more(outside.length)}; change it with its parts`,
      });
    }
  }
  // An average of the categories left where it was while one of them moved: a warning, since the table does not say which rows it averages.
  const a = averageRow(original);
  const averageLabel = a === null ? null : (original.rows[a]?.label ?? null);
  const averageNow = averageLabel === null ? undefined : edited.rows.find((row) => row.label === averageLabel);
  const averageBefore = a === null ? undefined : original.rows[a];
  const stillAverage = averageNow !== undefined && averageBefore !== undefined && original.series.every((name, s) => averageBefore.values[s] === (averageNow.values[edited.series.indexOf(name)] ?? null));
  if (averageLabel !== null && stillAverage) {
    const moved = [...changedRows].filter((label) => label !== averageLabel);
    if (moved.length > 0) {
      findings.push({
        code: 'total_stale',
        severity: 'warning',
        message: `${JSON.stringify(averageLabel)} averages the categories, but the edit moves ${moved
          .slice(0, MAX_CELLS_NAMED)
          .map((label) => JSON.stringify(label))
          .join(', ')}${more(moved.length)} and leaves it as it was; move it too if it averages them`,
      });
    }
  }
  const w = wholeColumn(original);
  const wholeName = w === null ? null : (original.series[w] ?? null);
  const we = wholeName === null ? -1 : edited.series.indexOf(wholeName);
  if (we !== -1 && !totalColumns(original).some((column) => column.total === w)) {
    const over = edited.rows.flatMap((row) =>
      changedRows.has(row.label) && row.values[we] !== null
        ? row.values.flatMap((v, s) => (s !== we && v !== null && v > (row.values[we] ?? 0) + 1e-9 ? [`${JSON.stringify(row.label)} / ${JSON.stringify(edited.series[s])} = ${round2(v)}`] : []))
        : [],
    );
    if (over.length > 0) {
      findings.push({ code: 'part_exceeds_whole', severity: 'error', message: `every series stayed within ${JSON.stringify(wholeName)}, its whole, but after the edit ${over.slice(0, MAX_CELLS_NAMED).join(', ')}${more(over.length)} is larger than it` });
    }
    // A part moved while its whole stood still: the unshown rest of the whole moved the other way
    // (Hungary's domestic insurers 23 → 16 with the market still 28: foreign ones 5 → 12). A
    // warning for reviewers: the rest may have moved so on purpose, and the offline rules cannot
    // yet move a whole with its part.
    const stale = edited.rows.flatMap((row) => {
      const before = original.rows.find((candidate) => candidate.label === row.label);
      if (!before || !changedRows.has(row.label) || row.values[we] === null || w === null || row.values[we] !== before.values[w]) return [];
      const moved = edited.series.flatMap((name, s) => {
        const o = original.series.indexOf(name);
        return s !== we && o !== -1 && row.values[s] !== null && before.values[o] !== null && row.values[s] !== before.values[o] ? [name] : [];
      });
      return moved.length > 0 ? [`${JSON.stringify(row.label)} / ${moved.map((name) => JSON.stringify(name)).join(', ')}`] : [];
    });
    if (stale.length > 0) {
      findings.push({ code: 'total_stale', severity: 'warning', message: `${JSON.stringify(wholeName)} is the whole the other series lie within, but the edit moves ${stale.slice(0, MAX_CELLS_NAMED).join('; ')}${more(stale.length)} and leaves the whole as it was; change the whole with its part` });
    }
  }
  return findings;
}

/**
 * A part moved (by more than its printing) while the combined rate stood still, or moved the
 * other way: Men's 91% halved with "Both sexes" still 92%.
 */
function combinedStill(original: DataTable, row: DataTable['rows'][number], combined: CombinedColumn, c: number, parts: readonly number[]): boolean {
  const before = original.rows.find((candidate) => candidate.label === row.label);
  if (!before) return false;
  const was = before.values[combined.combined];
  const now = row.values[c];
  if (was === null || was === undefined || now === null || now === undefined) return false;
  const deltas = combined.parts.map((p, i) => {
    const from = before.values[p];
    const to = row.values[parts[i] ?? -1];
    return from === null || from === undefined || to === null || to === undefined ? 0 : to - from;
  });
  const moved = deltas.some((delta, i) => Math.abs(delta) > printedStep(before.raw[combined.parts[i] ?? -1], before.values[combined.parts[i] ?? -1] ?? null) + 1e-9);
  if (!moved) return false;
  const mean = deltas.reduce((a, b) => a + b, 0) / deltas.length;
  return now === was ? Math.abs(mean) > printedStep(before.raw[combined.combined], was) + 1e-9 : Math.sign(now - was) !== Math.sign(mean) && mean !== 0;
}

/** Labels of rows the edit changed or added. */
function diffRows(original: DataTable, edited: DataTable): string[] {
  return edited.rows
    .filter((row) => {
      const before = original.rows.find((r) => r.label === row.label);
      if (!before) return true;
      return row.values.some((v, s) => {
        const name = edited.series[s] ?? '';
        const o = original.series.indexOf(name);
        return o === -1 || before.values[o] !== v;
      });
    })
    .map((row) => row.label);
}

/** The shares and counts rules look only at cells the edit changed or added, not at quirks the source already had. */
function valueRanges(chartType: ChartType, original: DataTable, edited: DataTable): Finding[] {
  const findings: Finding[] = [];
  edited.series.forEach((name, e) => {
    const s = original.series.indexOf(name);
    const column = s === -1 ? [] : original.rows.map((row) => ({ raw: row.raw[s] ?? '', value: row.values[s] ?? null }));
    const isShare = chartType === 'pie' || column.some((cell) => /%\s*\*?$/.test(cell.raw.trim()));
    const numbers = column.map((cell) => cell.value).filter((v): v is number => v !== null);
    const isCount = !isShare && numbers.length > 0 && numbers.every((v) => Number.isInteger(v) && v >= 0) && COUNT_HEADER.test(name);
    if (!isShare && !isCount) return;
    const touched = edited.rows
      .map((row) => ({ label: row.label, value: row.values[e] ?? null, before: originalValue(original, row.label, s) }))
      .filter((cell): cell is { label: string; value: number; before: number | null } => cell.value !== null && cell.value !== cell.before);
    const describeCells = (cells: typeof touched) =>
      cells.slice(0, MAX_CELLS_NAMED).map((cell) => `${JSON.stringify(cell.label)} = ${round2(cell.value)}`).join(', ') + more(cells.length);
    if (isShare) {
      const outside = touched.filter((cell) => cell.value < 0 || cell.value > 100);
      if (outside.length > 0) {
        findings.push({ code: 'share_out_of_range', severity: 'error', message: `${JSON.stringify(name)} is a share, but the edit makes ${describeCells(outside)}; shares lie within 0–100` });
      }
      return;
    }
    const negative = touched.filter((cell) => cell.value < 0);
    if (negative.length > 0) {
      findings.push({ code: 'count_negative', severity: 'error', message: `${JSON.stringify(name)} counts things, but the edit makes ${describeCells(negative)}; counts cannot be negative` });
    }
    const fractional = touched.filter((cell) => !Number.isInteger(cell.value));
    if (fractional.length > 0) {
      findings.push({ code: 'count_not_integer', severity: 'error', message: `${JSON.stringify(name)} counts things, but the edit makes ${describeCells(fractional)}; round to whole numbers` });
    }
  });
  return findings;
}

function xOrder(original: DataTable, edited: DataTable): Finding[] {
  const direction = axisDirection(original.rows.map((row) => row.label));
  if (direction === null || edited.rows.length < 2) return [];
  if (axisDirection(edited.rows.map((row) => row.label)) === direction) return [];
  const after = edited.rows.map((row) => orderKey(row.label));
  const offenders = edited.rows.filter((row, i) => {
    const key = after[i] ?? null;
    const previous = i > 0 ? (after[i - 1] ?? null) : null;
    return key === null || (previous !== null && (direction === 'ascending' ? key <= previous : key >= previous));
  });
  const named = offenders.slice(0, MAX_CELLS_NAMED).map((row) => JSON.stringify(row.label)).join(', ');
  return [
    {
      code: 'x_order_broken',
      severity: 'warning',
      message: `the x axis ran in ${direction} order, but ${named}${more(offenders.length)} now break it; the line would double back`,
    },
  ];
}

function sameTable(a: DataTable, b: DataTable): boolean {
  if (a.series.length !== b.series.length || a.series.some((name, s) => name !== b.series[s])) return false;
  if (a.rows.length !== b.rows.length) return false;
  return a.rows.every((row, r) => {
    const other = b.rows[r];
    return other !== undefined && other.label === row.label && row.values.every((v, s) => v === other.values[s]);
  });
}

function originalValue(original: DataTable, label: string, s: number): number | null {
  if (s === -1) return null;
  return original.rows.find((row) => row.label === label)?.values[s] ?? null;
}


function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function more(count: number): string {
  return count > MAX_CELLS_NAMED ? ` and ${count - MAX_CELLS_NAMED} more` : '';
}
