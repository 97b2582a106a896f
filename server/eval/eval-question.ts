import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../db/database';
import { chartImage } from '../charts/chart-image';
import { itemGroupChartIds } from '../items/item-group-queries';
import { EvalAskError, type EvalQuestion } from './model-asker';
import { CONDITION_PLANS, type EvalCondition } from '../../shared/eval/conditions';
import { conditionDrawing } from './condition-drawings';

/**
 * What an evaluation sends for one question: its chart, or for an item over a chart group every
 * chart in group order (evalChatBody labels them "Chart N:", since the question names charts
 * by position). One place for calls and batches alike, so a group item is never asked about
 * chart 1 alone.
 */

/** From the database (evaluation runs): one query for a group's charts, nothing extra for one chart. */
export async function questionFromDb(db: Db, question: { item_id: number; chart_id: number; question: string }): Promise<EvalQuestion> {
  const group = itemGroupChartIds(db, question.item_id);
  if (group === null) return { text: question.question, png: (await chartImage(db, question.chart_id))?.png ?? null };
  const charts = await Promise.all(
    group.map(async (chartId) => {
      const image = await chartImage(db, chartId);
      // Recorded as this question's failure, by name, rather than ending the run.
      if (!image) throw new EvalAskError(`item ${question.item_id}: chart ${chartId} of its group has no image and no table to draw it from`, 0, false);
      return image.png;
    }),
  );
  return { text: question.question, png: null, charts };
}

/**
 * What one condition of an evaluation run sends for a question (`CONDITION_PLANS`): the chart's
 * own image, no image, or one of the item's two drawings. Throws UndrawableItemError for an item
 * whose edit can no longer be drawn.
 */
export async function conditionQuestion(db: Db, question: { item_id: number; chart_id: number; question: string; condition: EvalCondition }): Promise<EvalQuestion> {
  const image = CONDITION_PLANS[question.condition].image;
  if (image === 'none') return { text: question.question, png: null };
  if (image === 'chart') return questionFromDb(db, question);
  return { text: question.question, png: await conditionDrawing(db, question.item_id, image) };
}

/** From an export's image folder (`hqa eval`): the item's `images` in order; no folder sends none. */
export function questionFromFiles(text: string, folder: string | undefined, images: readonly string[]): EvalQuestion {
  const pngs = folder ? images.map((name) => readFileSync(join(folder, name))) : [];
  return pngs.length > 1 ? { text, png: null, charts: pngs } : { text, png: pngs[0] ?? null };
}
