import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Db } from '../../db/database';
import type { ImportReport } from '../../shared/api/import';
import { chartTypeFromAnnotation, inferChartType } from '../../shared/domain/infer-chart-type';
import { typeFromQuestions } from '../../shared/domain/chart-type-from-questions';
import type { ChartType, TypeEvidence, TypeSource } from '../../shared/domain/chart-types';
import { createChartWriter, type ChartUpsert, type QaInsert } from '../charts/chart-queries';
import { DomainError } from '../domain-error';
import { NOTHING_REVERIFIED, reverifyChartItems } from '../items/reverify-items';
import { emptyImportReport, fileError } from './benchmark-report';
import { readAnnotation, readChartPng, sha256 } from './chart-files';
import { MAX_TABLE_BYTES, parseTableCsv } from './csv-table';
import { InputFileError } from './input-file-error';
import { optionWords, type ImportAudience, type OptionWords } from './import-audience';
import { findQuestionFiles, readQuestionFile, stemOfImgname, type QuestionEntry } from './question-files';
import { SplitFolder } from './split-folder';

export interface ImportOptions {
  /**
   * The split's name; default: the prefix of the question files, else the folder's name. It
   * names the split only: which question files are read never depends on it.
   */
  split?: string;
  /** Whose words the messages use for the options (`--split`, or the import form's fields); the CLI's by default. */
  audience?: ImportAudience;
  onProgress?: (done: number, total: number) => void;
}

/** The folder or the options cannot be imported at all (a bad split name, a missing file): nothing is stored. */
export class ImportSetupError extends DomainError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

/** A split name becomes a folder name in exports (`split/imgname`): no separators, no dot-only names. */
const SPLIT_NAME = /^(?!\.+$)[\w.-]{1,100}$/;

/** A split name as an option gave it, or refused naming that option in the words of whoever gave it. */
export function checkSplitName(split: string, words: OptionWords): string {
  if (!SPLIT_NAME.test(split)) throw new ImportSetupError(`${words.split}: "${split}" must be 1–100 letters, digits, _ . - (it names a folder in exports)`);
  return split;
}

function decideSplit(dir: string, requested: string | undefined, words: OptionWords): string {
  if (requested !== undefined) return checkSplitName(requested, words);
  const prefixes = [...new Set(findQuestionFiles(dir).map((f) => f.split))];
  const derived = prefixes.length === 1 && prefixes[0] ? prefixes[0] : basename(resolve(dir));
  if (!SPLIT_NAME.test(derived)) throw new ImportSetupError(`${dir}: the split name "${derived}" must be letters, digits, _ . -; ${words.giveSplit}`);
  return derived;
}

/**
 * Imports a split in ChartQA layout (`tables/*.csv`, optional `png/`, `annotations/`, and
 * `<name>_human.json` / `<name>_augmented.json`). Every question file beside `tables/` is read,
 * whatever the split is called: a split name typed in the import form once made the importer
 * look for `<typed name>_human.json` and import 0 questions. Each chart with its image and questions
 * is written in one transaction; a bad file is reported and skipped, the rest still import.
 * Files are read through `SplitFolder`: only inside the split folder (by realpath, so a link
 * out of it is refused) and only as UTF-8.
 * Re-importing unchanged files writes nothing. A chart whose table changed has its items
 * verified again in that same transaction (`reverifyChartItems`).
 */
export function importSplit(db: Db, dir: string, options: ImportOptions = {}): ImportReport {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ImportSetupError(`${dir}: not a folder`);
  const tablesDir = join(dir, 'tables');
  if (!existsSync(tablesDir)) throw new ImportSetupError(`${dir}: no tables/ folder; a ChartQA split has tables/<name>.csv`);
  const words = optionWords(options.audience);
  const split = decideSplit(dir, options.split, words);
  const folder = new SplitFolder(dir);
  const report = emptyImportReport(split);
  const { errors } = report;

  const questionsByStem = new Map<string, (QuestionEntry & { file: string })[]>();
  const questionFiles = findQuestionFiles(dir);
  for (const file of questionFiles) {
    try {
      const { entries, errors: entryErrors } = readQuestionFile(folder, file);
      errors.push(...entryErrors.map((e) => fileError(e, file.name)));
      for (const entry of entries) {
        const stem = stemOfImgname(entry.imgname);
        if ('reason' in stem) {
          errors.push({ file: file.name, message: `entry ${entry.index}: ${stem.reason}` });
          continue;
        }
        const list = questionsByStem.get(stem.stem) ?? [];
        list.push({ ...entry, file: file.name });
        questionsByStem.set(stem.stem, list);
      }
    } catch (error) {
      errors.push(fileError(error, file.name));
    }
  }

  const tableFiles = readdirSync(tablesDir)
    .filter((name) => name.toLowerCase().endsWith('.csv'))
    .sort();
  const warnings: string[] = [];
  if (tableFiles.length > 0 && questionFiles.length === 0) {
    // Charts without questions give a run nothing to work on: say so rather than report 0 and no errors.
    warnings.push(
      `${tableFiles.length} table(s) but no question files for split "${split}": looked for files named <name>_human.json or <name>_augmented.json beside tables/, ` +
        'so no questions were imported and a run has nothing to ask about these charts',
    );
  }
  const prefixes = [...new Set(questionFiles.map((f) => f.split))];
  if (prefixes.length > 1) {
    warnings.push(`question files of ${prefixes.length} names were read together into split "${split}": ${questionFiles.map((f) => f.name).join(', ')}`);
  }
  if (warnings.length > 0) report.warnings = warnings;
  const stems = new Set(tableFiles.map((name) => name.slice(0, -4)));
  const writer = createChartWriter(db);
  const writeChart = db.transaction((chart: ChartUpsert, qas: QaInsert[]) => {
    const written = writer.write(chart, qas);
    return { ...written, ...(written.tableOrTypeChanged ? reverifyChartItems(db, written.chartId) : NOTHING_REVERIFIED) };
  });

  for (const [stem, entries] of questionsByStem) {
    if (stems.has(stem)) continue;
    for (const entry of entries) {
      errors.push({ file: entry.file, message: `entry ${entry.index}: question for unknown chart "${entry.imgname}" (no tables/${stem}.csv)` });
    }
  }

  tableFiles.forEach((name, index) => {
    const stem = name.slice(0, -4);
    const tableName = `tables/${name}`;
    const qas: QaInsert[] = (questionsByStem.get(stem) ?? []).map(({ query, label, source }) => ({ query, label, source }));
    try {
      const csvText = folder.readText(tableName, { maxBytes: MAX_TABLE_BYTES, kind: 'tables' });
      if (csvText === null) throw new InputFileError(tableName, 'the file was removed during the import');
      const table = parseTableCsv(csvText, tableName);

      let annotation: ReturnType<typeof readAnnotation> = null;
      try {
        annotation = readAnnotation(folder, stem);
      } catch (error) {
        errors.push(fileError(error, `annotations/${stem}.json`));
      }
      let image: ReturnType<typeof readChartPng> = null;
      try {
        image = readChartPng(folder, stem);
      } catch (error) {
        errors.push(fileError(error, `png/${stem}.png`));
      }

      let chartType: ChartType | null = null;
      let typeSource: TypeSource = 'inferred';
      let typeEvidence: TypeEvidence | null = null;
      if (annotation?.annotation.type) {
        chartType = chartTypeFromAnnotation(annotation.annotation.type, table.series.length);
        if (chartType) typeSource = 'annotation';
        else errors.push({ file: `annotations/${stem}.json`, message: `unknown chart type "${annotation.annotation.type}"; inferred from the table instead` });
      }
      if (chartType === null) {
        // The table's shape, then the marks the chart's own questions name ("blue bars", "red line").
        const reading = typeFromQuestions(inferChartType(table), table, qas.map((qa) => qa.query));
        chartType = reading.chartType;
        if (reading.decided) typeEvidence = 'questions';
      }

      // IMMEDIATE: re-verifying reads items that reviewers may be deciding at the same time.
      const result = writeChart.immediate(
        {
          split,
          imgname: `${stem}.png`,
          title: annotation?.annotation.general_figure_info?.title?.text?.trim() || null,
          chart_type: chartType,
          type_source: typeSource,
          type_evidence: typeEvidence,
          table,
          annotation: annotation?.text ?? null,
          source_file: tableName,
          content_hash: sha256([csvText, annotation?.text ?? '', image?.sha256 ?? ''].join('\0')),
          image,
        },
        qas,
      );
      if (result.outcome === 'created') report.charts_imported++;
      else if (result.outcome === 'updated') report.charts_updated++;
      else report.charts_skipped++;
      report.qas_imported += result.qasAdded;
      report.items_reverified += result.reverified;
      report.items_requeued += result.requeued;
    } catch (error) {
      const failure = fileError(error, tableName);
      if (qas.length > 0) failure.message += ` (its ${qas.length} question(s) were not imported)`;
      errors.push(failure);
    }
    options.onProgress?.(index + 1, tableFiles.length);
  });
  return report;
}
