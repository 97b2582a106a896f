import { zodResponseFormat } from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import {
  ModelItemOutputSchema,
  ModelProposalOutputSchema,
  toItemDraft,
  toProposalTexts,
  type ModelEditOp,
  type ModelItemOutput,
} from './model-output';

const NULL_OP: Omit<ModelEditOp, 'op'> = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };
const op = (fields: Partial<ModelEditOp> & Pick<ModelEditOp, 'op'>): ModelEditOp => ({ ...NULL_OP, ...fields });

function buildWireItem(overrides: Partial<ModelItemOutput> = {}): ModelItemOutput {
  return {
    assumption: 'Suppose the value of 2020 doubled.',
    question: 'Suppose the value of 2020 doubled. What is the total?',
    answer: '42',
    answer_type: 'integer',
    rationale: '2020 goes from 12 to 24, so the total rises by 12 to 42.',
    affects_answer: true,
    edit: [op({ op: 'scale', row: '2020', factor: 2 })],
    program: 'sum(col("Value"))',
    ...overrides,
  };
}

describe('wire schemas for OpenAI strict structured output', () => {
  it.each([
    ['hqa_item', ModelItemOutputSchema],
    ['proposals', ModelProposalOutputSchema],
  ])('builds a strict response format for %s', (name, schema) => {
    const format = zodResponseFormat(schema, name);

    expect(format.json_schema.strict).toBe(true);
    const root = format.json_schema.schema as { required: string[]; properties: object; additionalProperties: boolean };
    expect(root.additionalProperties).toBe(false);
    expect(root.required.sort()).toEqual(Object.keys(root.properties).sort());
  });
});

describe('toItemDraft', () => {
  it('drops unused nulls and keeps the op fields', () => {
    const result = toItemDraft(buildWireItem());

    expect(result).toEqual({ ok: true, value: { draft: expect.objectContaining({ edit: [{ op: 'scale', row: '2020', factor: 2 }] }), notes: [] } });
  });

  it('converts every op kind, turning the add_row values list into a record', () => {
    const edit = [
      op({ op: 'set', row: 'A', series: 'S1', value: 5 }),
      op({ op: 'add', delta: -1 }),
      op({ op: 'swap', rows: ['A', 'B'] }),
      op({ op: 'remove_row', row: 'C' }),
      op({ op: 'remove_series', series: 'S2' }),
      op({ op: 'add_row', row: 'D', values: [{ series: 'S1', value: 3 }, { series: 'S3', value: null }] }),
      op({ op: 'add_row', row: 'E', value: 7 }),
    ];

    const result = toItemDraft(buildWireItem({ edit }));

    expect(result.ok && result.value.draft.edit).toEqual([
      { op: 'set', row: 'A', series: 'S1', value: 5 },
      { op: 'add', delta: -1 },
      { op: 'swap', rows: ['A', 'B'] },
      { op: 'remove_row', row: 'C' },
      { op: 'remove_series', series: 'S2' },
      { op: 'add_row', row: 'D', values: { S1: 3, S3: null } },
      { op: 'add_row', row: 'E', values: 7 },
    ]);
  });

  it('drops a number the op does not use (strict output fills every field) and notes it for reviewers', () => {
    const edit = [
      op({ op: 'set', row: 'A', series: 'S1', value: 5, factor: 2, delta: 0 }),
      op({ op: 'scale', row: 'B', factor: 1.5, value: 10 }),
      op({ op: 'remove_row', row: 'C', value: 0 }),
      op({ op: 'swap', rows: ['A', 'B'], factor: 1 }),
    ];

    const result = toItemDraft(buildWireItem({ edit }));

    expect(result.ok && result.value.draft.edit).toEqual([
      { op: 'set', row: 'A', series: 'S1', value: 5 },
      { op: 'scale', row: 'B', factor: 1.5 },
      { op: 'remove_row', row: 'C' },
      { op: 'swap', rows: ['A', 'B'] },
    ]);
    expect(result.ok && result.value.notes).toEqual([
      { code: 'edit_normalised', severity: 'info', message: "op 1 (set): set does not use factor 2 or delta 0; dropped from the model's reply" },
      { code: 'edit_normalised', severity: 'info', message: "op 2 (scale): scale does not use value 10; dropped from the model's reply" },
      { code: 'edit_normalised', severity: 'info', message: "op 3 (remove_row): remove_row does not use value 0; dropped from the model's reply" },
      { code: 'edit_normalised', severity: 'info', message: "op 4 (swap): swap does not use factor 1; dropped from the model's reply" },
    ]);
  });

  it('drops an empty label or list in a field the op does not use without a note: it says nothing', () => {
    const result = toItemDraft(buildWireItem({ edit: [op({ op: 'remove_series', series: 'S2', row: '', rows: [], values: [] })] }));

    expect(result).toEqual({ ok: true, value: { draft: expect.objectContaining({ edit: [{ op: 'remove_series', series: 'S2' }] }), notes: [] } });
  });

  it.each<[string, ModelEditOp, RegExp]>([
    ['a missing required field', op({ op: 'set', row: 'A' }), /^edit\.1\.value: required for op 'set'/],
    ['a set whose only number is in another field', op({ op: 'set', row: 'A', factor: 2 }), /^edit\.1\.value: required for op 'set'/],
    ['a series on a remove_row (the row, or one cell?)', op({ op: 'remove_row', row: 'A', series: 'S1' }), /^edit\.1\.series: op 'remove_row' takes no series, so which cells it changes is unclear; set it to null$/],
    ['a row on a remove_series', op({ op: 'remove_series', series: 'S1', row: 'A' }), /^edit\.1\.row: op 'remove_series' takes no row/],
    ['a list of rows on a scale', op({ op: 'scale', factor: 2, rows: ['A', 'B'] }), /^edit\.1\.rows: op 'scale' takes no rows/],
    ['a row beside the two rows of a swap', op({ op: 'swap', rows: ['A', 'B'], row: 'C' }), /^edit\.1\.row: op 'swap' takes no row/],
    ['per-series values on a set', op({ op: 'set', row: 'A', value: 1, values: [{ series: 'S2', value: 3 }] }), /^edit\.1\.values: op 'set' takes no values/],
    ['both value and values on an add_row', op({ op: 'add_row', row: 'D', value: 1, values: [{ series: 'S', value: 2 }] }), /^edit\.1: give either value or values/],
    ['a swap of three rows', op({ op: 'swap', rows: ['A', 'B', 'C'] }), /^edit\.1\.rows/],
    ['add_row without values', op({ op: 'add_row', row: 'D' }), /^edit\.1\.values: required/],
    [
      'a series listed twice',
      op({ op: 'add_row', row: 'D', values: [{ series: 'S', value: 1 }, { series: 'S', value: 2 }] }),
      /^edit\.1\.values: series 'S' is listed twice/,
    ],
  ])('rejects %s with a reason naming the field', (_name, bad, reason) => {
    const result = toItemDraft(buildWireItem({ edit: [op({ op: 'remove_row', row: 'X' }), bad] }));

    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });

  it('applies the domain limits the wire schema leaves out', () => {
    const result = toItemDraft(buildWireItem({ assumption: '   ', program: '' }));

    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/assumption: .*; program: /);
  });
});

describe('toProposalTexts', () => {
  it('accepts proposals within the limits and names the one that is not', () => {
    expect(toProposalTexts({ proposals: ['  Raise the smallest category until it is the largest.'] })).toEqual({
      ok: true,
      value: ['Raise the smallest category until it is the largest.'],
    });
    const bad = toProposalTexts({ proposals: ['Raise the smallest category until it is the largest.', 'Too short'] });
    expect(!bad.ok && bad.reason).toMatch(/^proposals\.1: /);
  });
});
