import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Db } from '../../db/database';
import type { ImportReport } from '../../shared/api/import';
import { SubplotLocSchema, type AnswerKind, type CharXivDescriptiveFields, type CharXivReasoningFields } from '../../shared/domain/benchmark-fields';
import type { ChartType } from '../../shared/domain/chart-types';
import { importedAnswer, importedQuestion } from '../../shared/domain/imported-text';
import { numberOrText } from '../../shared/domain/answer-kind';
import { readBenchmarkImage } from './benchmark-image';
import { createBenchmarkWriter, type BenchmarkQaInsert } from './benchmark-queries';
import { countChart, countQa, describeIssues, emptyBenchmarkReport, fileError, recordError } from './benchmark-report';
import { sha256 } from './chart-files';
import { charXivDescriptiveQuestion, charXivReasoningQuestion } from './charxiv-templates';
import { duplicateTopLevelKeys } from './json-duplicate-keys';
import { ImportSetupError } from './import-split';
import { parseJsonFile } from './json-file';
import { SplitFolder } from './split-folder';

const MAX_FILE_BYTES = 50 * 1024 * 1024;
const CHARXIV_FILE = /^(descriptive|reasoning)_([\w-]+)\.json$/;

const DescriptiveSchema = z.object({
  figure_id: z.number().int(),
  num_subplots: z.number().int(),
  subplot_loc: SubplotLocSchema,
  qids: z.array(z.number().int().min(1).max(19)).length(4),
  answers: z.array(importedAnswer()).length(4),
});
const ReasoningSchema = z.object({
  figure_id: z.number().int(),
  query: importedQuestion(),
  answer: importedAnswer(),
  inst_category: z.number().int().min(1).max(4),
  qa_source: z.number().int(),
});
const ChartTypesSchema = z.object({ chart_types: z.array(z.string()), figure_id: z.number().int() });

/** The folder holding CharXiv's `descriptive_<split>.json` / `reasoning_<split>.json`: `<dir>/data/` or `<dir>` itself. */
export function charXivDataDir(dir: string): string | null {
  const has = (folder: string) => existsSync(folder) && readdirSync(folder).some((name) => CHARXIV_FILE.test(name));
  if (has(join(dir, 'data'))) return join(dir, 'data');
  return has(dir) ? dir : null;
}

/** The splits the folder has questions for ("val", "test"). */
export function charXivSplits(dataDir: string): string[] {
  return [...new Set(readdirSync(dataDir).flatMap((name) => CHARXIV_FILE.exec(name)?.[2] ?? []))].sort();
}

/** CharXiv's chart types (chart_types_*.json) onto the workbench's; the first listed decides. */
export function charXivChartType(types: string[] | null): ChartType {
  const first = types?.[0];
  if (first === 'Line Chart') return 'line';
  if (first === 'Bar Chart') return 'vertical_bar';
  if (first === 'Scatter Plot') return 'scatter';
  if (first === 'Area Chart') return 'area';
  if (first === 'Pie Chart') return 'pie';
  return 'other';
}

function reasoningKind(answer: string, category: number): AnswerKind {
  // Categories 3 and 4 ask for a number (in the chart / in general); 1 and 2 for text, graded by a judge.
  return (category === 3 || category === 4) && numberOrText(answer) === 'number' ? 'number' : 'free_text';
}

/**
 * Imports CharXiv's `data/` files for one split (`val` unless the folder has only another):
 * one chart per figure (`<figure_id>.jpg` under `imagesDir`, "image missing" without it),
 * each figure's four descriptive questions written from templates 1–19 at its subplot
 * location, and its reasoning question with inst_category and qa_source. The chart types and
 * image metadata files are kept with the chart when present. A bad file or record is
 * reported by file and figure id; re-importing unchanged files writes nothing.
 */
export function importCharXiv(
  db: Db,
  dir: string,
  options: { split: string; charxivSplit: string; imagesDir?: string; onProgress?: (done: number, total: number) => void },
): ImportReport {
  const report = emptyBenchmarkReport(options.split);
  const dataDir = charXivDataDir(dir);
  if (dataDir === null) throw new ImportSetupError(`${dir}: no descriptive_<split>.json or reasoning_<split>.json (CharXiv's data/ files)`);
  const folder = new SplitFolder(dataDir);
  const images = options.imagesDir === undefined ? null : new SplitFolder(options.imagesDir);
  const writer = createBenchmarkWriter(db);
  const split = options.charxivSplit;

  /** A `{ "<id>": record }` file, each record checked by `schema`; null when the file is absent. */
  const readRecords = <S extends z.ZodType>(file: string, schema: S): Map<string, z.output<S>> | null => {
    try {
      const text = folder.readText(file, { maxBytes: MAX_FILE_BYTES, kind: 'CharXiv files' });
      if (text === null) return null;
      const data = parseJsonFile(text, file);
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('expected an object of records keyed by id');
      const repeated = duplicateTopLevelKeys(text);
      for (const { key, line } of repeated) report.errors.push(recordError({ file, line, record: key }, 'duplicate record id; none of its records is imported'));
      const skip = new Set(repeated.map((r) => r.key));
      const records = new Map<string, z.output<S>>();
      for (const [key, raw] of Object.entries(data as Record<string, unknown>)) {
        if (skip.has(key)) continue;
        const parsed = schema.safeParse(raw);
        if (!parsed.success) {
          report.errors.push(recordError({ file, record: key }, describeIssues(parsed.error)));
          continue;
        }
        const figureId = (parsed.data as { figure_id: number }).figure_id;
        if (file.startsWith('descriptive') || file.startsWith('chart_types')) {
          if (String(figureId) !== key) {
            report.errors.push(recordError({ file, record: key }, `figure_id: ${figureId} differs from its key "${key}"; skipped`));
            continue;
          }
        }
        records.set(key, parsed.data);
      }
      return records;
    } catch (error) {
      report.errors.push(fileError(error, file));
      return null;
    }
  };

  const descriptiveFile = `descriptive_${split}.json`;
  const reasoningFile = `reasoning_${split}.json`;
  const descriptive = readRecords(descriptiveFile, DescriptiveSchema) ?? new Map<string, z.infer<typeof DescriptiveSchema>>();
  const reasoning = readRecords(reasoningFile, ReasoningSchema) ?? new Map<string, z.infer<typeof ReasoningSchema>>();
  const chartTypes = readRecords(`chart_types_${split}.json`, ChartTypesSchema);
  const metadata = readRecords(`image_metadata_${split}.json`, z.record(z.string(), z.unknown()));

  const questionsByFigure = new Map<number, { file: string; record: string; qa: Omit<BenchmarkQaInsert, 'group_id'> }[]>();
  const add = (figureId: number, entry: { file: string; record: string; qa: Omit<BenchmarkQaInsert, 'group_id'> }) => {
    const list = questionsByFigure.get(figureId) ?? [];
    list.push(entry);
    questionsByFigure.set(figureId, list);
  };
  for (const [key, record] of descriptive) {
    record.qids.forEach((qid, index) => {
      const label = record.answers[index] ?? '';
      const fields: CharXivDescriptiveFields = { benchmark: 'charxiv', kind: 'descriptive', figure_id: record.figure_id, subq_idx: index, qid, subplot_loc: record.subplot_loc, num_subplots: record.num_subplots };
      add(record.figure_id, {
        file: descriptiveFile,
        record: `${key} question ${index}`,
        qa: { query: charXivDescriptiveQuestion(qid, record.subplot_loc), label, source: 'charxiv', answer_kind: numberOrText(label), external_id: `descriptive:${record.figure_id}_${index}`, fields },
      });
    });
  }
  for (const [key, record] of reasoning) {
    const fields: CharXivReasoningFields = { benchmark: 'charxiv', kind: 'reasoning', figure_id: record.figure_id, inst_category: record.inst_category, qa_source: record.qa_source };
    add(record.figure_id, {
      file: reasoningFile,
      record: key,
      qa: { query: charXivReasoningQuestion(record.query, record.inst_category as 1 | 2 | 3 | 4 /* the schema bounds it to 1–4 */, record.answer), label: record.answer, source: 'charxiv', answer_kind: reasoningKind(record.answer, record.inst_category), external_id: `reasoning:${key}`, fields },
    });
  }

  const figures = [...questionsByFigure.keys()].sort((a, b) => a - b);
  figures.forEach((figureId, index) => {
    const imgname = `${figureId}.jpg`;
    try {
      const types = chartTypes?.get(String(figureId))?.chart_types ?? null;
      const chartFields = { benchmark: 'charxiv' as const, figure_id: figureId, chart_types: types, metadata: metadata?.get(String(figureId)) ?? null };
      const image = readBenchmarkImage(images, [imgname, `images/${imgname}`]);
      if (image === null) report.images_missing = (report.images_missing ?? 0) + 1;
      db.transaction(() => {
        const { chartId, outcome } = writer.writeChart({
          split: options.split,
          imgname,
          chart_type: charXivChartType(types),
          type_source: types === null ? 'inferred' : 'annotation',
          image_ref: imgname,
          fields: chartFields,
          source_file: descriptive.has(String(figureId)) ? descriptiveFile : reasoningFile,
          content_hash: sha256(JSON.stringify(['charxiv', imgname, chartFields])),
          image,
        });
        countChart(report, outcome);
        for (const entry of questionsByFigure.get(figureId) ?? []) {
          countQa(report, writer.writeQa(chartId, { ...entry.qa, group_id: null }), { file: entry.file, record: entry.record });
        }
      }).immediate();
    } catch (error) {
      report.errors.push(fileError(error, imgname));
    }
    options.onProgress?.(index + 1, figures.length);
  });
  return report;
}
