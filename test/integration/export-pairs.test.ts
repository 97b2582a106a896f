import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { FILE_SCORERS } from '../../server/eval/file-scorers';
import { getItemWithChart } from '../../server/items/item-queries';
import { parseNumericAnswer } from '../../shared/eval/judgement-pairs';
import { correctUnder, SCORING_RULES } from '../../shared/eval/scoring-rules';
import { LEGACY_PAIRS_TASK, PAIRS_INSTRUCTION, PAIRS_TASK, PairsRecordSchema, type PairsRecord } from '../../shared/export/pairs-record';
import { answersAgree } from '../../shared/table/answer-compare';
import { tableFromCells } from '../../shared/table/model';
import { traceItem } from '../../shared/table/trace-item';
import { runCli } from '../support/cli';
import { buildChart, buildItem, buildQa, setItemStatus } from '../support/factories';
import { CHARTQA_SAMPLE } from '../support/paths';

const dir = mkdtempSync(join(tmpdir(), 'hqa-export-pairs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `hqa export --format pairs --json` on a database: its report and its records, each checked against the record schema. */
async function exportPairs(dbPath: string, name: string): Promise<{ report: { items: number; pairs: { considered: number; pairs: number; skipped: Record<string, number> } }; records: PairsRecord[]; file: string }> {
  const file = join(dir, `${name}.pairs.jsonl`);
  const result = await runCli(['export', '--format', 'pairs', '--out', file, '--json'], { dbPath });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const records = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => PairsRecordSchema.strict().parse(JSON.parse(line)));
  return { report: JSON.parse(result.stdout) as never, records, file };
}

const value = (text: string) => parseNumericAnswer(text)?.value ?? Number.NaN;

describe('judgement pairs from hand-made items', () => {
  const dbPath = join(dir, 'hand.sqlite');
  let db: Db;
  /** The original label of each exported item id, for the "answers from the unedited chart" model. */
  const original = new Map<number, string>();
  let exported: Awaited<ReturnType<typeof exportPairs>>;

  beforeAll(async () => {
    db = openAndMigrate(dbPath);
    const chartId = buildChart(db, {
      imgname: 'sales.png',
      chartType: 'grouped_bar',
      table: tableFromCells(['Year', 'North', 'South'], [['2017', '60', '35'], ['2018', '72', '44'], ['2019', '70', '52'], ['2020', '90', '61']]),
    });
    const make = (query: string, label: string, draft: { assumption: string; ask: string; answer: string; edit: unknown; program: string }, status: 'accepted' | 'pending' = 'accepted') => {
      const qaId = buildQa(db, { chartId, query, label });
      const id = buildItem(db, {
        qaId,
        status,
        draft: { assumption: draft.assumption, question: `${draft.assumption} ${draft.ask}`, answer: draft.answer, answer_type: 'integer', edit: draft.edit as never, program: draft.program },
      });
      original.set(id, label);
      return id;
    };
    make('What is the value of North in 2019?', '70', {
      assumption: 'Suppose the value of North in 2019 were doubled.',
      ask: 'What would be the value of North in 2019?',
      answer: '140',
      edit: [{ op: 'scale', row: '2019', series: 'North', factor: 2 }],
      program: 'value("2019", "North")',
    });
    make('How many years had North above 65?', '3', {
      assumption: 'Suppose the value of North in 2017 were 80.',
      ask: 'How many years would have North above 65?',
      answer: '4',
      edit: [{ op: 'set', row: '2017', series: 'North', value: 80 }],
      program: 'count(where(series("North"), ">", 65))',
    });
    // A control: the assumption leaves the answer as it was, so the false value comes from the edited table.
    make('What is the value of South in 2020?', '61', {
      assumption: 'Suppose the value of North in 2020 were halved.',
      ask: 'What would be the value of South in 2020?',
      answer: '61',
      edit: [{ op: 'scale', row: '2020', series: 'North', factor: 0.5 }],
      program: 'value("2020", "South")',
    });
    make('Is North higher than South in 2019?', 'Yes', {
      assumption: 'Suppose the value of South in 2019 were 80.',
      ask: 'Would North be higher than South in 2019?',
      answer: 'No',
      edit: [{ op: 'set', row: '2019', series: 'South', value: 80 }],
      program: 'value("2019", "North") > value("2019", "South")',
    });
    make('Which year had the highest North?', '2020', {
      assumption: 'Suppose the value of North in 2017 were 100.',
      ask: 'Which year would have the highest North?',
      answer: '2017',
      edit: [{ op: 'set', row: '2017', series: 'North', value: 100 }],
      program: 'argmax(series("North"))',
    });
    make('What is the value of South in 2017?', '35', { assumption: 'Suppose South 2017 were 1.', ask: 'What would be the value of South in 2017?', answer: '1', edit: [{ op: 'set', row: '2017', series: 'South', value: 1 }], program: 'value("2017", "South")' }, 'pending');
    db.close();
    exported = await exportPairs(dbPath, 'hand');
  });

  it('writes one ChartBench record per accepted numeric item and counts the rest by reason', () => {
    const { report, records } = exported;
    expect(report.pairs).toEqual({ considered: 5, pairs: 3, skipped: { not_numeric: 1, label_answer: 1, no_wrong_value: 0, edit_not_applied: 0 } });
    expect(report.items).toBe(3);
    expect(records.map((r) => [r.item_id, r.image, r.type, r.instruction])).toEqual(
      records.map((r) => [`chq-${String(r.id).padStart(6, '0')}`, 'sales.png', { chart: 'bar', image: 'grouped_bar', task: 'VE', QA: 'Acc+' }, PAIRS_INSTRUCTION]),
    );
  });

  it("writes a task ChartBench's stat_all_metric.py knows, so its script files the pairs instead of stopping", () => {
    // Stat/stat_all_metric.py (IDEA-FinAI/ChartBench): `metric_record_acc` has these Acc+ task keys,
    // and `classify_item` appends to metrics[...][task_type] and [f'wi_{task_type}' / f'wo_{task_type}'],
    // so any other task name raises KeyError.
    const metricRecordAcc = [
      'all', 'regular', 'extra', 'CR', 'VE', 'VC', 'GC',
      'line', 'bar', 'pie', 'area', 'box', 'radar', 'scatter', 'node', 'combination',
      'wi_anno', 'wo_anno', 'wi_CR', 'wo_CR', 'wi_VE', 'wo_VE', 'wi_VC', 'wo_VC', 'wi_GC', 'wo_GC',
    ];
    const tasks = new Set(exported.records.map((r) => r.type.task));
    expect([...tasks]).toEqual([PAIRS_TASK]);
    for (const task of tasks) {
      expect(metricRecordAcc).toContain(task);
      expect(metricRecordAcc).toContain(`wi_${task}`);
      expect(metricRecordAcc).toContain(`wo_${task}`);
    }
    expect(metricRecordAcc).not.toContain(LEGACY_PAIRS_TASK);
  });

  it('states the verified answer as Yes and a plausible wrong value as No, worded as statements', () => {
    expect(exported.records.map((r) => [r.conversation, r.false_value_source])).toEqual([
      [
        [
          { label: 'Yes', query: 'Suppose the value of North in 2019 were doubled; then the value of North in 2019 would be 140.' },
          { label: 'No', query: 'Suppose the value of North in 2019 were doubled; then the value of North in 2019 would be 70.' },
        ],
        'original_label',
      ],
      [
        [
          { label: 'Yes', query: 'Suppose the value of North in 2017 were 80; then the number of years that would have North above 65 would be 4.' },
          { label: 'No', query: 'Suppose the value of North in 2017 were 80; then the number of years that would have North above 65 would be 3.' },
        ],
        'original_label',
      ],
      [
        [
          // South 2020 is 61 with or without the edit; 52 is the nearest other South value (North's 45 in the same row is farther).
          { label: 'Yes', query: 'Suppose the value of North in 2020 were halved; then the value of South in 2020 would be 61.' },
          { label: 'No', query: 'Suppose the value of North in 2020 were halved; then the value of South in 2020 would be 52.' },
        ],
        'edited_table',
      ],
    ]);
  });

  it('scores as ChartBench does: all right is Acc+ 100; answering from the unedited chart is hand-computed', async () => {
    const predictions = (answer: (record: PairsRecord, assertion: 0 | 1) => string) => {
      const file = join(dir, `predictions-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(exported.records.flatMap((r) => ([0, 1] as const).map((i) => ({ id: `${r.id}#${i}`, prediction: answer(r, i) })))));
      return { name: file, text: readFileSync(file, 'utf8') };
    };
    const dataset = { name: exported.file, text: readFileSync(exported.file, 'utf8') };
    const score = (file: { name: string; text: string }) => FILE_SCORERS.pairs.score({ dataset, predictions: file, rule: 'chartqa' }, { db: () => { throw new Error('no database'); }, providers: () => { throw new Error('no model'); } });
    const figure = (report: Awaited<ReturnType<typeof score>>, label: string) => report.figures.find((f) => f.label === label)?.value;

    const right = await score(predictions((_r, i) => (i === 0 ? 'Yes.' : 'No, it would not.')));
    expect([figure(right, 'Acc+'), figure(right, 'Acc'), figure(right, 'CoR')]).toEqual([100, 100, 0]);
    expect(right.warnings).toEqual([]);

    // Says yes exactly when the assertion states the original factual answer: items 1 and 2 the wrong way round, the control both right.
    const fromOriginal = await score(
      predictions((r, i) => (value(i === 0 ? r.answer : r.false_value) === value(original.get(r.id) ?? '') ? 'yes' : 'no')),
    );
    expect([figure(fromOriginal, 'Acc+'), figure(fromOriginal, 'Acc'), figure(fromOriginal, 'CoR')]).toEqual([33.33, 33.33, 0]);
    expect(figure(fromOriginal, 'Pairs answered the wrong way round')).toBe(2);
    expect(figure(fromOriginal, 'Original answer accepted')).toBe(100);
    expect(fromOriginal.tables.find((t) => t.title === "By the false value's source")?.rows).toEqual([
      ['original_label', 2, 0, 0, 0, 2],
      ['edited_table', 1, 100, 100, 0, 0],
    ]);
    expect(fromOriginal.tables.find((t) => t.title === 'By answer type')?.rows).toEqual([['integer', 3, 33.33, 33.33, 0, 2]]);

    // ChartBench's own scorer reads the export as one of its files, and agrees.
    const chartBench = await FILE_SCORERS.chartbench.score(
      { dataset, predictions: predictions((r, i) => (value(i === 0 ? r.answer : r.false_value) === value(original.get(r.id) ?? '') ? 'yes' : 'no')), rule: 'chartqa' },
      { db: () => { throw new Error('no database'); }, providers: () => { throw new Error('no model'); } },
    );
    expect(['Acc+', 'Acc', 'CoR'].map((label) => figure(chartBench, label))).toEqual([33.33, 33.33, 0]);
    // Grouped by task as ChartBench groups them: every pair under VE.
    expect(chartBench.tables.find((t) => t.title === 'By task')?.rows.map((row) => [row[0], row[1]])).toEqual([['VE', 3]]);

    // A file exported before VE (task "HQA") still reads, with the same figures.
    const legacy = { name: 'legacy.jsonl', text: dataset.text.replaceAll('"task":"VE"', `"task":"${LEGACY_PAIRS_TASK}"`) };
    expect(legacy.text).toContain('"task":"HQA"');
    const legacyScore = await FILE_SCORERS.pairs.score(
      { dataset: legacy, predictions: predictions((r, i) => (value(i === 0 ? r.answer : r.false_value) === value(original.get(r.id) ?? '') ? 'yes' : 'no')), rule: 'chartqa' },
      { db: () => { throw new Error('no database'); }, providers: () => { throw new Error('no model'); } },
    );
    expect(legacyScore.figures).toEqual(fromOriginal.figures);

    const partial = await score({ name: 'p.json', text: JSON.stringify([{ id: `${exported.records[0]?.id ?? 0}#0`, prediction: 'yes' }, { id: '999#0', prediction: 'yes' }]) });
    expect(partial.warnings).toEqual([expect.stringMatching(/^1 predictions in p\.json name no assertion.*999#0/), expect.stringMatching(/^5 assertions .* have no prediction/)]);
  });
});

describe('judgement pairs from a real offline run, each checked against its edited table', () => {
  const dbPath = join(dir, 'run.sqlite');

  it('holds only true Yes assertions and wrong No ones, differing only in the value', async () => {
    expect((await runCli(['import', CHARTQA_SAMPLE, '--json'], { dbPath })).status).toBe(0);
    const generated = await runCli(['generate', '--engine', 'offline', '--items', '30', '--json'], { dbPath });
    expect(generated.status, generated.stderr).toBe(0);
    const db = openAndMigrate(dbPath);
    try {
      setItemStatus(db, 'accepted');
      const { report, records } = await exportPairs(dbPath, 'run');
      const accepted = (db.prepare('SELECT COUNT(*) AS n FROM hqa_items').get() as { n: number }).n;
      expect(report.pairs.considered).toBe(accepted);
      expect(report.pairs.pairs + Object.values(report.pairs.skipped).reduce((a, b) => a + b, 0)).toBe(accepted);
      expect(records.length).toBe(report.pairs.pairs);
      expect(records.length).toBeGreaterThan(5);
      for (const record of records) {
        const stored = getItemWithChart(db, record.id);
        if (!stored) throw new Error(`item ${record.id}`);
        const trace = traceItem({ table: stored.chart.data_table, chartType: stored.item.chart_type, edit: stored.item.edit ?? undefined, program: stored.item.program });
        if (trace.table === null || !trace.edited.ok) throw new Error(`item ${record.id}: the edit or program fails`);
        const [yes, no] = record.conversation;
        // True against the edited table …
        expect(answersAgree(trace.edited.value, record.answer, [trace.table]), `${record.item_id}: ${yes.query}`).toBe(true);
        // … and the false value wrong under every rule.
        for (const rule of SCORING_RULES) expect(correctUnder(rule, record.false_value, record.answer), `${record.item_id} ${rule}`).toBe(false);
        // The two assertions are one sentence with two values.
        const at = yes.query.lastIndexOf(record.answer);
        expect(at, yes.query).toBeGreaterThan(0);
        expect(no.query).toBe(`${yes.query.slice(0, at)}${record.false_value}${yes.query.slice(at + record.answer.length)}`);
        expect(yes.query).toContain(stored.item.assumption.replace(/[.!]$/, ''));
        if (record.wording === 'statement') expect(yes.query).not.toContain('?');
        const falseValue = value(record.false_value);
        if (record.false_value_source === 'original_label') expect(falseValue).toBeCloseTo(value(stored.item.factual_label), 6);
        if (record.false_value_source === 'edited_table') {
          const cells = trace.table.rows.flatMap((row) => row.values).filter((v): v is number => v !== null);
          expect(cells.some((cell) => Math.abs(cell - falseValue) < 1e-9), `${record.item_id}: ${record.false_value} not in the edited table`).toBe(true);
        }
      }
    } finally {
      db.close();
    }
  }, 120_000);
});
