import { describe, expect, it } from 'vitest';
import { ScoreReportSchema } from '../../shared/eval/score-report';
import { runCli } from '../support/cli';
import { buildExport, buildExportItem, figuresByKey, scoreScratch } from '../support/score-export';

/** `hqa score --rule`: the score under the chosen rule, the others' relaxed accuracy beside it. */

const { write } = scoreScratch('hqa-cli-score-rules-');
const dbPath = ':memory:';

// Each worked by hand: chartqa divides by the gold, qwen-vl by the prediction, chartbench by the
// prediction with the gold's % dropped, a zero reply right for a gold ≤ 0.05, letters of its end
// token stripped from the reply.
const CASES: [id: string, gold: string, type: string, prediction: string | null, chartqa: boolean, qwenVl: boolean, chartbench: boolean][] = [
  ['chq-000001', '100', 'integer', '95', true, false, false], // 5/100 = 5%; 5/95 = 5.26%
  ['chq-000002', '100', 'integer', '105.1', false, true, true], // 5.1%; 5.1/105.1 = 4.85%
  ['chq-000003', '45%', 'integer', '45', false, false, true], // 0.45 vs 45; ChartBench reads the gold as 45
  ['chq-000004', 'U.S.', 'text', 'U.S', true, true, true], // the gold's final period dropped as the prediction's was
  ['chq-000005', 'Yes', 'boolean', 'Yes', true, true, false], // ChartBench strips the reply "Yes" to "Y"
  ['chq-000006', '0.03', 'decimal', '0', false, false, true], // ChartBench: a zero reply, a gold ≤ 0.05
  ['chq-000007', '100', 'integer', '95.2', true, false, false], // 4.8%; 4.8/95.2 = 5.04%
  ['chq-000008', '1', 'integer', '0.951', true, false, false], // 4.9%; 0.049/0.951 = 5.15%
  ['chq-000009', '7', 'integer', null, false, false, false], // no answer
];
const count = (column: 4 | 5 | 6) => CASES.filter((c) => c[column]).length;
const [CHARTQA, QWEN, CHARTBENCH] = [count(4), count(5), count(6)];

const datasetPath = write('export.json', buildExport(CASES.map(([id, gold, type]) => buildExportItem(id, gold, type, 'Altura'))));
const predictionsPath = write('predictions.json', CASES.map(([id, , , prediction]) => ({ id, prediction, raw: prediction ?? '' })));


const pct = (n: number) => Math.round((n / CASES.length) * 10000) / 100;

describe('hqa score --rule', () => {
  it('has cases that tell the three rules apart', () => {
    expect(new Set([CHARTQA, QWEN, CHARTBENCH]).size).toBe(3);
  });

  it.each([
    [undefined, 'chartqa', CHARTQA],
    ['chartqa', 'chartqa', CHARTQA],
    ['qwen-vl', 'qwen-vl', QWEN],
    ['chartbench', 'chartbench', CHARTBENCH],
  ] as const)('--rule %s scores every figure under %s and gives each rule\'s accuracy beside it', async (flag, rule, correct) => {
    const result = await runCli(['score', '--dataset', datasetPath, '--predictions', predictionsPath, '--json', ...(flag ? ['--rule', flag] : [])], { dbPath });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = ScoreReportSchema.parse(JSON.parse(result.stdout));
    expect(report.title).toContain(`under the ${rule} rule`);
    expect(report.figures.find((figure) => figure.key === 'relaxed_accuracy')?.note).toBe(`${correct} of 9; 1 without a prediction`);
    expect(figuresByKey(report).relaxed_accuracy).toBe(pct(correct));
    expect(report.tables[0]?.rows).toEqual([
      ['chartqa', 9, CHARTQA, pct(CHARTQA)],
      ['qwen-vl', 9, QWEN, pct(QWEN)],
      ['chartbench', 9, CHARTBENCH, pct(CHARTBENCH)],
    ]);
  });

  it('prints the chosen rule, its score, and the other rules beside it', async () => {
    const result = await runCli(['score', '--dataset', datasetPath, '--predictions', predictionsPath, '--rule', 'chartbench'], { dbPath });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Chart-HQA chart-hqa: 9 hypothetical questions, numbers scored under the chartbench rule \(ChartBench/);
    expect(result.stdout).toMatch(new RegExp(`Relaxed accuracy\\s+${pct(CHARTBENCH).toFixed(2)}%\\s+\\(${CHARTBENCH} of 9; 1 without a prediction\\)`));
    expect(result.stdout).toMatch(new RegExp(`chartqa\\s+9\\s+${CHARTQA}\\s+${pct(CHARTQA)}\\n`));
    expect(result.stdout).toMatch(new RegExp(`qwen-vl\\s+9\\s+${QWEN}\\s+${pct(QWEN)}\\n`));
  });

  it('refuses an unknown rule, naming the option and the rules', async () => {
    const result = await runCli(['score', '--dataset', datasetPath, '--predictions', predictionsPath, '--rule', 'vqa', '--json'], { dbPath });
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: { message: '--rule: expected chartqa, qwen-vl, chartbench; got "vqa"' } });
  });
});
