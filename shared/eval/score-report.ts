import { z } from 'zod';

/**
 * What scoring a file in one of the field's formats reports, one shape for every benchmark's
 * metrics (Chart-HQA's relaxed accuracy, bias and decline rates, ChartBench's Acc+, MultiChartQA's partial credit, CharXiv's judge grades, Chart-HQA
 * judgement pairs), so `hqa score --format …` prints and the Evaluation page shows any of them
 * without code per format. Figures are already rounded (percentages half-up to two decimals).
 */
export const SCORE_FILE_FORMATS = ['chart-hqa', 'chartbench', 'multichartqa', 'charxiv', 'pairs'] as const;
export const ScoreFileFormatSchema = z.enum(SCORE_FILE_FORMATS);
export type ScoreFileFormat = z.infer<typeof ScoreFileFormatSchema>;

export const ReportFigureSchema = z.object({
  /** A stable name for programs reading `--json` (`relaxed_accuracy`, `decline_rate` …); the label is for people. */
  key: z.string().optional(),
  label: z.string(),
  /** Null when undefined (an empty denominator). */
  value: z.number().nullable(),
  unit: z.enum(['percent', 'count', 'number']),
  /** What it is over, e.g. "412 of 600 pairs". */
  note: z.string().optional(),
});
export type ReportFigure = z.infer<typeof ReportFigureSchema>;

export const ReportCellSchema = z.union([z.string(), z.number(), z.null()]);
export const ReportTableSchema = z.object({
  title: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(ReportCellSchema)),
});
export type ReportTable = z.infer<typeof ReportTableSchema>;

export const ScoreReportSchema = z.object({
  format: ScoreFileFormatSchema,
  /** One line naming what was scored, e.g. "ChartBench judgement pairs and NQA". */
  title: z.string(),
  /** The headline figures, in reading order. */
  figures: z.array(ReportFigureSchema),
  /** Breakdowns (per chart group, per task …). */
  tables: z.array(ReportTableSchema),
  /** Predictions naming no question, questions without a prediction, and the like. */
  warnings: z.array(z.string()),
});
export type ScoreReport = z.infer<typeof ScoreReportSchema>;
