import { SingleBar, Presets } from 'cli-progress';
import type { ImportReport } from '../../shared/api/import';
import { openAndMigrate } from '../../db/database';
import { loadConfig } from '../config';
import type { ImportFormat } from '../../shared/domain/benchmark-fields';
import { importFolder } from '../import/import-folder';

/** Exit status when the import finished but some files were refused. */
export const EXIT_WITH_ERRORS = 2;

export function formatSummary(report: ImportReport): string {
  const summary =
    `split ${report.split}: ${report.charts_imported} charts imported, ${report.charts_updated} updated, ` +
    `${report.charts_skipped} unchanged, ${report.qas_imported} questions imported, ${report.errors.length} errors; ` +
    `${report.items_reverified} items re-verified, ${report.items_requeued} sent back to review (table changed)`;
  // Only the benchmark formats report these (ChartQA's line stays as it was).
  if (report.images_missing === undefined) return summary;
  return `${summary}; ${report.groups_imported} chart groups imported, ${report.images_missing} charts with their image missing`;
}

export interface ImportCommandOptions {
  split?: string;
  json?: boolean;
  format?: ImportFormat;
  images?: string;
}

export function runImport(dir: string, options: ImportCommandOptions): number {
  const config = loadConfig();
  const db = openAndMigrate(config.dbPath);
  // A progress bar only where a person watches; never in --json output or logs.
  const showProgress = !options.json && process.stderr.isTTY;
  const bar = showProgress ? new SingleBar({ format: 'importing {bar} {value}/{total} charts  {eta_formatted} left', stream: process.stderr }, Presets.shades_classic) : null;
  try {
    let started = false;
    const { report } = importFolder(db, dir, {
      ...(options.split ? { split: options.split } : {}),
      ...(options.format ? { format: options.format } : {}),
      ...(options.images ? { images: options.images } : {}),
      onProgress: (done, total) => {
        if (!bar) return;
        if (!started) {
          bar.start(total, 0);
          started = true;
        }
        bar.update(done);
      },
    });
    bar?.stop();
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
    } else {
      for (const warning of report.warnings ?? []) process.stderr.write(`warning: ${warning}\n`);
      for (const error of report.errors) {
        process.stderr.write(`error: ${error.file}${error.line !== undefined ? `:${error.line}` : ''}: ${error.message}\n`);
      }
      process.stdout.write(`${formatSummary(report)}\n`);
    }
    return report.errors.length > 0 ? EXIT_WITH_ERRORS : 0;
  } finally {
    bar?.stop();
    db.close();
  }
}
