import { z } from 'zod';
import type { Db } from '../../db/database';
import { parseNullableJsonColumn } from '../../db/json-column';
import { derivePairs, isSkipped } from '../../shared/eval/judgement-pairs';
import type { WordingOptions } from '../../shared/eval/pair-wording';
import type { ChartHqaItem } from '../../shared/export/chart-hqa';
import {
  CHART_GROUPS,
  PAIR_SKIP_REASONS,
  PAIRS_INSTRUCTION,
  PAIRS_QA,
  PAIRS_TASK,
  type PairSkipReason,
  type PairsRecord,
} from '../../shared/export/pairs-record';
import type { DataTable } from '../../shared/table/model';
import { traceEdit } from '../../shared/table/trace-item';
import { getChartForRender } from '../charts/chart-queries';
import { canBeVerb } from '../language/word-forms';
import type { ExportRow } from './export-queries';

/**
 * The `pairs` export: one ChartBench judgement-pair record (JSON Lines) per accepted item with a
 * numeric answer, its assertions checked against the item's edited table — the chart's table
 * with the item's edit applied, as the verifier saw it.
 */

export interface PairsSummary {
  /** Accepted items read. */
  considered: number;
  /** Pairs written. */
  pairs: number;
  /**
   * Items without a pair, per reason; `multi_chart`, only when there are some: items over a chart
   * group (a ChartBench record shows one image, and the edited table alone cannot word their pair).
   */
  skipped: Record<PairSkipReason, number> & { multi_chart?: number };
}

/** The server's wording knows verbs (compromise), so more "How many … would S do" questions read as statements. */
export const SERVER_WORDING: WordingOptions = { isVerb: canBeVerb };

/** Charts whose tables are kept while items are written in id order (an item's chart is often a recent one). */
const CHART_CACHE = 256;

export interface PairsWriter {
  /** The record of one accepted item, or why it has none. */
  record(row: ExportRow, item: ChartHqaItem): PairsRecord | { skipped: PairSkipReason | 'multi_chart' };
  summary(): PairsSummary;
}

export function createPairsWriter(db: Db, wording: WordingOptions = SERVER_WORDING): PairsWriter {
  const tables = new Map<number, DataTable>();
  const skipped = Object.fromEntries(PAIR_SKIP_REASONS.map((reason) => [reason, 0])) as Record<PairSkipReason, number>;
  let considered = 0;
  let pairs = 0;
  let multiChart = 0;

  const chartTable = (chartId: number): DataTable => {
    const cached = tables.get(chartId);
    if (cached) {
      // Least recently used goes first: re-insert on every hit.
      tables.delete(chartId);
      tables.set(chartId, cached);
      return cached;
    }
    const chart = getChartForRender(db, chartId);
    if (!chart) throw new Error(`pairs export: chart ${chartId} of an accepted item is missing`);
    tables.set(chartId, chart.table);
    if (tables.size > CHART_CACHE) tables.delete(tables.keys().next().value as number);
    return chart.table;
  };

  const skip = (reason: PairSkipReason) => {
    skipped[reason]++;
    return { skipped: reason };
  };

  return {
    record(row, item) {
      considered++;
      if ('images' in item) {
        multiChart++;
        return { skipped: 'multi_chart' };
      }
      const edit = parseNullableJsonColumn(z.unknown(), row.edit, { table: 'hqa_items', column: 'edit', id: row.id });
      // An item stores "no edit" as null; the trace reads only undefined that way (as verify.ts does).
      const trace = traceEdit(chartTable(row.chart_id), edit ?? undefined);
      if (trace.kind === 'unreadable' || trace.kind === 'failed') return skip('edit_not_applied');
      const edited = trace.kind === 'applied' ? trace.table : chartTable(row.chart_id);
      const derived = derivePairs(
        {
          question: item.question,
          assumption: item.assumption,
          answer: item.answer,
          original_label: item.original.label,
          same_question: item.question_relation === 'same',
          program: row.program,
        },
        edited,
        wording,
      );
      if (isSkipped(derived)) return skip(derived.skipped);
      pairs++;
      return {
        id: row.id,
        item_id: item.id,
        image: item.imgname,
        type: { chart: CHART_GROUPS[item.chart_type], image: item.chart_type, task: PAIRS_TASK, QA: PAIRS_QA },
        conversation: [
          { label: 'Yes', query: derived.yes },
          { label: 'No', query: derived.no },
        ],
        instruction: PAIRS_INSTRUCTION,
        question: item.question,
        answer: item.answer,
        answer_type: item.answer_type,
        false_value: derived.false_value,
        false_value_source: derived.false_value_source,
        wording: derived.wording,
      };
    },
    summary: () => ({ considered, pairs, skipped: { ...skipped, ...(multiChart > 0 ? { multi_chart: multiChart } : {}) } }),
  };
}
