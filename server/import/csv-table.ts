import { readFileSync, statSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { formatBytes, InputFileError } from './input-file-error';
import { decodeUtf8File } from './utf8-text';

/** A table file larger than this is refused unread: real ChartQA tables are a few KB. */
export const MAX_TABLE_BYTES = 2 * 1024 * 1024;

/** A parsed CSV record with the line it ends on (csv-parse counts from 1, skipped blank lines included). */
interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Parses ChartQA table CSV text (CRLF or LF, optional BOM, quoted fields) into a DataTable.
 * `file` only names the source in errors.
 */
export function parseTableCsv(text: string, file: string): DataTable {
  if (text.trim() === '') throw new InputFileError(file, 'the file is empty');
  let records: CsvRecord[];
  try {
    // csv-parse's typings have no overload for `info: true`, which wraps each record with its position.
    records = parse(text, { bom: true, skip_empty_lines: true, relax_quotes: false, info: true }) as unknown as CsvRecord[];
  } catch (error) {
    const err = error as { message?: string; lines?: number };
    const reason = (err.message ?? String(error)).replace(/^Invalid Record Length: /, '');
    throw new InputFileError(file, `malformed CSV: ${reason}`, err.lines);
  }
  const [header, ...body] = records;
  if (!header || header.record.length < 2) {
    throw new InputFileError(file, 'the header needs a label column and at least one value column', header?.info.lines ?? 1);
  }
  if (body.length === 0) throw new InputFileError(file, 'the table has a header but no data rows', header.info.lines);
  refuseRepeatedLabels(header, body, file);
  return tableFromCells(header.record, body.map((row) => row.record));
}

/**
 * Edits and programs name a row or a series by its label: with two alike, `value("2019",
 * "Sales")` would read whichever comes first and an edit would change one of them unseen. None
 * of the real ChartQA tables repeats one, so a table that does is refused (naming both
 * lines), rather than imported with a label renamed that the chart's questions never use.
 * Exact repeats only: `2018` and `2018*` are two labels, and lookups resolve each to itself.
 */
function refuseRepeatedLabels(header: CsvRecord, body: CsvRecord[], file: string): void {
  const seriesColumn = new Map<string, number>();
  header.record.slice(1).forEach((name, index) => {
    const first = seriesColumn.get(name);
    if (first !== undefined) throw new InputFileError(file, `series ${JSON.stringify(name)} names columns ${first + 2} and ${index + 2} of the header; series names must differ`, header.info.lines);
    seriesColumn.set(name, index);
  });
  const rowLine = new Map<string, number>();
  for (const { record, info } of body) {
    const label = record[0] ?? '';
    const first = rowLine.get(label);
    if (first !== undefined) throw new InputFileError(file, `row label ${JSON.stringify(label)} repeats the row on line ${first}; row labels must differ`, info.lines);
    rowLine.set(label, info.lines);
  }
}

/** Reads a ChartQA table file (UTF-8), refusing oversized files before reading them. */
export function readTableCsv(path: string, displayName = path): DataTable {
  const size = statSync(path).size;
  if (size > MAX_TABLE_BYTES) {
    throw new InputFileError(displayName, `the file is ${formatBytes(size)}; tables may be at most ${formatBytes(MAX_TABLE_BYTES)}`);
  }
  return parseTableCsv(decodeUtf8File(readFileSync(path), displayName), displayName);
}
