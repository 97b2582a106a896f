import { existsSync, statSync } from 'node:fs';
import type { Db } from '../../db/database';
import type { ImportReport } from '../../shared/api/import';
import type { ImportFormat } from '../../shared/domain/benchmark-fields';
import type { DomainEventEmitter } from '../events/event-bus';
import { auditedEvents } from '../events/subscribers';
import { importChartBench } from './chartbench-files';
import { charXivDataDir, charXivSplits, importCharXiv } from './charxiv-files';
import { detectFormat } from './detect-format';
import { optionWords, type ImportAudience } from './import-audience';
import { checkSplitName, ImportSetupError, importSplit } from './import-split';
import { importMultiChartQa } from './multichartqa-folder';

export interface FolderImportOptions {
  format?: ImportFormat;
  /** Where ChartBench's and CharXiv's images are (they are not in their repositories). */
  images?: string;
  split?: string;
  onProgress?: (done: number, total: number) => void;
  /** Who imports, for the audit log (null or absent: the CLI). */
  actorId?: number | null;
  /** Whose words the messages use for the options: the command line's flags (default) or the import form's fields. */
  audience?: ImportAudience;
}

/**
 * `hqa import <dir>`: the folder in the format given, or the one detected. ChartQA goes to
 * importSplit as before; the others to their importers, with a default split named for the
 * benchmark (CharXiv: `charxiv-val`). Returns the format read with the report.
 *
 * An import commits chart by chart (a bad file skips only itself), so its `folder.imported` (and
 * audit entry) cannot share one transaction with all it wrote: it is its own write once the import
 * ends, with what it counted. `events`: by default a bus only the audit log listens to, for the
 * CLI and the import thread, which have no sockets (the server tells them with `split.imported`).
 */
export function importFolder(
  db: Db,
  dir: string,
  options: FolderImportOptions = {},
  events: DomainEventEmitter = auditedEvents(db),
): { format: ImportFormat; report: ImportReport } {
  const result = importDetected(db, dir, options);
  const { split, charts_imported, charts_updated, qas_imported, items_requeued } = result.report;
  events.emit('folder.imported', {
    actor_id: options.actorId ?? null,
    split,
    format: result.format,
    charts_imported,
    charts_updated,
    qas_imported,
    items_requeued,
    errors: result.report.errors.length,
  });
  return result;
}

function importDetected(db: Db, dir: string, options: FolderImportOptions): { format: ImportFormat; report: ImportReport } {
  const words = optionWords(options.audience);
  const checkSplit = (split: string) => checkSplitName(split, words);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ImportSetupError(`${dir}: not a folder`);
  if (options.images !== undefined && (!existsSync(options.images) || !statSync(options.images).isDirectory())) {
    throw new ImportSetupError(`${words.images} ${options.images}: not a folder`);
  }
  let format: ImportFormat;
  try {
    format = options.format ?? detectFormat(dir, words);
  } catch (error) {
    throw new ImportSetupError((error as Error).message);
  }
  const progress = options.onProgress ? { onProgress: options.onProgress } : {};
  const images = options.images !== undefined ? { imagesDir: options.images } : {};
  switch (format) {
    case 'chartqa':
      return { format, report: importSplit(db, dir, { ...(options.split !== undefined ? { split: options.split } : {}), ...(options.audience ? { audience: options.audience } : {}), ...progress }) };
    case 'multichartqa':
      return { format, report: importMultiChartQa(db, dir, { split: checkSplit(options.split ?? 'multichartqa'), ...progress }) };
    case 'chartbench':
      return { format, report: importChartBench(db, dir, { split: checkSplit(options.split ?? 'chartbench'), ...images, ...progress }) };
    case 'charxiv': {
      const dataDir = charXivDataDir(dir);
      const splits = dataDir === null ? [] : charXivSplits(dataDir);
      // The val split has answers; the test split publishes none, so val is read when both are there.
      const charxivSplit = splits.includes('val') ? 'val' : splits[0];
      if (charxivSplit === undefined) throw new ImportSetupError(`${dir}: no descriptive_<split>.json or reasoning_<split>.json (CharXiv's data/ files)`);
      return { format, report: importCharXiv(db, dir, { split: checkSplit(options.split ?? `charxiv-${charxivSplit}`), charxivSplit, ...images, ...progress }) };
    }
  }
}
