import { describe, expect, it } from 'vitest';
import { chartBenchPredictions, readChartBenchSample, type ChartBenchSampleRecord, type PairStrategy } from '../../test/support/chartbench-sample';
import { chartBenchCategory, isAnnotatedSubtype, isYesReply, scoreJudgementPairs, scoreNumericQuestions, type JudgementPair } from './chartbench-metrics';

describe('isYesReply', () => {
  it('is yes when the reply contains "yes" in any case, anywhere, as ChartBench fuzzy_match', () => {
    expect(isYesReply('Yes')).toBe(true);
    expect(isYesReply('YES.')).toBe(true);
    expect(isYesReply('The answer is yes, because …')).toBe(true);
    // ChartBench's substring test: "eyes" contains "yes" too, and the reference counts it.
    expect(isYesReply('my eyes')).toBe(true);
    expect(isYesReply('No')).toBe(false);
    expect(isYesReply('Y e s')).toBe(false);
    expect(isYesReply('')).toBe(false);
  });
});

describe('isAnnotatedSubtype', () => {
  it('follows ChartBench wi_anno list, not only the *_wi_anno names', () => {
    expect(isAnnotatedSubtype('vertical_single_wi_anno')).toBe(true);
    expect(isAnnotatedSubtype('pie_pie')).toBe(true);
    expect(isAnnotatedSubtype('vertical_single')).toBe(false);
    expect(isAnnotatedSubtype('area')).toBe(false);
  });
});

const pair = (yesReply: string | null, noReply: string | null, keys: Partial<JudgementPair> = {}): JudgementPair => ({ yesReply, noReply, ...keys });

describe('scoreJudgementPairs', () => {
  it('computes Acc+, Acc and CoR by hand on four pairs', () => {
    // right–right (Acc+), yes–yes (confused), no–no (confused), reversed.
    const score = scoreJudgementPairs([pair('Yes', 'No'), pair('yes', 'Yes.'), pair('no', 'No'), pair('No', 'yes')]).overall;
    expect(score).toEqual({
      pairs: 4,
      bothRight: 1,
      assertionsRight: 4, // 2 + 1 + 1 + 0 of 8
      confused: 2,
      reversed: 1,
      missing: 0,
      accPlus: 25,
      acc: 50,
      cor: 50,
    });
  });

  it('counts a missing reply wrong, and the pair neither confused nor reversed', () => {
    const score = scoreJudgementPairs([pair(null, 'No'), pair('Yes', null), pair(null, null)]).overall;
    expect(score.pairs).toBe(3);
    expect(score.bothRight).toBe(0);
    expect(score.assertionsRight).toBe(2);
    expect(score.confused).toBe(0);
    expect(score.reversed).toBe(0);
    expect(score.missing).toBe(3);
    expect(score.acc).toBeCloseTo((2 / 6) * 100, 12);
  });

  it('breaks down per group, subtype, task and annotation, leaving absent keys out', () => {
    const result = scoreJudgementPairs([
      pair('Yes', 'No', { group: 'bar', subtype: 'vertical_single', task: 'CR', annotated: false }),
      pair('Yes', 'Yes', { group: 'bar', subtype: 'vertical_single_wi_anno', task: 'VE', annotated: true }),
      pair('No', 'No', { group: 'line', subtype: 'line_err', task: 'CR', annotated: false }),
      pair('Yes', 'No', {}),
    ]);
    expect(result.overall.pairs).toBe(4);
    expect([...result.by.group.keys()]).toEqual(['bar', 'line']);
    expect(result.by.group.get('bar')).toMatchObject({ pairs: 2, bothRight: 1, confused: 1, accPlus: 50, acc: 75, cor: 50 });
    expect(result.by.group.get('line')).toMatchObject({ pairs: 1, bothRight: 0, confused: 1, accPlus: 0, acc: 50, cor: 100 });
    expect(result.by.task.get('CR')).toMatchObject({ pairs: 2, accPlus: 50, acc: 75, cor: 50 });
    expect(result.by.annotation.get('annotated')).toMatchObject({ pairs: 1, accPlus: 0, cor: 100 });
    expect(result.by.annotation.get('unannotated')).toMatchObject({ pairs: 2, accPlus: 50 });
    expect(result.by.subtype.size).toBe(3);
  });

  it('files subtypes regular or extra as the script’s metric_group does, and crosses task with annotation', () => {
    expect(['vertical_single', 'line_err', 'ring', 'horizontal_single_wi_anno'].map(chartBenchCategory)).toEqual(['regular', 'regular', 'regular', 'regular']);
    expect(['radar_single', 'box_h', 'node_link_dir', 'pie_bar', 'area_stack'].map(chartBenchCategory)).toEqual(['extra', 'extra', 'extra', 'extra', 'extra']);
    // In none of the script's chart groups (its pie group lists ring and ring_wo_anno): in neither column.
    expect(chartBenchCategory('ring_wi_anno')).toBeUndefined();
    const result = scoreJudgementPairs([
      pair('Yes', 'No', { subtype: 'vertical_single', task: 'CR', annotated: false }),
      pair('Yes', 'Yes', { subtype: 'radar_single_wi_anno', task: 'CR', annotated: true }),
      pair('Yes', 'No', { subtype: 'ring_wi_anno', task: 'VE', annotated: true }),
    ]);
    expect([...result.by.category.entries()].map(([key, score]) => [key, score.pairs, score.accPlus])).toEqual([
      ['regular', 1, 100],
      ['extra', 1, 0],
    ]);
    expect([...result.by.task_annotation.entries()].map(([key, score]) => [key, score.pairs])).toEqual([
      ['CR unannotated', 1],
      ['CR annotated', 1],
      ['VE annotated', 1],
    ]);
  });

  it('gives null rates over no pairs', () => {
    expect(scoreJudgementPairs([]).overall).toMatchObject({ pairs: 0, accPlus: null, acc: null, cor: null });
  });
});

describe('scoreNumericQuestions', () => {
  it('scores under the chosen rule: chartqa divides by the gold, chartbench by the prediction', () => {
    // |104 − 100| / 100 = 4 % (right under chartqa); / 104 = 3.8 % (right under chartbench).
    // |95 − 100| / 100 = 5 % (right under chartqa); / 95 = 5.26 % (wrong under chartbench).
    const questions = [
      { prediction: '104', targets: ['100'], task: 'NQA' },
      { prediction: '95', targets: ['100'], task: 'NQA' },
      { prediction: null, targets: ['100'], task: 'NQA' },
      { prediction: ' 12 ', targets: ['11', '12'], task: 'NQA' },
    ];
    expect(scoreNumericQuestions(questions, 'chartqa').overall).toEqual({ questions: 4, correct: 3, missing: 1, accuracy: 75 });
    expect(scoreNumericQuestions(questions, 'chartbench').overall).toEqual({ questions: 4, correct: 2, missing: 1, accuracy: 50 });
    expect(scoreNumericQuestions(questions, 'chartqa').by.task.get('NQA')?.correct).toBe(3);
  });

  it('reads a % gold as ChartBench\'s rule does (the % ignored) and as pix2struct does (divided by 100)', () => {
    // pix2struct: "8.2%" is 0.082 on both sides, so "8.2%" matches and a bare 8.2 does not.
    expect(scoreNumericQuestions([{ prediction: '8.2', targets: ['8.2%'] }], 'chartqa').overall.correct).toBe(0);
    expect(scoreNumericQuestions([{ prediction: '8.2%', targets: ['8.2%'] }], 'chartqa').overall.correct).toBe(1);
    expect(scoreNumericQuestions([{ prediction: '8.2', targets: ['8.2%'] }], 'chartbench').overall.correct).toBe(1);
  });
});

describe('the real ChartBench sample (600 records of test_mini.jsonl)', () => {
  const records = readChartBenchSample();
  const pairRecords = records.filter((record) => record.type.QA === 'Acc+');
  const toPairs = (strategy: (record: ChartBenchSampleRecord) => PairStrategy) => {
    const rows = new Map(chartBenchPredictions(records, strategy, () => 1).map((row) => [row.id, row.prediction]));
    return pairRecords.map((record) => {
      const yesIndex = record.conversation[0]?.label === 'Yes' ? 0 : 1;
      return {
        group: record.type.chart,
        subtype: record.type.image,
        task: record.type.task,
        annotated: isAnnotatedSubtype(record.type.image),
        yesReply: rows.get(`${record.id}#${yesIndex}`) ?? null,
        noReply: rows.get(`${record.id}#${1 - yesIndex}`) ?? null,
      };
    });
  };

  it('holds 480 pairs and 120 NQA questions', () => {
    expect(pairRecords).toHaveLength(480);
    expect(records.length - pairRecords.length).toBe(120);
  });

  it('every reply "yes": Acc+ 0, Acc 50 %, CoR 100 %; right: 100, 100, 0; reversed: 0, 0, 0', () => {
    expect(scoreJudgementPairs(toPairs(() => 'yes')).overall).toMatchObject({ pairs: 480, accPlus: 0, acc: 50, cor: 100, reversed: 0 });
    expect(scoreJudgementPairs(toPairs(() => 'right')).overall).toMatchObject({ accPlus: 100, acc: 100, cor: 0 });
    expect(scoreJudgementPairs(toPairs(() => 'reversed')).overall).toMatchObject({ accPlus: 0, acc: 0, cor: 0, reversed: 480 });
  });

  it('a mix by record id gives the figures counted from the records themselves, per task too', () => {
    const strategy = (record: ChartBenchSampleRecord): PairStrategy => (['right', 'yes', 'no', 'reversed'] as const)[record.id % 4] ?? 'right';
    const result = scoreJudgementPairs(toPairs(strategy));
    const expectFor = (subset: readonly ChartBenchSampleRecord[]) => {
      const n = (s: PairStrategy) => subset.filter((record) => strategy(record) === s).length;
      return {
        pairs: subset.length,
        accPlus: (n('right') / subset.length) * 100,
        acc: ((2 * n('right') + n('yes') + n('no')) / (2 * subset.length)) * 100,
        cor: ((n('yes') + n('no')) / subset.length) * 100,
      };
    };
    const close = (actual: { pairs: number; accPlus: number | null; acc: number | null; cor: number | null } | undefined, expected: ReturnType<typeof expectFor>) => {
      expect(actual?.pairs).toBe(expected.pairs);
      expect(actual?.accPlus).toBeCloseTo(expected.accPlus, 10);
      expect(actual?.acc).toBeCloseTo(expected.acc, 10);
      expect(actual?.cor).toBeCloseTo(expected.cor, 10);
    };
    close(result.overall, expectFor(pairRecords));
    for (const task of ['CR', 'VE', 'VC', 'GC']) close(result.by.task.get(task), expectFor(pairRecords.filter((record) => record.type.task === task)));
    close(result.by.group.get('bar'), expectFor(pairRecords.filter((record) => record.type.chart === 'bar')));
    // Annotated: the two *_wi_anno bar subtypes and ChartBench's pie_bar and pie_pie, 20 pairs each.
    expect(result.by.annotation.get('annotated')?.pairs).toBe(80);
    expect(result.by.annotation.get('unannotated')?.pairs).toBe(400);
  });

  it('NQA: answers 4 % off are right and 6 % off wrong under chartqa', () => {
    const nqaRecords = records.filter((record) => record.type.QA === 'GPT-acc');
    const factor = (record: ChartBenchSampleRecord) => (record.id % 2 === 0 ? 1.04 : 1.06);
    const rows = new Map(chartBenchPredictions(records, () => 'right', factor).map((row) => [row.id, row.prediction]));
    const questions = nqaRecords.map((record) => ({ task: record.type.task, prediction: rows.get(`${record.id}#0`) ?? null, targets: [record.conversation[0]?.label ?? ''] }));
    const numeric = (record: ChartBenchSampleRecord) => Number.isFinite(Number((record.conversation[0]?.label ?? '').replace(/%$/, '')));
    // Right: the 4 % ones, and the golds that are no number (answered exactly).
    const right = nqaRecords.filter((record) => record.id % 2 === 0 || !numeric(record)).length;
    expect(nqaRecords.filter((record) => !numeric(record)).length).toBeGreaterThan(0);
    expect(scoreNumericQuestions(questions, 'chartqa').overall).toMatchObject({ questions: 120, correct: right });
  });
});

describe('NQA replies are stripped as the script strips them', () => {
  it('keeps a byte-order mark, which Python’s strip() leaves and float() refuses: the reply is wrong, as in stat_all_metric.py', () => {
    const question = (prediction: string) => ({ prediction, targets: ['42'] });
    expect(scoreNumericQuestions([question(' 42\n')], 'chartbench').overall.correct).toBe(1);
    expect(scoreNumericQuestions([question('\uFEFF42')], 'chartbench').overall.correct).toBe(0);
    expect(scoreNumericQuestions([question('\uFEFF42')], 'chartqa').overall.correct).toBe(0);
  });
});
