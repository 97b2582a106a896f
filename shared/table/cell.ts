/**
 * How a ChartQA table cell becomes a number. ChartQA tables are text extracted from charts:
 * missing values are written `nan` or `-`, Statista values carry units (`32.7%`, `$1,200`)
 * and footnote marks (`12.5*`). The raw text is always kept beside the number so nothing of
 * the source's precision or units is lost.
 */
const MISSING_CELLS = new Set(['', 'nan', 'NaN', '-', '–', '—', 'n/a', 'N/A', 'null']);

const NUMBER_PATTERN = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const THOUSANDS_PATTERN = /^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/;

export function isMissingCell(raw: string): boolean {
  return MISSING_CELLS.has(raw.trim());
}

/** The numeric value of a cell, or null when it is missing or not a number. */
export function parseCellValue(raw: string): number | null {
  let text = raw.trim();
  if (MISSING_CELLS.has(text)) return null;
  text = text.replace(/\*+$/, '').trim();
  text = text.replace(/^[$€£¥]\s*/, '').replace(/\s*%$/, '').trim();
  if (THOUSANDS_PATTERN.test(text)) text = text.replace(/,/g, '');
  if (!NUMBER_PATTERN.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** A cell's text written as a percentage: `32.7%`, `12%*`. */
const PERCENT_TEXT = /%\s*\*?$/;

/** The unit a table's series carries apart from its cells (an extracted table: "%", "USD"), or null. */
interface UnitsOf {
  units?: (string | null)[] | undefined;
  rows: { raw: string[] }[];
}

/**
 * Whether a cell is a percentage: its text ends in `%` (ChartQA writes "32.7%"), or its series'
 * unit is `%` (an extracted table keeps units apart from the numbers, so its cells read "32.7").
 * The one rule every check of shares and points asks.
 */
export function isPercentCell(table: UnitsOf, r: number, s: number): boolean {
  return table.units?.[s]?.trim() === '%' || PERCENT_TEXT.test((table.rows[r]?.raw[s] ?? '').trim());
}

/** Whether a series holds percentages: its unit is `%`, or any of its cells is written as one. */
export function isPercentSeries(table: UnitsOf, s: number): boolean {
  return table.units?.[s]?.trim() === '%' || table.rows.some((_, r) => isPercentCell(table, r, s));
}
