import { readdirSync } from 'node:fs';
import { z } from 'zod';
import type { Db } from '../../db/database';
import type { ImportReport } from '../../shared/api/import';
import type { AnswerKind, ChartBenchFields } from '../../shared/domain/benchmark-fields';
import { isYesNoLabel } from '../../shared/domain/answer-kind';
import { importedAnswer, importedQuestion } from '../../shared/domain/imported-text';
import { nameText } from '../../shared/domain/text-input';
import type { ChartType } from '../../shared/domain/chart-types';
import { readBenchmarkImage, safeRelativePath } from './benchmark-image';
import { createBenchmarkWriter } from './benchmark-queries';
import { countChart, countQa, describeIssues, emptyBenchmarkReport, fileError, recordError } from './benchmark-report';
import { sha256 } from './chart-files';
import { ImportSetupError } from './import-split';
import { parseJsonFile } from './json-file';
import { SplitFolder } from './split-folder';

const MAX_JSONL_BYTES = 50 * 1024 * 1024;

/** One assertion (or the NQA question) and its label as a file may hold them: the stored shape is ChartBenchEntrySchema. */
const EntrySchema = z.object({ label: importedAnswer(), query: importedQuestion() });

const RecordSchema = z
  .object({
    id: z.number().int(),
    // A path names the chart: bidi controls would make two look alike.
    image: nameText().min(1),
    type: z.object({ chart: z.string().min(1), image: z.string().min(1), task: z.string().min(1), QA: z.enum(['Acc+', 'GPT-acc']) }),
    conversation: z.array(EntrySchema).min(1).max(2),
  })
  .superRefine((record, ctx) => {
    const labels = record.conversation.map((entry) => entry.label);
    if (record.type.QA === 'Acc+' && (labels.length !== 2 || labels[0] !== 'Yes' || labels[1] !== 'No')) {
      ctx.addIssue({ code: 'custom', path: ['conversation'], message: `a judgement pair (Acc+) has two entries, the true assertion labelled Yes first, the false one No; found labels ${JSON.stringify(labels)}` });
    }
    if (record.type.QA === 'GPT-acc' && labels.length !== 1) {
      ctx.addIssue({ code: 'custom', path: ['conversation'], message: `a numeric question (GPT-acc) has one entry; found ${labels.length}` });
    }
  });
type ChartBenchRecord = z.infer<typeof RecordSchema>;

/**
 * A record's answer kind. Judgement pairs (Acc+) are pairs. NQA answers (GPT-acc) are numbers,
 * some with a unit suffix ("16.599M"), scored by the relaxed numeric rule — except a Yes/No
 * label, which some NQA questions have: that is a text answer whatever the task says, as
 * ChartBench's own `relaxed_correctness` compares a label that is no float by lower-cased
 * equality.
 */
export function chartBenchAnswerKind(record: { type: { QA: 'Acc+' | 'GPT-acc' }; conversation: readonly { label: string }[] }): AnswerKind {
  if (record.type.QA === 'Acc+') return 'judgement_pair';
  const label = record.conversation[0]?.label ?? '';
  return isYesNoLabel(label) ? 'text' : 'number';
}

/** ChartBench's 9 chart groups and 42 subtypes onto the workbench's types; what has no counterpart is "other". */
export function chartBenchChartType(chart: string, subtype: string): ChartType {
  if (chart === 'line') return 'line';
  if (chart === 'area') return 'area';
  if (chart === 'pie') return 'pie';
  if (chart === 'scatter') return 'scatter';
  if (chart !== 'bar') return 'other';
  if (subtype.includes('stacked')) return 'stacked_bar';
  if (subtype.startsWith('horizontal')) return 'horizontal_bar';
  if (subtype.includes('multi')) return 'grouped_bar';
  return 'vertical_bar';
}

/** The `*.jsonl` files of a ChartBench folder (test.jsonl, test_mini.jsonl …), by name. */
export function chartBenchFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.jsonl'))
    .sort();
}

/**
 * Where a record's image may be under --images: the path as published
 * ("./data/test/area/area/chart_0/image.png"), or below `data/` or `data/test/` when the
 * hub's zip was unpacked at that level.
 */
function imageCandidates(ref: string): string[] {
  const candidates = [ref];
  if (ref.startsWith('data/')) candidates.push(ref.slice('data/'.length));
  if (ref.startsWith('data/test/')) candidates.push(ref.slice('data/test/'.length));
  return candidates;
}

/**
 * Imports a ChartBench folder of `*.jsonl` files: one chart per image path, one factual QA per
 * record. A judgement pair (CR, VE, VC, GC; `QA: "Acc+"`) stays ONE record holding both
 * assertions with their Yes/No labels (query and label are the true assertion's); an NQA
 * record is a number question. Images are read from each record's `image` path under
 * `imagesDir` when given; otherwise the charts are "image missing". A bad line or record is
 * reported by file, line and record id; re-importing unchanged files writes nothing.
 */
export function importChartBench(
  db: Db,
  dir: string,
  options: { split: string; imagesDir?: string; onProgress?: (done: number, total: number) => void },
): ImportReport {
  const report = emptyBenchmarkReport(options.split);
  const files = chartBenchFiles(dir);
  if (files.length === 0) throw new ImportSetupError(`${dir}: no *.jsonl files (a ChartBench folder)`);
  const folder = new SplitFolder(dir);
  const images = options.imagesDir === undefined ? null : new SplitFolder(options.imagesDir);
  const writer = createBenchmarkWriter(db);

  const byImage = new Map<string, { record: ChartBenchRecord; file: string; line: number }[]>();
  const seenIds = new Map<number, string>();
  for (const file of files) {
    let text: string | null;
    try {
      text = folder.readText(file, { maxBytes: MAX_JSONL_BYTES, kind: 'record files' });
    } catch (error) {
      report.errors.push(fileError(error, file));
      continue;
    }
    if (text === null) continue;
    text.split('\n').forEach((raw, index) => {
      const line = index + 1;
      if (raw.trim() === '') return;
      let data: unknown;
      try {
        data = parseJsonFile(raw, file);
      } catch (error) {
        report.errors.push({ ...fileError(error, file), line });
        return;
      }
      const id = typeof data === 'object' && data !== null && 'id' in data ? String(data.id as unknown) : `on line ${line}`;
      const parsed = RecordSchema.safeParse(data);
      if (!parsed.success) {
        report.errors.push(recordError({ file, line, record: id }, describeIssues(parsed.error)));
        return;
      }
      const record = parsed.data;
      const first = seenIds.get(record.id);
      if (first !== undefined) {
        report.errors.push(recordError({ file, line, record: id }, `duplicate record id (first at ${first}); skipped`));
        return;
      }
      const ref = safeRelativePath(record.image.replaceAll('\\', '/'));
      if (ref === null) {
        report.errors.push(recordError({ file, line, record: id }, `image: "${record.image}" leaves the image folder; skipped`));
        return;
      }
      seenIds.set(record.id, `${file}:${line}`);
      const list = byImage.get(ref) ?? [];
      list.push({ record, file, line });
      byImage.set(ref, list);
    });
  }

  let done = 0;
  for (const [ref, entries] of byImage) {
    const head = entries[0];
    if (!head) continue;
    try {
      const chartFields = { benchmark: 'chartbench' as const, chart: head.record.type.chart, image: head.record.type.image };
      const image = readBenchmarkImage(images, imageCandidates(ref));
      if (image === null) report.images_missing = (report.images_missing ?? 0) + 1;
      db.transaction(() => {
        const { chartId, outcome } = writer.writeChart({
          split: options.split,
          imgname: ref,
          chart_type: chartBenchChartType(chartFields.chart, chartFields.image),
          type_source: 'annotation',
          image_ref: ref,
          fields: chartFields,
          source_file: head.file,
          content_hash: sha256(JSON.stringify(['chartbench', ref, chartFields])),
          image,
        });
        countChart(report, outcome);
        for (const { record, file, line } of entries) {
          const at = { file, line, record: String(record.id) };
          if (record.type.chart !== chartFields.chart || record.type.image !== chartFields.image) {
            report.errors.push(recordError(at, `type: ${record.type.chart}/${record.type.image} differs from ${chartFields.chart}/${chartFields.image} given for the same image at ${head.file}:${head.line}; skipped`));
            continue;
          }
          const [first] = record.conversation;
          if (!first) continue;
          const fields: ChartBenchFields = { benchmark: 'chartbench', id: record.id, image: record.image, type: record.type, conversation: record.conversation };
          const outcomeQa = writer.writeQa(chartId, {
            query: first.query,
            label: first.label,
            source: 'chartbench',
            answer_kind: chartBenchAnswerKind(record),
            external_id: String(record.id),
            group_id: null,
            fields,
          });
          countQa(report, outcomeQa, at);
        }
      }).immediate();
    } catch (error) {
      report.errors.push(fileError(error, ref));
    }
    options.onProgress?.(++done, byImage.size);
  }
  return report;
}
