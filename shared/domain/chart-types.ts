import { z } from 'zod';

/** The chart-type vocabulary: ChartQA's four kinds split finer, plus kinds from other sources. */
export const CHART_TYPES = [
  'vertical_bar',
  'horizontal_bar',
  'grouped_bar',
  'stacked_bar',
  'line',
  'pie',
  'area',
  'scatter',
  'other',
] as const;
export const ChartTypeSchema = z.enum(CHART_TYPES);
export type ChartType = z.infer<typeof ChartTypeSchema>;

export const CHART_TYPE_LABELS: Record<ChartType, string> = {
  vertical_bar: 'Vertical bar',
  horizontal_bar: 'Horizontal bar',
  grouped_bar: 'Grouped bar',
  stacked_bar: 'Stacked bar',
  line: 'Line',
  pie: 'Pie',
  area: 'Area',
  scatter: 'Scatter',
  other: 'Other',
};

/**
 * How a chart's type was decided; a curator's choice is never overwritten by a re-import.
 * `extracted`: the vision model that read the chart's table named it (migration 034); confirmed
 * when its table is.
 */
export const TYPE_SOURCES = ['annotation', 'inferred', 'curator', 'extracted'] as const;
export const TypeSourceSchema = z.enum(TYPE_SOURCES);
export type TypeSource = z.infer<typeof TypeSourceSchema>;

/** Types an extraction keeps (and tells the model) rather than the one it reads: an annotation's or a curator's. */
export const typeKeptByExtraction = (source: TypeSource): boolean => source === 'annotation' || source === 'curator';

/**
 * What decided an inferred type beyond the table's shape: the mark words of the chart's
 * questions, or a vision model's look at its image (migration 028). An inferred type of a chart
 * with an image and neither is unconfirmed: curators triage it, and runs may leave it out.
 */
export const TYPE_EVIDENCE = ['questions', 'vision'] as const;
export const TypeEvidenceSchema = z.enum(TYPE_EVIDENCE);
export type TypeEvidence = z.infer<typeof TypeEvidenceSchema>;
