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

    expect(result).toEqual({ ok: true, value: expect.objectContaining({ edit: [{ op: 'scale', row: '2020', factor: 2 }] }) });
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

    expect(result.ok && result.value.edit).toEqual([
      { op: 'set', row: 'A', series: 'S1', value: 5 },
      { op: 'add', delta: -1 },
      { op: 'swap', rows: ['A', 'B'] },
      { op: 'remove_row', row: 'C' },
      { op: 'remove_series', series: 'S2' },
      { op: 'add_row', row: 'D', values: { S1: 3, S3: null } },
      { op: 'add_row', row: 'E', values: 7 },
    ]);
  });

  it.each<[string, ModelEditOp, RegExp]>([
    ['a missing required field', op({ op: 'set', row: 'A' }), /^edit\.1\.value: required for op 'set'/],
    ['a field the op does not use', op({ op: 'scale', factor: 2, delta: 1 }), /^edit\.1\.delta: not used by op 'scale'/],
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
