import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunConfigSchema } from './api/runs';
import { fieldLabel, inWords } from './issue-words';

/** The messages a parse gives, by path, with the words error map. */
function messages(schema: z.ZodType, input: unknown, labels?: Record<string, string>): Record<string, string> {
  const parsed = schema.safeParse(input, { error: inWords(labels) });
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('validation issues in words', () => {
  it('names the field and says what it must be, for the run form’s numbers', () => {
    expect(messages(RunConfigSchema, { engine: 'offline', budget_cost: -1, concurrency: 1.5, items: -3 })).toEqual({
      budget_cost: 'Budget cost must be more than 0',
      concurrency: 'Concurrency must be a whole number',
      items: 'Items must be 0 or more',
    });
  });

  it('uses the form’s own label for a field when it has one', () => {
    expect(messages(RunConfigSchema, { engine: 'offline', budget_cost: -1 }, { budget_cost: 'Budget, cost in $' })).toEqual({ budget_cost: 'Budget, cost in $ must be more than 0' });
  });

  it('words each kind of issue zod raises, never zod’s own phrasing', () => {
    const schema = z
      .object({
        name: z.string().min(1).max(5),
        note: z.string().min(3),
        kind: z.enum(['line', 'pie']),
        only: z.literal('yes'),
        share: z.number().gt(0).lt(1),
        step: z.number().multipleOf(5),
        tags: z.array(z.string()).min(1).max(2),
        url: z.string().url(),
        when: z.number(),
        nested: z.object({ deep_value: z.number().max(3) }),
      })
      .strict();
    const found = messages(schema, { name: 'toolong', note: 'ab', kind: 'bar', only: 'no', share: 1, step: 7, tags: [], url: 'nope', nested: { deep_value: 4 }, extra: 1 });
    expect(found).toEqual({
      name: 'Name must be at most 5 characters',
      note: 'Note must be at least 3 characters',
      kind: 'Kind must be one of line, pie',
      only: 'Only must be yes',
      share: 'Share must be less than 1',
      step: 'Step must be a multiple of 5',
      tags: 'Tags needs at least one entry',
      url: 'URL must be a web address (https://…)',
      when: 'When is required',
      'nested.deep_value': 'Nested › deep value must be 3 or less',
      '': 'The form has a field it does not take: extra',
    });
    for (const message of Object.values(found)) expect(message).not.toMatch(/Too small|Too big|Invalid (input|option|string)|expected .* to be|>=|<=/);
  });

  it('keeps a message the schema writes itself', () => {
    const schema = z.object({ name: z.string().regex(/^[\w.-]+$/, 'may hold letters, digits, _ . -'), ok: z.boolean().refine((v) => v, 'tick the box to go on') });
    expect(messages(schema, { name: 'a b', ok: false })).toEqual({ name: 'may hold letters, digits, _ . -', ok: 'tick the box to go on' });
  });

  it('reads field paths out: abbreviations in capitals, list entries counted from one', () => {
    expect(fieldLabel(['qa_id'])).toBe('QA id');
    expect(fieldLabel(['price_table', 'gpt-4o', 'input_per_mtok'])).toBe('Price table › gpt 4o › input per mtok');
    expect(fieldLabel(['items', 2, 'answer'])).toBe('Items › #3 › answer');
    expect(fieldLabel(['criteria', 'rationality'], { criteria: 'Criteria' })).toBe('Criteria › rationality');
    expect(fieldLabel([])).toBe('The form');
  });
});
