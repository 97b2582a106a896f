import type { EvalComparisonRow, PublishedTable } from '@shared/api/evaluations';
import { paperRowKey, type FigureCheck } from '@shared/eval/paper-tables';
import type { AnswerType } from '@shared/table/answers';
import { formatScore, formatVariance } from './eval-format';

/**
 * The comparison with published figures: the models evaluated here and the rows of uploaded
 * tables in one list per layout, ranked by Chart-HQA accuracy, so a model run here stands
 * beside the published models it scores near. Pure: the same runs and tables give the same rows.
 */

/** Where a row's figures come from: a run made here, or an uploaded table (named by its source). */
export type RowOrigin = { kind: 'evaluated'; items: number; hqaRunId: number } | { kind: 'published'; tableId: number; source: string; fileName: string };

/** A printed figure that does not follow from the same row's accuracies: the paper's own error. */
export type Erratum = { printed: string; recomputed: string | null; reason: string };

type RowBase = {
  /** Unique across the list (a table's row is keyed by model + params). */
  key: string;
  model: string;
  /** Parameter count and architecture type as the table prints them; null for a model run here. */
  params: string | null;
  type: string | null;
  origin: RowOrigin;
  erratum: Erratum | null;
};

/** Table 3's figures as shown ("83.60%"), beside the run ids of an evaluated model's scores. */
export type AccuracyRow = RowBase & { qa: string; hqa: string; decline: string; qaRunId: number | null; hqaRunId: number | null };

/** Table 4's figures as shown. */
export type AnswerTypeRow = RowBase & { byType: Record<AnswerType, string>; variance: string };

const percentText = (printed: string) => `${printed}%`;

/** A Table 3 row's decline rate or a Table 4 row's variance that its own accuracies do not give. */
export function erratumOf(check: FigureCheck, figure: 'decline rate' | 'variance'): Erratum | null {
  if (check.follows) return null;
  const from = figure === 'decline rate' ? '|Acc_QA − Acc_HQA| / Acc_QA × 100 of its two accuracies' : 'the population variance of its four accuracies';
  const reason =
    check.recomputed === null
      ? `The printed ${figure} ${check.printed} cannot follow from the row: ${from} is undefined.`
      : `The printed ${figure} ${check.printed} does not follow from the row: ${from} is ${check.recomputed}.`;
  return { printed: check.printed, recomputed: check.recomputed, reason };
}

/** A row and the Chart-HQA accuracy it is ranked by (null: ranked last). */
type Ranked<T> = { row: T; hqa: number | null };

/** Higher Chart-HQA accuracy first, rows without one last; equal ones keep their order (evaluated first, then upload order). */
function byHqaAccuracy<T>(rows: readonly Ranked<T>[]): T[] {
  return rows
    .map((ranked, index) => ({ ...ranked, index }))
    .sort((a, b) => (b.hqa ?? -Infinity) - (a.hqa ?? -Infinity) || a.index - b.index)
    .map(({ row }) => row);
}

/** What every row of a model evaluated here holds, whichever layout. */
function evaluatedBase(row: EvalComparisonRow): RowBase {
  return { key: `run:${row.model}`, model: row.model, params: null, type: null, origin: { kind: 'evaluated', items: row.items, hqaRunId: row.hqa_run_id }, erratum: null };
}

/** What every published row holds, whichever layout: its table's source and its own figure's check. */
function publishedBase(table: PublishedTable, row: { model: string; type: string; params: string }, erratum: Erratum | null): RowBase {
  return {
    key: `table:${table.id}:${paperRowKey(row)}`,
    model: row.model,
    params: row.params,
    type: row.type,
    origin: { kind: 'published', tableId: table.id, source: table.source, fileName: table.file_name },
    erratum,
  };
}

/** Table 3 beside the runs: every evaluated model and every uploaded Table 3's rows, ranked by Chart-HQA accuracy. */
export function accuracyRows(evaluated: readonly EvalComparisonRow[], tables: readonly PublishedTable[]): AccuracyRow[] {
  const here = evaluated.map(
    (row): Ranked<AccuracyRow> => ({
      row: {
        ...evaluatedBase(row),
        qa: formatScore(row.qa_accuracy),
        hqa: formatScore(row.hqa_accuracy),
        decline: formatScore(row.decline_rate),
        qaRunId: row.original_run_id,
        hqaRunId: row.hqa_run_id,
      },
      hqa: row.hqa_accuracy,
    }),
  );
  const published = tables.flatMap((table) =>
    table.kind !== 'table3'
      ? []
      : table.rows.map(
          (row): Ranked<AccuracyRow> => ({
            row: {
              ...publishedBase(table, row, erratumOf(row.check, 'decline rate')),
              qa: percentText(row.chartqa_acc),
              hqa: percentText(row.chart_hqa_acc),
              decline: percentText(row.decline_rate),
              qaRunId: null,
              hqaRunId: null,
            },
            hqa: Number(row.chart_hqa_acc),
          }),
        ),
  );
  return byHqaAccuracy([...here, ...published]);
}

/**
 * Table 4 beside the runs, ranked the same way. Table 4 prints no overall accuracy: a published
 * row is ranked by its model's row in an uploaded Table 3 (same model + params), and without one
 * it comes last, in upload order.
 */
export function answerTypeRows(evaluated: readonly EvalComparisonRow[], tables: readonly PublishedTable[]): AnswerTypeRow[] {
  const here = evaluated.map(
    (row): Ranked<AnswerTypeRow> => ({
      row: {
        ...evaluatedBase(row),
        byType: {
          integer: formatScore(row.by_answer_type.integer),
          decimal: formatScore(row.by_answer_type.decimal),
          boolean: formatScore(row.by_answer_type.boolean),
          text: formatScore(row.by_answer_type.text),
        },
        variance: formatVariance(row.answer_type_variance),
      },
      hqa: row.hqa_accuracy,
    }),
  );
  const overall = new Map<string, number>();
  for (const table of tables) if (table.kind === 'table3') for (const row of table.rows) overall.set(paperRowKey(row), Number(row.chart_hqa_acc));
  const published = tables.flatMap((table) =>
    table.kind !== 'table4'
      ? []
      : table.rows.map(
          (row): Ranked<AnswerTypeRow> => ({
            row: {
              ...publishedBase(table, row, erratumOf(row.check, 'variance')),
              byType: { integer: percentText(row.int), decimal: percentText(row.dec), boolean: percentText(row.bool), text: percentText(row.text) },
              variance: row.variance,
            },
            hqa: overall.get(paperRowKey(row)) ?? null,
          }),
        ),
  );
  return byHqaAccuracy([...here, ...published]);
}
