import { z } from 'zod';
import { formatHalfUp } from './decimal-round';
import { declineRateDecimal, populationVarianceDecimal } from './metrics';

/**
 * Published figures in the layout of the Chart-HQA paper's tables (arXiv 2503.04095), as TSV:
 * Table 3 (ChartQA accuracy, Chart-HQA accuracy, decline rate per model) and Table 4 (Chart-HQA
 * accuracy per answer type and its variance). The same reader serves the tests that reproduce the
 * paper, the Evaluation page (which shows a file's errors before sending it) and the server
 * (which reads the upload again). Figures stay the decimal text the table prints ("83.60"), so
 * recomputing them is exact; a row is keyed by model + params (Qwen2.5-VL appears at 7B and 72B).
 */

export const PAPER_TABLE_KINDS = ['table3', 'table4'] as const;
export const PaperTableKindSchema = z.enum(PAPER_TABLE_KINDS);
export type PaperTableKind = z.infer<typeof PaperTableKindSchema>;

/** The header of each layout, in the paper's order. */
export const PAPER_TABLE_COLUMNS = {
  table3: ['model', 'type', 'params', 'chartqa_acc', 'chartqa_rank', 'chart_hqa_acc', 'chart_hqa_rank', 'decline_rate'],
  table4: ['model', 'type', 'params', 'int', 'dec', 'bool', 'text', 'variance'],
} as const satisfies Record<PaperTableKind, readonly string[]>;

/** Rows one file may hold: a paper's table has tens; this only bounds a mistaken upload. */
export const MAX_PAPER_TABLE_ROWS = 1_000;

const MAX_NAME_LENGTH = 200;
const DECIMAL = /^\d+(\.\d+)?$/;

const nameCell = z.string().min(1, 'is empty').max(MAX_NAME_LENGTH, `is longer than ${MAX_NAME_LENGTH} characters`);
/** A non-negative decimal as printed ("83.60"); kept as text so nothing rounds it. */
const decimalCell = z.string().regex(DECIMAL, 'is not a decimal number such as 83.60');
const percentCell = decimalCell.refine((text) => Number(text) <= 100, 'is a percentage above 100');
/** A rank, or "-" (or nothing) where the table gives none. */
const rankCell = z
  .string()
  .regex(/^([1-9]\d*|-)?$/, 'is not a rank (a whole number from 1) or "-"')
  .transform((text) => (text === '-' || text === '' ? null : Number(text)));

/** What one TSV line of Table 3 holds, cell by cell (each cell as the reader trimmed it). */
const Table3CellsSchema = z.object({
  model: nameCell,
  type: nameCell,
  /** Parameter count as printed ("0.3B"), "-" where unpublished. */
  params: nameCell,
  chartqa_acc: percentCell,
  chartqa_rank: rankCell,
  chart_hqa_acc: percentCell,
  chart_hqa_rank: rankCell,
  decline_rate: decimalCell,
});

/** What one TSV line of Table 4 holds. */
const Table4CellsSchema = z.object({
  model: nameCell,
  type: nameCell,
  params: nameCell,
  int: percentCell,
  dec: percentCell,
  bool: percentCell,
  text: percentCell,
  variance: decimalCell,
});

// A row as read, stored and sent: figures as printed decimal text, ranks as numbers (or null).
const decimalText = z.string().regex(DECIMAL);
const rank = z.number().int().min(1).nullable();

/** A Table 3 row: model, type, params; ChartQA and Chart-HQA accuracy (percent) and rank; the printed decline rate. */
export const Table3RowSchema = z.object({
  model: z.string(),
  type: z.string(),
  params: z.string(),
  chartqa_acc: decimalText,
  chartqa_rank: rank,
  chart_hqa_acc: decimalText,
  chart_hqa_rank: rank,
  decline_rate: decimalText,
});
export type Table3Row = z.output<typeof Table3RowSchema>;

/** A Table 4 row: Chart-HQA accuracy (percent) per answer type (integer, decimal, boolean, text) and the printed variance. */
export const Table4RowSchema = z.object({
  model: z.string(),
  type: z.string(),
  params: z.string(),
  int: decimalText,
  dec: decimalText,
  bool: decimalText,
  text: decimalText,
  variance: decimalText,
});
export type Table4Row = z.output<typeof Table4RowSchema>;

export type PaperTable = { kind: 'table3'; rows: Table3Row[] } | { kind: 'table4'; rows: Table4Row[] };

/** A TSV that is not one of the layouts, naming where: file, 1-based line, and column (by header name where there is one). */
export class PaperTableError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: string,
    readonly reason: string,
  ) {
    super(`${file}, line ${line}, column ${column}: ${reason}`);
    this.name = 'PaperTableError';
  }
}

/** The layout a header names: the one whose columns it shares most (so a misspelt column is reported as missing, not as a foreign layout). */
function kindOf(header: readonly string[]): PaperTableKind {
  const shared = (kind: PaperTableKind) => PAPER_TABLE_COLUMNS[kind].filter((column) => header.includes(column)).length;
  return shared('table4') > shared('table3') ? 'table4' : 'table3';
}

function checkHeader(file: string, header: readonly string[]): PaperTableKind {
  const kind = kindOf(header);
  const expected: readonly string[] = PAPER_TABLE_COLUMNS[kind];
  const layout = `${kind === 'table3' ? 'Table 3' : 'Table 4'} (${expected.join(', ')})`;
  header.forEach((name, index) => {
    if (!expected.includes(name)) throw new PaperTableError(file, 1, name || String(index + 1), `is not a column of ${layout}`);
    if (header.indexOf(name) !== index) throw new PaperTableError(file, 1, name, 'appears twice in the header');
  });
  const missing = expected.find((name) => !header.includes(name));
  if (missing !== undefined) throw new PaperTableError(file, 1, missing, `is missing from the header of ${layout}`);
  return kind;
}

/**
 * Reads a TSV in the layout of Table 3 or Table 4 (the header says which; columns in any order).
 * Blank lines are skipped; a leading byte-order mark is dropped. Throws PaperTableError naming
 * the file, line and column of the first problem: an unknown, missing or repeated column, a row
 * with too few or too many cells, a cell its column refuses, a model + params seen before.
 */
export function readPaperTable(text: string, file: string): PaperTable {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerLine = lines[0] ?? '';
  if (headerLine.trim() === '') throw new PaperTableError(file, 1, '1', 'the header line is empty');
  const header = headerLine.split('\t').map((name) => name.trim());
  const body = { file, lines: lines.slice(1), header };
  return checkHeader(file, header) === 'table3'
    ? { kind: 'table3', rows: readRows(body, Table3CellsSchema) }
    : { kind: 'table4', rows: readRows(body, Table4CellsSchema) };
}

/** The rows under a checked header (file line 2 on), each parsed by its layout's cell schema. */
function readRows<T extends { model: string; params: string }>(body: { file: string; lines: string[]; header: string[] }, schema: z.ZodType<T>): T[] {
  const { file, header } = body;
  const rows: T[] = [];
  const seen = new Map<string, number>();
  body.lines.forEach((content, index) => {
    const line = index + 2;
    if (content.trim() === '') return;
    const cells = content.split('\t').map((cell) => cell.trim());
    if (cells.length < header.length) throw new PaperTableError(file, line, header[cells.length] ?? String(cells.length + 1), `is missing: the row has ${cells.length} cells, the header ${header.length}`);
    if (cells.length > header.length) throw new PaperTableError(file, line, String(header.length + 1), `is past the header's last column (${header.length} columns)`);
    const parsed = schema.safeParse(Object.fromEntries(header.map((name, i) => [name, cells[i]])));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const column = String(issue?.path[0] ?? header[0]);
      const cell = cells[header.indexOf(column)] ?? '';
      throw new PaperTableError(file, line, column, `${JSON.stringify(cell)} ${issue?.message ?? 'is not valid'}`);
    }
    const key = paperRowKey(parsed.data);
    const first = seen.get(key);
    if (first !== undefined) throw new PaperTableError(file, line, 'model', `${parsed.data.model} (${parsed.data.params}) is already on line ${first}: a row is keyed by model + params`);
    seen.set(key, line);
    if (rows.length === MAX_PAPER_TABLE_ROWS) throw new PaperTableError(file, line, 'model', `the file holds more than ${MAX_PAPER_TABLE_ROWS} rows`);
    rows.push(parsed.data);
  });
  if (rows.length === 0) throw new PaperTableError(file, 2, 'model', 'the file holds a header and no rows');
  return rows;
}

/** A row's identity in its table: model + params (the paper lists Qwen2.5-VL at 7B and at 72B). */
export function paperRowKey(row: { model: string; params: string }): string {
  return `${row.model}\u0000${row.params}`;
}

/** A printed figure checked against the one recomputed from the same row's accuracies. */
export const FigureCheckSchema = z.object({
  /** What the table prints. */
  printed: z.string(),
  /** Recomputed exactly from the row's own accuracies, rounded half-up to the printed figure's decimals; null where undefined (Acc_QA of 0). */
  recomputed: z.string().nullable(),
  /** Does the printed figure follow from the row's accuracies? */
  follows: z.boolean(),
});
export type FigureCheck = z.infer<typeof FigureCheckSchema>;

const decimalsOf = (printed: string) => printed.split('.')[1]?.length ?? 0;

function check(printed: string, recompute: (decimals: number) => number | null): FigureCheck {
  const decimals = decimalsOf(printed);
  const value = recompute(decimals);
  const recomputed = value === null ? null : formatHalfUp(value, decimals);
  return { printed, recomputed, follows: recomputed !== null && Number(recomputed) === Number(printed) };
}

/** Table 3: the decline rate |Acc_QA − Acc_HQA| / Acc_QA × 100 from the row's two accuracies. */
export function checkDeclineRate(row: Pick<Table3Row, 'chartqa_acc' | 'chart_hqa_acc' | 'decline_rate'>): FigureCheck {
  return check(row.decline_rate, (decimals) => declineRateDecimal(row.chartqa_acc, row.chart_hqa_acc, decimals));
}

/** Table 4: the population variance of the row's four per-type accuracies. */
export function checkVariance(row: Pick<Table4Row, 'int' | 'dec' | 'bool' | 'text' | 'variance'>): FigureCheck {
  return check(row.variance, (decimals) => populationVarianceDecimal([row.int, row.dec, row.bool, row.text], decimals));
}

/** A table's rows, each with its printed figure checked (Table 3: decline rate; Table 4: variance). */
export type CheckedPaperTable =
  | { kind: 'table3'; rows: (Table3Row & { check: FigureCheck })[] }
  | { kind: 'table4'; rows: (Table4Row & { check: FigureCheck })[] };

export function checkPaperTable(table: PaperTable): CheckedPaperTable {
  return table.kind === 'table3'
    ? { kind: 'table3', rows: table.rows.map((row) => ({ ...row, check: checkDeclineRate(row) })) }
    : { kind: 'table4', rows: table.rows.map((row) => ({ ...row, check: checkVariance(row) })) };
}
