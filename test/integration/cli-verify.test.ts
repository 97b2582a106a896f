import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCli } from '../support/cli';
import { CHARTQA_SAMPLE } from '../support/paths';

const table = (stem: string) => join(CHARTQA_SAMPLE, 'tables', `${stem}.csv`);
const dbPath = ':memory:';

const SuccessSchema = z.strictObject({
  answer: z.string(),
  answer_type: z.enum(['integer', 'decimal', 'boolean', 'text']),
  lint: z.array(z.strictObject({ code: z.string(), severity: z.string(), message: z.string() })),
});
const FailureSchema = z.strictObject({ error: z.strictObject({ message: z.string(), position: z.number().optional() }) });

describe('hqa verify', () => {
  it('answers a program on a real ChartQA table', async () => {
    const result = await runCli(['verify', '--table', table('two_col_158'), '--program', 'argmax(series())', '--json'], { dbPath });
    expect(result.status).toBe(0);
    expect(SuccessSchema.parse(JSON.parse(result.stdout))).toEqual({ answer: 'Bridgestone (Japan)', answer_type: 'text', lint: [] });
  });

  it('applies the edit first and lints it for the chart type', async () => {
    const edit = JSON.stringify([{ op: 'scale', row: 'increase', factor: 2 }]);
    const result = await runCli(['verify', '--table', table('5593'), '--chart-type', 'pie', '--edit', edit, '--program', 'sum(series())', '--json'], { dbPath });
    const output = SuccessSchema.parse(JSON.parse(result.stdout));
    expect(output.answer).toBe('130');
    expect(output.answer_type).toBe('integer');
    expect(output.lint.map((f) => f.code)).toContain('pie_sum');
  });

  it('reports a program error with its position and a non-zero status', async () => {
    const result = await runCli(['verify', '--table', table('two_col_158'), '--program', 'value("x") +', '--json'], { dbPath });
    expect(result.status).toBe(1);
    const output = FailureSchema.parse(JSON.parse(result.stdout));
    expect(output.error.position).toBe(12);
  });

  it('names the bad option or file', async () => {
    const badType = FailureSchema.parse(JSON.parse((await runCli(['verify', '--table', table('5593'), '--chart-type', 'radar', '--program', '1', '--json'], { dbPath })).stdout));
    expect(badType.error.message).toMatch(/--chart-type/);
    const badEdit = FailureSchema.parse(JSON.parse((await runCli(['verify', '--table', table('5593'), '--edit', '[{', '--program', '1', '--json'], { dbPath })).stdout));
    expect(badEdit.error.message).toMatch(/--edit: not valid JSON/);
    const missing = FailureSchema.parse(JSON.parse((await runCli(['verify', '--table', table('nope'), '--program', '1', '--json'], { dbPath })).stdout));
    expect(missing.error.message).toMatch(/nope\.csv/);
  });
});
