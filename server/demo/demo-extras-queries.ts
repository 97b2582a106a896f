import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { ChartType } from '../../shared/domain/chart-types';
import { numberOrText } from '../../shared/domain/answer-kind';

/** SQL of the demo's extras (server/demo/demo-extras.ts): each write is a no-op when its row is already there. */

/**
 * The partial unique index factual_qas_same_question (migration 014) makes a second insert a
 * no-op. Not OR IGNORE, which would also swallow a CHECK failure.
 */
const SAME_QUESTION_DOES_NOTHING = 'ON CONFLICT (chart_id, source, query, label) WHERE external_id IS NULL DO NOTHING';

/** A factual question over a group, on the group's first chart (as the MultiChartQA importer stores them). */
export function insertGroupQaOnce(db: Db, qa: { chartId: number; groupId: number; query: string; label: string }): boolean {
  const insert = statement(db, `INSERT INTO factual_qas (chart_id, query, label, source, answer_kind, group_id)
    VALUES (@chartId, @query, @label, 'human', @answerKind, @groupId) ${SAME_QUESTION_DOES_NOTHING}`);
  return insert.run({ ...qa, answerKind: numberOrText(qa.label) }).changes > 0;
}

export interface ImageOnlyChartInsert {
  split: string;
  imgname: string;
  title: string;
  chart_type: ChartType;
  png: Buffer;
  sha256: string;
  question: { query: string; label: string };
}

/** A chart known only by its stored image (no table: table_source NULL), with one question; its id. */
export function insertImageOnlyChartOnce(db: Db, chart: ImageOnlyChartInsert): { chartId: number; created: boolean } {
  const created = statement(db, `INSERT INTO charts
      (split, imgname, title, chart_type, type_source, data_table, row_count, series_count, table_source, table_confirmed, image_ref, source_file, content_hash)
      VALUES (@split, @imgname, @title, @chart_type, 'annotation', NULL, 0, 0, NULL, 0, @imgname, 'demo', @sha256)
      ON CONFLICT (split, imgname) DO NOTHING`)
    .run({ split: chart.split, imgname: chart.imgname, title: chart.title, chart_type: chart.chart_type, sha256: chart.sha256 }).changes > 0;
  const { id } = statement(db, 'SELECT id FROM charts WHERE split = ? AND imgname = ?').get(chart.split, chart.imgname) as { id: number };
  statement(db, 'INSERT INTO chart_images (chart_id, png, sha256) VALUES (?, ?, ?) ON CONFLICT (chart_id) DO NOTHING').run(id, chart.png, chart.sha256);
  statement(db, `INSERT INTO factual_qas (chart_id, query, label, source, answer_kind) VALUES (?, ?, ?, 'human', ?) ${SAME_QUESTION_DOES_NOTHING}`)
    .run(id, chart.question.query, chart.question.label, numberOrText(chart.question.label));
  return { chartId: id, created };
}
