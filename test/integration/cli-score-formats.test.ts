import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScoreReportSchema, type ScoreReport } from '../../shared/eval/score-report';
import { runCli } from '../support/cli';
import { CHARTBENCH_SAMPLE, chartBenchPredictions, readChartBenchSample, type PairStrategy } from '../support/chartbench-sample';
import { MULTICHARTQA_DATA, multiChartQaGroupFile, multiChartQaGroups, readMultiChartQaGroup } from '../support/multichartqa-sample';

const dir = mkdtempSync(join(tmpdir(), 'hqa-cli-score-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};
const score = async (args: string[]) => await runCli(['score', ...args], { dbPath: join(dir, 'unused.db') });
const figure = (report: ScoreReport, label: string) => report.figures.find((f) => f.label === label)?.value;

const records = readChartBenchSample();

describe('hqa score --format chartbench', () => {
  it('scores the real sample: every reply "yes" gives Acc+ 0, Acc 50 %, CoR 100 %, and NQA per rule', async () => {
    // NQA answers 5.2 % above the gold: wrong under chartqa (divides by the gold), right under
    // chartbench (divides by the prediction: 0.052 / 1.052 = 4.94 %).
    const predictions = write('yes.json', chartBenchPredictions(records, () => 'yes', () => 1.052));
    const result = await score(['--format', 'chartbench', '--dataset', CHARTBENCH_SAMPLE, '--predictions', predictions, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = ScoreReportSchema.parse(JSON.parse(result.stdout));
    expect(report.format).toBe('chartbench');
    expect(figure(report, 'Acc+')).toBe(0);
    expect(figure(report, 'Acc')).toBe(50);
    expect(figure(report, 'CoR')).toBe(100);
    const nonNumeric = records.filter((r) => r.type.QA === 'GPT-acc' && !Number.isFinite(Number((r.conversation[0]?.label ?? '').replace(/%$/, '')))).length;
    // chartqa: 5.2 % off the gold is wrong, except the golds answered exactly; chartbench: 4.94 % of the prediction is right.
    expect(figure(report, 'NQA (chartqa)')).toBe(Number(((nonNumeric / 120) * 100).toFixed(2)));
    expect(figure(report, 'NQA (chartbench)')).toBe(100);
    const byTask = report.tables.find((t) => t.title === 'By task');
    expect(byTask?.rows.find((row) => row[0] === 'CR')).toEqual(['CR', 120, 0, 50, 100, 0, null]);
    expect(report.warnings).toEqual([]);
  });

  it('prints a text report without --json', async () => {
    const predictions = write('right.json', chartBenchPredictions(records, () => 'right', () => 1));
    const result = await score(['--format', 'chartbench', '--dataset', CHARTBENCH_SAMPLE, '--predictions', predictions]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^ChartBench: 480 judgement pairs and 120 NQA questions/);
    expect(result.stdout).toMatch(/Acc\+\s+100\.00%\s+\(480 of 480 pairs/);
    expect(result.stdout).toContain('By chart subtype');
  });

  it('reads ChartBench\'s own result layout (conversation[].answer) and warns of unknown and missing ids', async () => {
    const strategy = (): PairStrategy => 'reversed';
    const rows = new Map(chartBenchPredictions(records, strategy, () => 1).map((row) => [row.id, row.prediction]));
    const results = records
      .slice(0, 100)
      .map((record) => JSON.stringify({ ...record, conversation: record.conversation.map((entry, i) => ({ ...entry, answer: rows.get(`${record.id}#${i}`) })) }))
      .join('\n');
    const predictions = write('results.jsonl', `${results}\n${JSON.stringify({ id: 99999, conversation: [{ answer: 'Yes' }] })}\n`);
    const result = await score(['--format', 'chartbench', '--dataset', CHARTBENCH_SAMPLE, '--predictions', predictions, '--json']);
    expect(result.status).toBe(0);
    const report = ScoreReportSchema.parse(JSON.parse(result.stdout));
    const answered = records.slice(0, 100).filter((r) => r.type.QA === 'Acc+').length;
    expect(figure(report, 'Pairs answered the wrong way round')).toBe(answered);
    expect(figure(report, 'Pairs with a reply missing')).toBe(480 - answered);
    expect(report.warnings[0]).toMatch(/^1 predictions in .*results\.jsonl name no query .*: 99999#0$/);
    expect(report.warnings[1]).toMatch(/queries of .* have no prediction \(counted wrong\)/);
  });

  it('names the file, line and field of a bad record, exit 1', async () => {
    const lines = readFileSync(CHARTBENCH_SAMPLE, 'utf8').split('\n').slice(0, 3);
    const bad = JSON.parse(lines[1] ?? '{}') as { conversation: { label: string }[] };
    if (bad.conversation[1]) bad.conversation[1].label = 'Maybe';
    const dataset = write('test_mini.jsonl', [lines[0], JSON.stringify(bad), lines[2]].join('\n'));
    const predictions = write('few.json', []);
    const result = await score(['--format', 'chartbench', '--dataset', dataset, '--predictions', predictions]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`error: ${dataset}: line 2: conversation[1].label: expected Yes or No\n`);
    const json = await score(['--format', 'chartbench', '--dataset', dataset, '--predictions', predictions, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ error: { message: `${dataset}: line 2: conversation[1].label: expected Yes or No` } });
  });

  it('names the predictions row with a bad field, and refuses an unknown format', async () => {
    const predictions = write('bad-rows.json', [{ id: '0#0', prediction: 'Yes' }, { id: '0#1', prediction: 3 }]);
    const result = await score(['--format', 'chartbench', '--dataset', CHARTBENCH_SAMPLE, '--predictions', predictions]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: ${predictions.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\[1\\]: prediction: `));
    const unknown = await score(['--format', 'chartqa-x', '--dataset', CHARTBENCH_SAMPLE, '--predictions', predictions]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^error: --format: expected chart-hqa, chartbench, multichartqa, charxiv, pairs; got "chartqa-x"/);
  });
});

describe('hqa score --format multichartqa', () => {
  const groupFile = multiChartQaGroupFile;
  const readGroup = readMultiChartQaGroup;
  const groups = multiChartQaGroups();

  it('scores a data/ folder of groups: gold answers right, per task', async () => {
    const questions = groups.flatMap(readGroup);
    expect(questions).toHaveLength(12);
    // Every question answered with its gold in the prompt's format, except the first, left out.
    const predictions = write('mcqa.json', questions.slice(1).map((q) => ({ id: q.id, prediction: q.answer, raw: `Some reasoning.\nAnswer: ${q.answer}` })));
    const result = await score(['--format', 'multichartqa', '--dataset', MULTICHARTQA_DATA, '--predictions', predictions, '--json']);
    expect(result.stderr).toBe('');
    const report = ScoreReportSchema.parse(JSON.parse(result.stdout));
    expect(report.title).toContain('12 questions');
    expect(figure(report, 'Accuracy')).toBe(Number(((11 / 12) * 100).toFixed(2)));
    expect(figure(report, 'Questions without a prediction')).toBe(1);
    const byTask = report.tables.find((t) => t.title === 'By task');
    const tasks = new Set(questions.map((q) => q.task));
    expect(byTask?.rows.map((row) => row[0]).sort()).toEqual([...tasks].sort());
    expect(report.warnings).toEqual([expect.stringMatching(new RegExp(`^1 questions of .* have no prediction \\(counted wrong\\): ${questions[0]?.id ?? ''}$`))]);
  });

  it('scores one group file with partial credit on a ; answer', async () => {
    const questions = readGroup('owid_0_london-air-pollution');
    const parallel = questions.find((q) => q.answer.includes(';'));
    expect(parallel?.answer).toBe('Delhi; 600');
    const predictions = write('london.json', questions.map((q) => ({ id: q.id, prediction: null, raw: q === parallel ? 'Answer: Delhi; 550' : `Answer: ${q.answer}` })));
    const result = await score(['--format', 'multichartqa', '--dataset', groupFile('owid_0_london-air-pollution'), '--predictions', predictions, '--json']);
    const report = ScoreReportSchema.parse(JSON.parse(result.stdout));
    // 3 full + 0.5 (550 is 8.3 % off 600) of 4.
    expect(figure(report, 'Accuracy')).toBe(87.5);
    expect(figure(report, 'Fully right')).toBe(3);
  });

  it('names the group file and record of a bad question', async () => {
    const bad = readGroup('owid_0_london-air-pollution').map((q, i) => (i === 2 ? { ...q, type: 'essay' } : q));
    const dataset = write('chart-path_and_question-answer_pair.json', bad);
    const result = await score(['--format', 'multichartqa', '--dataset', dataset, '--predictions', write('none.json', [])]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: ${dataset.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\[2\\]: type: `));
  });
});
