import { z } from 'zod';
import { nameText } from '../domain/text-input';

/**
 * A counterfactual edit: the change to a chart's data table that a hypothetical question
 * assumes ("suppose Michelin's revenue doubled"), as a list of operations applied in order.
 * Edits come from an LLM, so the schemas are strict (an unknown key is a typo, not a
 * comment) and the applier (edit-apply.ts) reports every bad name with the valid ones.
 */

/** An edit longer than this is not a hypothesis a question can state; refusing it bounds the work. */
export const MAX_EDIT_OPS = 50;

/**
 * A row or series name. Numbers are accepted because models write years unquoted
 * (`"row": 2019`); they are compared as their decimal text.
 */
export const LabelSchema = z.union([z.string().min(1).max(200), z.number()]);
export type Label = z.infer<typeof LabelSchema>;

/** The name of a row an edit adds: a new name, so it may hold no hidden characters (shared/domain/text-input.ts). */
const NewLabelSchema = z.union([nameText().min(1).max(200), z.number()]);

// zod 4's number already refuses NaN and ±Infinity, which JSON cannot carry anyway.
const FiniteNumber = z.number();

/** The most charts a group holds (MultiChartQA's groups have 2–4). */
export const MAX_GROUP_CHARTS = 4;

/**
 * Which chart of a group the op edits, by its 1-based position: required on every op of an
 * item over a group (all ops naming the same chart: an assumption edits one chart's table),
 * absent or 1 for a single chart. group-edit.ts checks it.
 */
const ChartField = { chart: z.number().int().min(1).max(MAX_GROUP_CHARTS).optional() };

export const SetOpSchema = z.strictObject({
  op: z.literal('set'),
  ...ChartField,
  row: LabelSchema,
  /** May be left out only when the table has a single series. */
  series: LabelSchema.optional(),
  value: FiniteNumber,
});

/** Multiplies cells; `row` or `series` left out means every row or every series. */
export const ScaleOpSchema = z.strictObject({
  op: z.literal('scale'),
  ...ChartField,
  row: LabelSchema.optional(),
  series: LabelSchema.optional(),
  factor: FiniteNumber,
});

/** Adds `delta` to cells; `row` or `series` left out means every row or every series. */
export const AddOpSchema = z.strictObject({
  op: z.literal('add'),
  ...ChartField,
  row: LabelSchema.optional(),
  series: LabelSchema.optional(),
  delta: FiniteNumber,
});

/**
 * Exchanges the values of two rows — in one series, or in every series when `series` is
 * left out. Labels stay where they are, so the category axis keeps its order.
 */
export const SwapOpSchema = z.strictObject({
  op: z.literal('swap'),
  ...ChartField,
  rows: z.tuple([LabelSchema, LabelSchema]),
  series: LabelSchema.optional(),
});

export const RemoveRowOpSchema = z.strictObject({
  op: z.literal('remove_row'),
  ...ChartField,
  row: LabelSchema,
});

export const RemoveSeriesOpSchema = z.strictObject({
  op: z.literal('remove_series'),
  ...ChartField,
  series: LabelSchema,
});

/**
 * Adds a row: at its place when the rows are an ordered axis (years, seasons, quarters),
 * else at the end. `values` maps series names to numbers (series not named stay missing);
 * a bare number is accepted for a single-series table.
 */
export const AddRowOpSchema = z.strictObject({
  op: z.literal('add_row'),
  ...ChartField,
  row: NewLabelSchema,
  values: z.union([FiniteNumber, z.record(z.string(), FiniteNumber.nullable())]),
});

export const EditOpSchema = z.discriminatedUnion('op', [
  SetOpSchema,
  ScaleOpSchema,
  AddOpSchema,
  SwapOpSchema,
  RemoveRowOpSchema,
  RemoveSeriesOpSchema,
  AddRowOpSchema,
]);
export type EditOp = z.infer<typeof EditOpSchema>;
export type EditOpName = EditOp['op'];

export const EditSchema = z.array(EditOpSchema).max(MAX_EDIT_OPS);
export type Edit = z.infer<typeof EditSchema>;

/** Why an edit could not be applied; `op` is the index of the failing operation (-1: the edit's shape). */
export const EDIT_ERROR_CODES = [
  'invalid_edit',
  'unknown_row',
  'unknown_series',
  'series_required',
  'row_exists',
  'last_row',
  'last_series',
  'not_finite',
  'unknown_chart',
  'chart_required',
  'several_charts',
] as const;
export const EditErrorCodeSchema = z.enum(EDIT_ERROR_CODES);
export type EditErrorCode = z.infer<typeof EditErrorCodeSchema>;

export const EditErrorSchema = z.object({
  code: EditErrorCodeSchema,
  op: z.number().int(),
  message: z.string(),
});
export type EditError = z.infer<typeof EditErrorSchema>;

/** A cell present in both tables whose value differs; `null` is a missing value. */
export const CellChangeSchema = z.object({
  row: z.string(),
  series: z.string(),
  before: z.number().nullable(),
  after: z.number().nullable(),
});
export type CellChange = z.infer<typeof CellChangeSchema>;

/**
 * Validates untrusted edit JSON (already parsed). A JSON string is parsed first, since the
 * CLI and prompts hand edits around as text.
 */
export function parseEdit(input: unknown): { ok: true; edit: Edit } | { ok: false; error: EditError } {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return { ok: false, error: { code: 'invalid_edit', op: -1, message: 'the edit is not valid JSON' } };
    }
  }
  const parsed = EditSchema.safeParse(value);
  if (parsed.success) return { ok: true, edit: parsed.data };
  const first = parsed.error.issues[0];
  const op = typeof first?.path[0] === 'number' ? first.path[0] : -1;
  return { ok: false, error: { code: 'invalid_edit', op, message: z.prettifyError(parsed.error) } };
}

export { applyEdit, diffTables, type ApplyEditResult } from './edit-apply';
