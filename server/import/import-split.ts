import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Db } from '../../db/database';
import type { ImportReport } from '../../shared/api/import';
import { chartTypeFromAnnotation, inferChartType } from '../../shared/domain/infer-chart-type';
import { typeFromQuestions } from '../../shared/domain/chart-type-from-questions';
import type { ChartType, TypeEvidence, TypeSource } from '../../shared/domain/chart-types';
import { createChartWriter, type ChartUpsert, type QaInsert } from '../charts/chart-queries';
import { DomainError } from '../domain-error';
import { NOTHING_REVERIFIED, reverifyChartItems } from '../review/chart-reverify';
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
 * `<name>_human.json` / `<name>_augmented.json`). A PNG without a CSV (or a split with no
 * `tables/` at all) is an image-only chart, stored without a table; its questions are read as
 * any ChartQA question's, answer kinds included. Every question file beside `tables/` is read,
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
  const tableFiles = filesIn(join(dir, 'tables'), '.csv');
  const pngFiles = filesIn(join(dir, 'png'), '.png');
  if (tableFiles === null && pngFiles === null) throw new ImportSetupError(`${dir}: no tables/ or png/ folder; a ChartQA split has tables/<name>.csv, png/<name>.png or both`);
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

  const stems = new Set((tableFiles ?? []).map((name) => name.slice(0, -4)));
  // A PNG without a CSV: the chart is published as an image only (its table to be extracted).
  const imageOnlyStems = (pngFiles ?? []).map((name) => name.slice(0, -4)).filter((stem) => !stems.has(stem));
  const warnings: string[] = [];
  const charts = stems.size + imageOnlyStems.length;
  if (charts > 0 && questionFiles.length === 0) {
    // Charts without questions give a run nothing to work on: say so rather than report 0 and no errors.
    warnings.push(
      `${charts} chart(s) but no question files for split "${split}": looked for files named <name>_human.json or <name>_augmented.json beside tables/ and png/, ` +
        'so no questions were imported and a run has nothing to ask about these charts',
    );
  }
  const prefixes = [...new Set(questionFiles.map((f) => f.split))];
  if (prefixes.length > 1) {
    warnings.push(`question files of ${prefixes.length} names were read together into split "${split}": ${questionFiles.map((f) => f.name).join(', ')}`);
  }
  if (warnings.length > 0) report.warnings = warnings;
  const imageOnly = new Set(imageOnlyStems);
  const writer = createChartWriter(db);
  const writeChart = db.transaction((chart: ChartUpsert, qas: QaInsert[]) => {
    const written = writer.write(chart, qas);
    return { ...written, ...(written.tableOrTypeChanged ? reverifyChartItems(db, written.chartId) : NOTHING_REVERIFIED) };
  });

  for (const [stem, entries] of questionsByStem) {
    if (stems.has(stem) || imageOnly.has(stem)) continue;
    for (const entry of entries) {
      errors.push({ file: entry.file, message: `entry ${entry.index}: question for unknown chart "${entry.imgname}" (no tables/${stem}.csv or png/${stem}.png)` });
    }
  }

  const total = stems.size + imageOnlyStems.length;
  const tally = (result: ReturnType<typeof writeChart>) => {
    if (result.outcome === 'created') report.charts_imported++;
    else if (result.outcome === 'updated') report.charts_updated++;
    else report.charts_skipped++;
    report.qas_imported += result.qasAdded;
    report.items_reverified += result.reverified;
    report.items_requeued += result.requeued;
  };
  const tableList = tableFiles ?? [];
  tableList.forEach((name, index) => {
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
      tally(result);
    } catch (error) {
      const failure = fileError(error, tableName);
      if (qas.length > 0) failure.message += ` (its ${qas.length} question(s) were not imported)`;
      errors.push(failure);
    }
    options.onProgress?.(index + 1, total);
  });

  imageOnlyStems.forEach((stem, index) => {
    const pngName = `png/${stem}.png`;
    const qas: QaInsert[] = (questionsByStem.get(stem) ?? []).map(({ query, label, source }) => ({ query, label, source }));
    try {
      const image = readChartPng(folder, stem);
      if (image === null) throw new InputFileError(pngName, 'the file was removed during the import');
      let annotation: ReturnType<typeof readAnnotation> = null;
      try {
        annotation = readAnnotation(folder, stem);
      } catch (error) {
        errors.push(fileError(error, `annotations/${stem}.json`));
      }
      // No table to read a type from: `other` until a vision model or a curator tells it, as for
      // the image-only charts of MultiChartQA and ChartBench.
      const result = writeChart.immediate(
        {
          split,
          imgname: `${stem}.png`,
          title: annotation?.annotation.general_figure_info?.title?.text?.trim() || null,
          chart_type: 'other',
          type_source: 'inferred',
          type_evidence: null,
          table: null,
          annotation: annotation?.text ?? null,
          source_file: pngName,
          content_hash: sha256(['', annotation?.text ?? '', image.sha256].join('\0')),
          image,
        },
        qas,
      );
      tally(result);
    } catch (error) {
      const failure = fileError(error, pngName);
      if (qas.length > 0) failure.message += ` (its ${qas.length} question(s) were not imported)`;
      errors.push(failure);
    }
    options.onProgress?.(tableList.length + index + 1, total);
  });
  return report;
}

/** The names in `folder` ending in `extension` (any case), sorted; null when there is no such folder. */
function filesIn(folder: string, extension: string): string[] | null {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return null;
  return readdirSync(folder)
    .filter((name) => name.toLowerCase().endsWith(extension))
    .sort();
}
