import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../../shared/table/model';
import { verifyItem } from '../../shared/table/verify';
import { toGroupItemDraft, type ModelGroupItemOutput } from './stage-prompts';

const GROUP_PROMPT = readFileSync(fileURLToPath(new URL('../../prompts/stage2-group-item.md', import.meta.url)), 'utf8');
const nullOp = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };

describe('the Stage 2 group prompt and reply', () => {
  it('has a worked example the verifier agrees with over its two charts', () => {
    const reply = /JSON reply:\n(\{.*\})\n/.exec(GROUP_PROMPT)?.[1];
    expect(reply).toBeDefined();
    const item = JSON.parse(reply ?? '{}') as { edit: unknown; program: string; answer: string };
    const group = [
      { table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12'], ['2021', '15']]), chartType: 'line' as const },
      { table: tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '13'], ['2021', '9']]), chartType: 'vertical_bar' as const },
    ];
    expect(verifyItem({ group, edit: item.edit, program: item.program, answer: item.answer })).toMatchObject({ match: true, answer_unchanged: false, error: null });
  });

  const wire = (edit: ModelGroupItemOutput['edit']): ModelGroupItemOutput => ({
    assumption: 'Suppose that, in the second chart, the 2019 costs were tripled.',
    question: 'Suppose that, in the second chart, the 2019 costs were tripled. Would Sales in the first chart be higher than Costs in the second chart in 2019?',
    rationale: 'Costs become 12.',
    edit,
    program: 'if(value(1, "2019", "Sales") > value(2, "2019", "Costs"), "Yes", "No")',
    answer: 'No',
    answer_type: 'boolean',
    affects_answer: true,
  });

  it('reads a reply whose every op names its chart, keeping the chart on each op', () => {
    const read = toGroupItemDraft(wire([{ ...nullOp, op: 'scale', chart: 2, row: '2019', series: 'Costs', factor: 3 }]), 2);
    expect(read).toMatchObject({ ok: true, value: { draft: { edit: [{ op: 'scale', chart: 2, row: '2019', series: 'Costs', factor: 3 }] } } });
  });

  it('refuses by name an op without its chart, an edit over two charts and a chart the group lacks', () => {
    expect(toGroupItemDraft(wire([{ ...nullOp, op: 'scale', chart: null, row: '2019', series: 'Costs', factor: 3 }]), 2)).toEqual({
      ok: false,
      reason: 'edit.0.chart: op 0 does not name its chart: this item spans 2 charts, so every op says which one it edits ("chart": 1 to 2)',
    });
    const both = toGroupItemDraft(wire([{ ...nullOp, op: 'add', chart: 1, row: '2019', series: 'Sales', delta: 1 }, { ...nullOp, op: 'add', chart: 2, row: '2019', series: 'Costs', delta: 1 }]), 2);
    expect(both).toMatchObject({ ok: false, reason: expect.stringMatching(/^edit\.1\.chart: op 1 edits chart 2 but op 0 edits chart 1/) });
    const missing = toGroupItemDraft(wire([{ ...nullOp, op: 'scale', chart: 3, row: '2019', series: 'Costs', factor: 3 }]), 2);
    expect(missing).toEqual({ ok: false, reason: 'edit.0.chart: op 0 edits chart 3, but the group has charts 1 to 2' });
  });
});
