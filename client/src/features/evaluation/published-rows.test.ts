import { describe, expect, it } from 'vitest';
import type { EvalComparisonRow, PublishedTable } from '@shared/api/evaluations';
import { checkPaperTable, readPaperTable } from '@shared/eval/paper-tables';
import { accuracyRows, answerTypeRows } from './published-rows';

// Three rows of the paper's Table 3 and Table 4 (ChartVLM-L's printed decline rate is the paper's own error).
const TABLE3 = [
  'model\ttype\tparams\tchartqa_acc\tchartqa_rank\tchart_hqa_acc\tchart_hqa_rank\tdecline_rate',
  'TinyChart\tEnd-to-End\t3B\t83.60\t5\t30.79\t11\t63.17',
  'ChartVLM-L\tEnd-to-End\t14.3B\t62.28\t16\t20.15\t15\t63.70',
  'Qwen2.5-VL\tEnd-to-End\t72B\t89.50\t1\t66.41\t1\t25.80',
].join('\n');
const TABLE4 = [
  'model\ttype\tparams\tint\tdec\tbool\ttext\tvariance',
  'TinyChart\tEnd-to-End\t3B\t35.71\t26.61\t57.45\t39.39\t125.60',
  'Qwen2.5-VL\tEnd-to-End\t72B\t51.55\t68.02\t72.34\t64.54\t60.24',
  'Unlisted\tEnd-to-End\t1B\t10.00\t10.00\t10.00\t10.00\t1.00',
].join('\n');

function uploaded(id: number, text: string): PublishedTable {
  const base = { id, source: `paper ${id}`, file_name: `t${id}.tsv`, created_by: 'cora', created_at: '2026-12-02T10:00:00Z' };
  const table = checkPaperTable(readPaperTable(text, base.file_name));
  return table.kind === 'table3' ? { ...base, ...table } : { ...base, ...table };
}

function evaluated(model: string, hqa: number | null): EvalComparisonRow {
  return {
    model,
    hqa_run_id: 7,
    original_run_id: 6,
    no_image_run_id: null,
    items: 40,
    hqa_accuracy: hqa,
    qa_accuracy: 80,
    decline_rate: 12.5,
    no_image_accuracy: null,
    by_answer_type: { integer: 50, decimal: 25, boolean: 100, text: null },
    answer_type_variance: 1234.5,
    bias_rate: null,
    left_out_different: 0,
  };
}

describe('accuracyRows', () => {
  it('ranks the models evaluated here among the published rows by Chart-HQA accuracy, each marked by origin', () => {
    const rows = accuracyRows([evaluated('gpt-4o-mini', 45), evaluated('never-scored', null)], [uploaded(1, TABLE3), uploaded(2, TABLE4)]);
    expect(rows.map((row) => [row.model, row.origin.kind, row.hqa])).toEqual([
      ['Qwen2.5-VL', 'published', '66.41%'],
      ['gpt-4o-mini', 'evaluated', '45.00%'],
      ['TinyChart', 'published', '30.79%'],
      ['ChartVLM-L', 'published', '20.15%'],
      ['never-scored', 'evaluated', '—'],
    ]);
    expect(rows[0]?.origin).toEqual({ kind: 'published', tableId: 1, source: 'paper 1', fileName: 't1.tsv' });
    expect(rows[1]).toMatchObject({ qa: '80.00%', decline: '12.50%', qaRunId: 6, hqaRunId: 7, params: null, erratum: null });
  });

  it('flags as an erratum only the row whose printed decline rate its own accuracies do not give, saying what they give', () => {
    const rows = accuracyRows([], [uploaded(1, TABLE3)]);
    expect(rows.filter((row) => row.erratum !== null).map((row) => row.model)).toEqual(['ChartVLM-L']);
    const erratum = rows.find((row) => row.model === 'ChartVLM-L')?.erratum;
    expect(erratum).toMatchObject({ printed: '63.70', recomputed: '67.65' });
    expect(erratum?.reason).toContain('63.70');
    expect(erratum?.reason).toContain('67.65');
  });
});

describe('answerTypeRows', () => {
  it('ranks published Table 4 rows by their Table 3 row (same model and params), rows without one last in upload order', () => {
    const rows = answerTypeRows([evaluated('gpt-4o-mini', 45)], [uploaded(1, TABLE3), uploaded(2, TABLE4)]);
    expect(rows.map((row) => `${row.model} ${row.params ?? ''}`.trim())).toEqual(['Qwen2.5-VL 72B', 'gpt-4o-mini', 'TinyChart 3B', 'Unlisted 1B']);
    expect(rows[1]).toMatchObject({ byType: { integer: '50.00%', decimal: '25.00%', boolean: '100.00%', text: '—' }, variance: '1234.50' });
    expect(rows[0]).toMatchObject({ byType: { integer: '51.55%', decimal: '68.02%', boolean: '72.34%', text: '64.54%' }, variance: '60.24' });
  });

  it('flags a printed variance that does not follow from the four accuracies', () => {
    const rows = answerTypeRows([], [uploaded(2, TABLE4)]);
    expect(rows.filter((row) => row.erratum !== null).map((row) => row.model)).toEqual(['Unlisted']);
    expect(rows.find((row) => row.model === 'Unlisted')?.erratum).toMatchObject({ printed: '1.00', recomputed: '0.00' });
  });
});
