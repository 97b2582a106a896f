import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCli } from '../support/cli';
import { ScoreReportSchema } from '../../shared/eval/score-report';
import { buildExport, buildExportItem, figuresByKey, scoreScratch } from '../support/score-export';

const { dir, write } = scoreScratch('hqa-cli-score-');
const dbPath = ':memory:';

const items = [
  buildExportItem('chq-000001', '40', 'integer', '20'),
  buildExportItem('chq-000002', '12', 'integer', '12', false),
  buildExportItem('chq-000003', '0.45', 'decimal', '0.9'),
  buildExportItem('chq-000004', 'Yes', 'boolean', 'No'),
  buildExportItem('chq-000005', 'Japan', 'text', 'China'),
];
const dataset = buildExport(items);
const datasetPath = write('export.json', dataset);
const predictionsPath = write('predictions.json', [
  { id: 'chq-000001', prediction: '41', raw: 'The answer is 41.' }, // within 5% of 40: correct
  { id: 'chq-000002', prediction: ' 12 ', raw: '12' }, // whitespace: correct
  { id: 'chq-000003', prediction: '45%', raw: '45%' }, // 0.45: correct
  { id: 'chq-000004', prediction: 'no', raw: 'No' }, // the original label: wrong, biased
  { id: 'chq-000005', prediction: null, raw: '' }, // no answer: missing, wrong
]);
// The same model on the factual questions: 1, 2, 4, 5 right against the original labels.
const baselinePath = write('baseline.json', [
  { id: 'chq-000001', prediction: '20', raw: '20' },
  { id: 'chq-000002', prediction: '12', raw: '12' },
  { id: 'chq-000003', prediction: '0.5', raw: '0.5' },
  { id: 'chq-000004', prediction: 'No', raw: 'No' },
  { id: 'chq-000005', prediction: 'china', raw: 'china' },
]);

const ErrorSchema = z.strictObject({ error: z.strictObject({ message: z.string() }) });

describe('hqa score', () => {
  it('prints only the JSON report, its figures matching hand-computed values', async () => {
    const result = await runCli(['score', '--dataset', datasetPath, '--predictions', predictionsPath, '--json'], { dbPath });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = ScoreReportSchema.parse(JSON.parse(result.stdout));
    expect(report.format).toBe('chart-hqa');
    expect(figuresByKey(report)).toEqual({
      relaxed_accuracy: 60, // 3 of 5
      accuracy_integer: 100,
      accuracy_decimal: 100,
      accuracy_boolean: 0,
      accuracy_text: 0,
      answer_type_variance: 2500, // mean 50, every deviation ±50
      bias_rate: 25, // 1 of the 4 items whose answer the assumption changed
      left_out_different: 0,
    });
    expect(report.figures.find((figure) => figure.key === 'relaxed_accuracy')?.note).toBe('3 of 5; 1 without a prediction');
    expect(report.figures.find((figure) => figure.key === 'bias_rate')?.note).toMatch(/^1 of 4 items/);
    // These five predictions score alike under every rule (cli-score-rules.test.ts has ones that do not).
    expect(report.tables[0]?.rows).toEqual(['chartqa', 'qwen-vl', 'chartbench'].map((rule) => [rule, 5, 3, 60]));
    expect(report.warnings).toEqual([]);
  });

  it('adds the decline rate against a baseline run of the original questions', async () => {
    const result = await runCli(['score', '--dataset', datasetPath, '--predictions', predictionsPath, '--baseline', baselinePath, '--json'], {
      dbPath,
    });
    expect(result.status).toBe(0);
    const figures = figuresByKey(ScoreReportSchema.parse(JSON.parse(result.stdout)));
    expect(figures.baseline_accuracy).toBe(80); // 4 of 5
    expect(figures.decline_rate).toBe(25); // |80 − 60| / 80 × 100
    expect(figures.relaxed_accuracy).toBe(60);
  });

  it('warns of predictions that name no item, and refuses a baseline for another format', async () => {
    const extra = write('predictions-extra.json', [...(JSON.parse(readFileSync(predictionsPath, 'utf8')) as unknown[]), { id: 'chq-999999', prediction: '1' }]);
    const result = await runCli(['score', '--dataset', datasetPath, '--predictions', extra, '--json'], { dbPath });
    expect(result.status, result.stderr).toBe(0);
    expect(ScoreReportSchema.parse(JSON.parse(result.stdout)).warnings).toEqual(['1 predictions name no item of the dataset: chq-999999']);
    const refused = await runCli(['score', '--format', 'pairs', '--dataset', datasetPath, '--predictions', predictionsPath, '--baseline', baselinePath, '--json'], { dbPath });
    expect(refused.status).toBe(1);
    expect(ErrorSchema.parse(JSON.parse(refused.stdout)).error.message).toBe('baseline: only a chart-hqa dataset has a decline rate, not pairs');
  });

  it('leaves an item that asks another question out of the bias and decline rates, and says how many', async () => {
    // chq-000006 asks another question; the model gives its factual label (biased, were it
    // counted: 2 of 5 = 40%) and the baseline answers its factual question right.
    const withDifferent = write('with-different.json', { ...dataset, items: [...items, buildExportItem('chq-000006', '7', 'integer', '3', true, 'different')] });
    const predictions = write('predictions-6.json', [...(JSON.parse(readFileSync(predictionsPath, 'utf8')) as unknown[]), { id: 'chq-000006', prediction: '3' }]);
    const baseline = write('baseline-6.json', [...(JSON.parse(readFileSync(baselinePath, 'utf8')) as unknown[]), { id: 'chq-000006', prediction: '3' }]);
    const result = await runCli(['score', '--dataset', withDifferent, '--predictions', predictions, '--baseline', baseline, '--json'], { dbPath });
    expect(result.status, result.stderr).toBe(0);
    const report = ScoreReportSchema.parse(JSON.parse(result.stdout));
    expect(figuresByKey(report)).toMatchObject({
      relaxed_accuracy: 50, // 3 of 6: accuracy keeps every item
      bias_rate: 25, // still 1 of the 4 same items whose answer changed
      left_out_different: 1,
      baseline_accuracy: 83.33, // 5 of 6 factual questions
      // over the 5 same items: |80 − 60| / 80; over all six it would be |83.33 − 50| / 83.33 = 40
      decline_rate: 25,
    });
    expect(report.figures.find((figure) => figure.key === 'decline_rate')?.note).toBe("over 5 items: 60.00% against the baseline's 80.00%");
    expect(report.figures.find((figure) => figure.key === 'bias_rate')?.note).toMatch(/^1 of 4 items/);
    const human = await runCli(['score', '--dataset', withDifferent, '--predictions', predictions, '--baseline', baseline], { dbPath });
    expect(human.stdout).toMatch(/Left out of the decline and bias rates\s+1\s+\(questions that are not the factual question under an assumption\)/);
    expect(human.stdout).toMatch(/Decline rate\s+25\.00%\s+\(over 5 items: 60\.00% against the baseline's 80\.00%\)/);
  });

  it('decides the question relation of items that lack it from their texts, scoring as with the field, and says so', async () => {
    // chq-000006 asks something else than its factual question: decided `different`, it leaves the rates as the field would.
    const other = { ...buildExportItem('chq-000006', '4', 'integer', '3', true, 'different'), question: 'If every value doubled, what would the sum of all values be?', original: { query: 'How many bars exceed 10?', label: '3', source: 'human' } };
    const full = [...items, other];
    const strip = ({ question_relation: _relation, ...rest }: (typeof full)[number]) => rest;
    const withField = write('with-relation.json', buildExport(full));
    const without = write('without-relation.json', { ...buildExport(full), items: full.map(strip) });
    const some = write('some-relation.json', { ...buildExport(full), items: full.map((item, index) => (index % 2 === 0 ? strip(item) : item)) });
    const predictions = write('predictions-rel.json', [...(JSON.parse(readFileSync(predictionsPath, 'utf8')) as unknown[]), { id: 'chq-000006', prediction: '3' }]);
    const baseline = write('baseline-rel.json', [...(JSON.parse(readFileSync(baselinePath, 'utf8')) as unknown[]), { id: 'chq-000006', prediction: '3' }]);
    const score = async (dataset: string, json = true) => await runCli(['score', '--dataset', dataset, '--predictions', predictions, '--baseline', baseline, ...(json ? ['--json'] : [])], { dbPath });

    const expected = await score(withField);
    expect(expected.status, expected.stderr).toBe(0);
    const figures = figuresByKey(ScoreReportSchema.parse(JSON.parse(expected.stdout)));
    expect(figures).toMatchObject({ left_out_different: 1 });
    expect(figures).not.toHaveProperty('question_relation_decided');
    const decided = await score(without);
    expect(decided.status, decided.stderr).toBe(0);
    expect(figuresByKey(ScoreReportSchema.parse(JSON.parse(decided.stdout)))).toEqual({ ...figures, question_relation_decided: 6 });
    expect(figuresByKey(ScoreReportSchema.parse(JSON.parse((await score(some)).stdout)))).toEqual({ ...figures, question_relation_decided: 3 });

    const text = await score(without, false);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/question_relation decided\s+6\s+\(items that lacked it, decided from question, assumption and original\.query\)/);
    expect(text.stdout.replace(/\nquestion_relation decided .*\n/, '\n')).toBe((await score(withField, false)).stdout);
  });

  it('names the file and the field of a bad dataset', async () => {
    const bad = write('bad-export.json', { ...dataset, items: [items[0], { ...items[1], answer_type: 'number' }] });
    const result = await runCli(['score', '--dataset', bad, '--predictions', predictionsPath, '--json'], { dbPath });
    expect(result.status).toBe(1);
    const { error } = ErrorSchema.parse(JSON.parse(result.stdout));
    expect(error.message).toContain('bad-export.json');
    expect(error.message).toContain('items[1].answer_type');
  });

  it('names the file and the field of bad predictions, and of a missing original label', async () => {
    const badPredictions = write('bad-predictions.json', [{ id: 'chq-000001', prediction: 41 }]);
    const result = await runCli(['score', '--dataset', datasetPath, '--predictions', badPredictions, '--json'], { dbPath });
    expect(result.status).toBe(1);
    expect(ErrorSchema.parse(JSON.parse(result.stdout)).error.message).toMatch(/bad-predictions\.json: \[0\]: prediction/);

    const noLabel = write('no-label.json', { ...dataset, items: [{ ...items[0], original: { query: 'q', source: 'human' } }] });
    const labelResult = await runCli(['score', '--dataset', noLabel, '--predictions', predictionsPath, '--json'], { dbPath });
    expect(labelResult.status).toBe(1);
    expect(ErrorSchema.parse(JSON.parse(labelResult.stdout)).error.message).toMatch(/no-label\.json: items\[0\]\.original\.label/);
  });

  it('rejects unreadable files, invalid JSON and duplicate ids with the file named', async () => {
    const missing = await runCli(['score', '--dataset', join(dir, 'nope.json'), '--predictions', predictionsPath, '--json'], { dbPath });
    expect(missing.status).toBe(1);
    expect(ErrorSchema.parse(JSON.parse(missing.stdout)).error.message).toMatch(/nope\.json: cannot read/);

    const notJson = write('not-json.json', '{"items": [');
    const invalid = await runCli(['score', '--dataset', datasetPath, '--predictions', notJson, '--json'], { dbPath });
    expect(invalid.status).toBe(1);
    expect(ErrorSchema.parse(JSON.parse(invalid.stdout)).error.message).toMatch(/not-json\.json: line 1: not JSON/);

    const duplicates = write('duplicates.json', [
      { id: 'chq-000001', prediction: '40', raw: '' },
      { id: 'chq-000001', prediction: '41', raw: '' },
    ]);
    const dup = await runCli(['score', '--dataset', datasetPath, '--predictions', duplicates, '--json'], { dbPath });
    expect(dup.status).toBe(1);
    expect(ErrorSchema.parse(JSON.parse(dup.stdout)).error.message).toMatch(/duplicates\.json: \[1\]: id: duplicate/);
  });

  it('without --json prints a readable summary, and errors go to stderr', async () => {
    const ok = await runCli(['score', '--dataset', datasetPath, '--predictions', predictionsPath], { dbPath });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/Relaxed accuracy\s+60\.00%\s+\(3 of 5; 1 without a prediction\)/);
    expect(ok.stdout).toMatch(/Left out of the decline and bias rates\s+0\s/);
    const bad = await runCli(['score', '--dataset', join(dir, 'nope.json'), '--predictions', predictionsPath], { dbPath });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^error: .*nope\.json/);
  });
});
