import { readFileSync, statSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { formatBytes, InputFileError } from './input-file-error';
import { decodeUtf8File } from './utf8-text';

/** A table file larger than this is refused unread: real ChartQA tables are a few KB. */
export const MAX_TABLE_BYTES = 2 * 1024 * 1024;

/**
 * Parses ChartQA table CSV text (CRLF or LF, optional BOM, quoted fields) into a DataTable.
 * `file` only names the source in errors.
 */
export function parseTableCsv(text: string, file: string): DataTable {
  if (text.trim() === '') throw new InputFileError(file, 'the file is empty');
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_quotes: false }) as string[][];
  } catch (error) {
    const err = error as { message?: string; lines?: number };
    const reason = (err.message ?? String(error)).replace(/^Invalid Record Length: /, '');
    throw new InputFileError(file, `malformed CSV: ${reason}`, err.lines);
  }
  const [header, ...body] = records;
  if (!header || header.length < 2) {
    throw new InputFileError(file, 'the header needs a label column and at least one value column', 1);
  }
  if (body.length === 0) throw new InputFileError(file, 'the table has a header but no data rows', 1);
  return tableFromCells(header, body);
}

/** Reads a ChartQA table file (UTF-8), refusing oversized files before reading them. */
export function readTableCsv(path: string, displayName = path): DataTable {
  const size = statSync(path).size;
  if (size > MAX_TABLE_BYTES) {
    throw new InputFileError(displayName, `the file is ${formatBytes(size)}; tables may be at most ${formatBytes(MAX_TABLE_BYTES)}`);
  }
  return parseTableCsv(decodeUtf8File(readFileSync(path), displayName), displayName);
}
