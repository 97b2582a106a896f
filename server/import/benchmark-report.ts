import type { z } from 'zod';
import type { ImportError, ImportReport } from '../../shared/api/import';
import type { QaWriteOutcome } from './benchmark-queries';
import { InputFileError } from './input-file-error';

/** An import's report before anything is read (ChartQA's has no images_missing). */
export function emptyImportReport(split: string): ImportReport {
  return { split, charts_imported: 0, charts_updated: 0, charts_skipped: 0, qas_imported: 0, items_reverified: 0, items_requeued: 0, groups_imported: 0, errors: [] };
}

/** The report of a benchmark import: the ChartQA report's counts plus groups and missing images. */
export function emptyBenchmarkReport(split: string): ImportReport & { images_missing: number } {
  return { ...emptyImportReport(split), images_missing: 0 };
}

export function countChart(report: ImportReport, outcome: 'created' | 'updated' | 'unchanged'): void {
  if (outcome === 'created') report.charts_imported++;
  else if (outcome === 'updated') report.charts_updated++;
  else report.charts_skipped++;
}

/** Counts an added question; names a stored one that the files now give differently. */
export function countQa(report: ImportReport, outcome: QaWriteOutcome, at: { file: string; line?: number; record: string }): void {
  if (outcome === 'added') report.qas_imported++;
  if (outcome === 'differs') {
    report.errors.push(recordError(at, 'differs from the question imported before under this id; the stored one is kept (items may have been written on it)'));
  }
}

/** An error about one record of a file: "record <id>: <field>: <message>". */
export function recordError(at: { file: string; line?: number; record: string }, message: string): ImportError {
  return { file: at.file, ...(at.line !== undefined ? { line: at.line } : {}), message: `record ${at.record}: ${message}` };
}

/** A zod failure as "field: message; field: message", the field path joined with dots. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(record)'}: ${issue.message}`).join('; ');
}

/** Any failure while reading a file, as an ImportError naming the file (and line when known). */
export function fileError(error: unknown, file: string): ImportError {
  if (error instanceof InputFileError) {
    const prefix = error.line === undefined ? `${error.file}: ` : `${error.file}:${error.line}: `;
    return { file: error.file, ...(error.line !== undefined ? { line: error.line } : {}), message: error.message.replace(prefix, '') };
  }
  return { file, message: error instanceof Error ? error.message : String(error) };
}
