import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Db } from '../../db/database';
import type { ImportReport } from '../../shared/api/import';
import type { AnswerKind, MultiChartQaFields } from '../../shared/domain/benchmark-fields';
import { importedAnswer, importedQuestion } from '../../shared/domain/imported-text';
import { nameText } from '../../shared/domain/text-input';
import { numberOrText } from '../../shared/domain/answer-kind';
import { readBenchmarkImage } from './benchmark-image';
import { createBenchmarkWriter } from './benchmark-queries';
import { countChart, countQa, describeIssues, emptyBenchmarkReport, fileError, recordError } from './benchmark-report';
import { sha256 } from './chart-files';
import { ImportSetupError } from './import-split';
import { parseJsonFile } from './json-file';
import { SplitFolder } from './split-folder';

/** Each group folder's question file, as MultiChartQA publishes it. */
export const MULTICHARTQA_QA_FILE = 'chart-path_and_question-answer_pair.json';
const MAX_QA_FILE_BYTES = 5 * 1024 * 1024;
/** The early release's opening ("The first chart is <image>. The second chart is <image>. Question: …"); later releases drop it. */
const IMAGE_PREFIX = /^The first chart is <image>\./;

const RecordSchema = z.object({
  id: z.string().min(1),
  // Paths name the charts: bidi controls would make two look alike.
  image: z.array(nameText().min(1)).min(1).max(4),
  question: importedQuestion(),
  answer: importedAnswer().min(1),
  // Newer groups (data/added_*) have no task label.
  task: z.string().min(1).optional(),
  type: z.enum(['open-ended', 'multiple-choice']),
  context: z.unknown().optional(),
});

/** The folder holding the group folders: `<dir>/data/` of a repository checkout, or `<dir>` when it is that `data/`. */
export function multiChartQaDataDir(dir: string): string | null {
  const hasGroups = (folder: string) =>
    existsSync(folder) && statSync(folder).isDirectory() && readdirSync(folder).some((name) => existsSync(join(folder, name, MULTICHARTQA_QA_FILE)));
  if (hasGroups(join(dir, 'data'))) return join(dir, 'data');
  return hasGroups(dir) ? dir : null;
}

/** "modified_local_full_qa\\<group>\\1.png" or "data/added_IEA_1/1.png": the file is its basename in the group folder. */
export function imageBasename(path: string): string {
  return path.split(/[\\/]/).filter((part) => part !== '').pop() ?? path;
}

function answerKind(answer: string, type: 'open-ended' | 'multiple-choice'): AnswerKind {
  // Parallel questions ask several things at once; their answers join the parts with "; ".
  if (answer.includes('; ')) return 'multi_part';
  if (type === 'multiple-choice') return 'multiple_choice';
  return numberOrText(answer);
}

/**
 * Imports a MultiChartQA folder: each `data/<group>/` with its PNGs and question file becomes
 * a chart group of its charts (in the order the questions name them) with its questions, in
 * one transaction per group. Questions are kept as published (the early release's image
 * prefix included) with their task label, type and context. A bad file or record is
 * reported by name and skipped; re-importing unchanged files writes nothing.
 */
export function importMultiChartQa(db: Db, dir: string, options: { split: string; onProgress?: (done: number, total: number) => void }): ImportReport {
  const report = emptyBenchmarkReport(options.split);
  const dataDir = multiChartQaDataDir(dir);
  if (dataDir === null) throw new ImportSetupError(`${dir}: no data/<group>/${MULTICHARTQA_QA_FILE} (a MultiChartQA folder)`);
  const folder = new SplitFolder(dataDir);
  const writer = createBenchmarkWriter(db);
  const groups = readdirSync(dataDir)
    .filter((name) => existsSync(join(dataDir, name, MULTICHARTQA_QA_FILE)))
    .sort();
  const seenIds = new Map<string, string>();

  groups.forEach((group, groupIndex) => {
    const file = `${group}/${MULTICHARTQA_QA_FILE}`;
    try {
      const text = folder.readText(file, { maxBytes: MAX_QA_FILE_BYTES, kind: 'question files' });
      if (text === null) throw new Error('the file was removed during the import');
      const data = parseJsonFile(text, file);
      if (!Array.isArray(data)) throw new Error('expected a list of question records');

      const records: { record: z.infer<typeof RecordSchema>; index: number }[] = [];
      data.forEach((raw: unknown, index) => {
        const id = typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string' ? raw.id : `#${index + 1}`;
        const parsed = RecordSchema.safeParse(raw);
        if (!parsed.success) {
          report.errors.push(recordError({ file, record: id }, describeIssues(parsed.error)));
          return;
        }
        const firstFile = seenIds.get(parsed.data.id);
        if (firstFile !== undefined) {
          report.errors.push(recordError({ file, record: id }, `duplicate record id (first in ${firstFile}); skipped`));
          return;
        }
        seenIds.set(parsed.data.id, file);
        records.push({ record: parsed.data, index });
      });

      // The group's charts: every image its questions name, in the order they first name them.
      const charts: string[] = [];
      for (const { record } of records) for (const path of record.image) if (!charts.includes(imageBasename(path))) charts.push(imageBasename(path));
      if (charts.length > 4) throw new Error(`the questions name ${charts.length} charts (${charts.join(', ')}); a group has at most 4`);
      if (charts.length === 0) return;

      db.transaction(() => {
        const chartIds = new Map<string, number>();
        charts.forEach((name, index) => {
          const imageRef = `${group}/${name}`;
          const image = readBenchmarkImage(folder, [imageRef]);
          if (image === null) report.images_missing = (report.images_missing ?? 0) + 1;
          const fields = { benchmark: 'multichartqa' as const, group, position: index + 1 };
          const result = writer.writeChart({
            split: options.split,
            imgname: imageRef,
            chart_type: 'other',
            type_source: 'inferred',
            image_ref: imageRef,
            fields,
            source_file: file,
            content_hash: sha256(JSON.stringify(['multichartqa', imageRef, fields])),
            image,
          });
          countChart(report, result.outcome);
          chartIds.set(name, result.chartId);
        });
        const { groupId, created } = writer.writeGroup({
          split: options.split,
          key: group,
          name: group,
          source: 'multichartqa',
          chartIds: charts.map((name) => chartIds.get(name) ?? -1),
        });
        if (created) report.groups_imported++;
        for (const { record } of records) {
          const fields: MultiChartQaFields = {
            benchmark: 'multichartqa',
            id: record.id,
            image: record.image,
            task: record.task ?? null,
            type: record.type,
            context: record.context ?? null,
            image_prefix: IMAGE_PREFIX.test(record.question),
          };
          const chartId = chartIds.get(imageBasename(record.image[0] ?? '')) ?? -1;
          const outcome = writer.writeQa(chartId, {
            query: record.question,
            label: record.answer,
            source: 'multichartqa',
            answer_kind: answerKind(record.answer, record.type),
            external_id: record.id,
            group_id: groupId,
            fields,
          });
          countQa(report, outcome, { file, record: record.id });
        }
      }).immediate();
    } catch (error) {
      report.errors.push(fileError(error, file));
    }
    options.onProgress?.(groupIndex + 1, groups.length);
  });
  return report;
}
