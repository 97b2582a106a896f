import { z } from 'zod';
import type { EditOpName } from '../table/edit';
import type { Finding } from '../table/lint';
import { HqaItemDraftSchema, ProposalBatchSchema, type HqaItemDraft } from './item-draft';

/**
 * The wire shapes the model fills. OpenAI's strict structured output takes neither optional
 * fields (every field required, "absent" spelled `null`) nor records, nor tuple arrays, so
 * the domain schemas (`HqaItemDraftSchema`, `ProposalBatchSchema`) cannot be sent as they
 * are. These schemas are sent instead; `toItemDraft` / `toProposalBatch` turn a reply into
 * the domain type and validate it there, with reasons that name the field — the text a
 * repair request shows the model. Length limits live in the domain schemas only, so the
 * model is told about a violation instead of being silently constrained by the decoder.
 */

const EDIT_OP_NAMES = ['set', 'scale', 'add', 'swap', 'remove_row', 'remove_series', 'add_row'] as const satisfies readonly EditOpName[];
// Fails to compile when the table engine gains an op this list lacks.
const _everyOpListed: [Exclude<EditOpName, (typeof EDIT_OP_NAMES)[number]>] extends [never] ? true : never = true;

const NullableLabel = z.string().nullable();

/** One edit operation, flattened: the fields an op does not use are null (see `toItemDraft` for what else is read). */
export const ModelEditOpSchema = z.object({
  op: z.enum(EDIT_OP_NAMES).describe('set | scale | add | swap | remove_row | remove_series | add_row'),
  row: NullableLabel.describe('Row label (category or year) for set, remove_row, add_row; optional filter for scale and add; else null.'),
  series: NullableLabel.describe(
    'Series name for remove_series; for set, scale, add, swap null means the only series (set) or every series; else null.',
  ),
  value: z.number().nullable().describe('set: the new value; add_row on a single-series table: the new row value; else null.'),
  factor: z.number().nullable().describe('scale: the multiplier; else null.'),
  delta: z.number().nullable().describe('add: the amount added (negative to subtract); else null.'),
  rows: z.array(z.string()).nullable().describe('swap: exactly two row labels; else null.'),
  values: z
    .array(z.object({ series: z.string(), value: z.number().nullable() }))
    .nullable()
    .describe('add_row on a multi-series table: one entry per series; else null.'),
});
export type ModelEditOp = z.infer<typeof ModelEditOpSchema>;

const draftShape = HqaItemDraftSchema.shape;

/** Stage 2's wire shape: an `HqaItemDraft` with a flat edit. Descriptions come from the domain schema. */
// Same field order as HqaItemDraftSchema: edit and program come before the answer.
export const ModelItemOutputSchema = z.object({
  assumption: z.string().describe(draftShape.assumption.description ?? 'assumption'),
  question: z.string().describe(draftShape.question.description ?? 'question'),
  rationale: z.string().describe(draftShape.rationale.description ?? 'rationale'),
  edit: z.array(ModelEditOpSchema).describe(draftShape.edit.description ?? 'edit'),
  program: z.string().describe(draftShape.program.description ?? 'program'),
  answer: z.string().describe(draftShape.answer.description ?? 'answer'),
  answer_type: draftShape.answer_type,
  affects_answer: draftShape.affects_answer,
});
export type ModelItemOutput = z.infer<typeof ModelItemOutputSchema>;

/** Stage 1's wire shape. */
export const ModelProposalOutputSchema = z.object({
  proposals: z.array(z.string()).describe(ProposalBatchSchema.shape.proposals.description ?? 'proposals'),
});
export type ModelProposalOutput = z.infer<typeof ModelProposalOutputSchema>;

/** A wire → domain conversion, in the shape the LLM client's `convert` takes. */
export type Converted<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Which wire fields each op reads. */
const OP_FIELDS: Record<ModelEditOp['op'], { required: readonly EditField[]; optional: readonly EditField[] }> = {
  set: { required: ['row', 'value'], optional: ['series'] },
  scale: { required: ['factor'], optional: ['row', 'series'] },
  add: { required: ['delta'], optional: ['row', 'series'] },
  swap: { required: ['rows'], optional: ['series'] },
  remove_row: { required: ['row'], optional: [] },
  remove_series: { required: ['series'], optional: [] },
  add_row: { required: ['row'], optional: ['value', 'values'] },
};
type EditField = Exclude<keyof ModelEditOp, 'op'>;
const EDIT_FIELDS: readonly EditField[] = ['row', 'series', 'value', 'factor', 'delta', 'rows', 'values'];
/**
 * Strict structured output makes the model fill every field, so a number in a field its op does
 * not read (`"factor": 2` on a `set`) is filler: the op says what it does without it, and it is
 * dropped with a note. The other fields name cells (`row`, `series`, `rows`, `values`): one the
 * op does not read widens or narrows what it touches (a `series` on a `remove_row`: the row, or
 * one cell?), so the reply fails. An empty label or list says nothing and is dropped quietly.
 */
const AMOUNT_FIELDS: ReadonlySet<EditField> = new Set(['value', 'factor', 'delta']);

/** Zod issues as `path: message` joined by `; ` — short, and names every bad field. */
export function describeIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): string {
  return error.issues
    .map((issue) => {
      const path = [...prefix, ...issue.path].map(String).join('.');
      return `${path === '' ? '(root)' : path}: ${issue.message}`;
    })
    .join('; ');
}

const isEmpty = (value: ModelEditOp[EditField]) => value === '' || (Array.isArray(value) && value.length === 0);

/** An op in the domain's shape, and the finding that says which unused numbers were dropped from it. */
type ReadOp = { op: Record<string, unknown>; note: Finding | null };

function opToEdit(op: ModelEditOp, index: number): Converted<ReadOp> {
  const fields = OP_FIELDS[op.op];
  const used = new Set<EditField>([...fields.required, ...fields.optional]);
  const at = `edit.${index}`;
  for (const field of fields.required) {
    if (op[field] === null) return { ok: false, reason: `${at}.${field}: required for op '${op.op}'` };
  }
  const dropped: string[] = [];
  for (const field of EDIT_FIELDS) {
    const value = op[field];
    if (used.has(field) || value === null || isEmpty(value)) continue;
    if (!AMOUNT_FIELDS.has(field)) {
      return { ok: false, reason: `${at}.${field}: op '${op.op}' takes no ${field}, so which cells it changes is unclear; set it to null` };
    }
    dropped.push(`${field} ${JSON.stringify(value)}`);
  }
  const out: Record<string, unknown> = { op: op.op };
  for (const field of used) {
    if (field === 'values' || op[field] === null) continue;
    // add_row's single-series form: a bare number under `values`.
    if (field === 'value' && op.op === 'add_row') out.values = op.value;
    else out[field] = op[field];
  }
  if (op.op === 'add_row') {
    if (op.value !== null && op.values !== null) return { ok: false, reason: `${at}: give either value or values for add_row, not both` };
    if (op.value === null && op.values === null) return { ok: false, reason: `${at}.values: required for op 'add_row' (or value for a single series)` };
    if (op.values !== null) {
      const record: Record<string, number | null> = {};
      for (const entry of op.values) {
        if (Object.hasOwn(record, entry.series)) return { ok: false, reason: `${at}.values: series '${entry.series}' is listed twice` };
        record[entry.series] = entry.value;
      }
      out.values = record;
    }
  }
  const note: Finding | null =
    dropped.length === 0
      ? null
      : { code: 'edit_normalised', severity: 'info', message: `op ${index + 1} (${op.op}): ${op.op} does not use ${dropped.join(' or ')}; dropped from the model's reply` };
  return { ok: true, value: { op: out, note } };
}

/** A Stage 2 reply read: the draft, and notes on what was dropped to read it (shown to reviewers with the lint). */
export interface ModelItem {
  draft: HqaItemDraft;
  notes: Finding[];
}

/**
 * Converts the model's wire item into an `HqaItemDraft`: drops the null fields each op does
 * not use (and unused numbers, noting each), turns add_row's `values` list into a record, then
 * validates with `HqaItemDraftSchema`. A failure's reason names the field, e.g.
 * `edit.0.row: required for op 'set'`.
 */
export function toItemDraft(wire: ModelItemOutput): Converted<ModelItem> {
  const edit: Record<string, unknown>[] = [];
  const notes: Finding[] = [];
  for (const [index, op] of wire.edit.entries()) {
    const converted = opToEdit(op, index);
    if (!converted.ok) return converted;
    edit.push(converted.value.op);
    if (converted.value.note) notes.push(converted.value.note);
  }
  const parsed = HqaItemDraftSchema.safeParse({ ...wire, edit });
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error) };
  return { ok: true, value: { draft: parsed.data, notes } };
}

/** Stage 1's proposal texts, validated against `ProposalBatchSchema` (count, length of each). */
export function toProposalTexts(wire: ModelProposalOutput): Converted<string[]> {
  const parsed = ProposalBatchSchema.safeParse(wire);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error) };
  return { ok: true, value: parsed.data.proposals };
}

/** The reflection call's wire shape: the revised proposal and what feedback it answers. */
export const ModelReflectionOutputSchema = z.object({
  revised_proposal: z.string().describe('The revised proposal: one general sentence for this chart type.'),
  addressed: z.string().describe('One short sentence naming the feedback the revision answers.'),
});
export type ModelReflectionOutput = z.infer<typeof ModelReflectionOutputSchema>;

const RevisionSchema = z.object({ revised_proposal: z.string().trim().min(10).max(400), addressed: z.string().trim().max(400) });

export function toRevision(wire: ModelReflectionOutput): Converted<{ text: string; addressed: string }> {
  const parsed = RevisionSchema.safeParse(wire);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error) };
  return { ok: true, value: { text: parsed.data.revised_proposal, addressed: parsed.data.addressed } };
}
