import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { ChartHqaExportV1Schema, ChartQaExportSchema, ExportItemFullSchema, type ChartHqaExportV1 } from '../../shared/export/chart-hqa';
import { importSplit } from '../../server/import/import-split';
import { createItem, createVerifiedItem, type NewItem } from '../../server/items/item-service';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { deleteRetired } from '../../server/review/assignment-queries';
import { writeExport } from '../../server/export/export-writer';
import { JSON_SCHEMA_PATH, jsonSchemaText } from '../../server/export/write-json-schema';
import { createUser } from '../../server/users/user-service';
import { runCli } from '../support/cli';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE } from '../support/paths';
import { buildQa, buildReview, buildStoredItem, buildUser, chartIdOf, copyChartImage, correctAnswer, listItemIds, retireItem, setItemStatus } from '../support/factories';
import { HUMAN_ITEM } from '../support/item-factory';

const dir = mkdtempSync(join(tmpdir(), 'hqa-export-'));
const dbPath = join(dir, 'hqa.sqlite');
/** Enough items for the writer to stream many chunks; the 100,000 of the benchmark are bench/export.ts's. */
const LARGE_EXPORT_ITEMS = 2_000;
let db: Db;
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const pass = (note = '') => ({ pass: true, note });

/**
 * A hand-built database: four items on real ChartQA charts — two accepted (one with a
 * reviewer's corrected answer), one rejected, one pending.
 */
beforeAll(async () => {
  db = openAndMigrate(dbPath);
  importSplit(db, CHARTQA_SAMPLE);
  const reviewer = (await createUser(db, 'rita', 'reviewer', 'rita-password')).user;
  const qas = db.prepare("SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.imgname IN ('two_col_158.png', '5593.png') ORDER BY q.id").all() as { id: number }[];
  const make = (qaId: number, draft: { assumption: string; question: string; answer: string; edit: unknown; program: string; affects: boolean }) => {
    const source = getQaWithChart(db, qaId);
    if (!source) throw new Error(`qa ${qaId}`);
    const item = createVerifiedItem(db, {
      source,
      draft: {
        assumption: draft.assumption,
        question: draft.question,
        answer: draft.answer,
        answer_type: 'integer',
        rationale: 'hand-built',
        affects_answer: draft.affects,
        edit: draft.edit as never,
        program: draft.program,
      },
      origin: 'human',
      proposalId: null,
      runId: null,
      model: null,
      createdBy: reviewer.id,
      idempotencyKey: null,
    });
    if (!item) throw new Error('not stored');
    return item.id;
  };
  const review = (itemId: number, decision: 'accept' | 'reject', corrected: string | null) =>
    buildReview(db, {
      itemId,
      reviewerId: reviewer.id,
      decision,
      criteria: { correctness: { pass: !corrected, note: '' }, layout: { pass: decision !== 'reject', note: '' } },
      feedback: decision === 'reject' ? 'breaks the pie' : '',
      correctedAnswer: corrected,
    });
  const a = make(qas[0]?.id ?? 0, { assumption: 'Suppose Bridgestone were 50.', question: 'Suppose Bridgestone were 50. What is the highest revenue?', answer: '50', edit: [{ op: 'set', row: 'Bridgestone (Japan)', value: 50 }], program: 'max(series())', affects: true });
  const b = make(qas[1]?.id ?? 0, { assumption: 'Suppose Michelin doubled.', question: 'Suppose Michelin doubled. What is its revenue?', answer: '53', edit: [{ op: 'scale', row: 'Michelin (France)', factor: 2 }], program: 'round(value("Michelin (France)"))', affects: true });
  const c = make(qas[2]?.id ?? 0, { assumption: 'Suppose Increase were 60.', question: 'Suppose Increase were 60. Q?', answer: '60', edit: null, program: 'value("Increase")', affects: true });
  make(qas[3]?.id ?? 0, { assumption: 'Suppose pending.', question: 'Suppose pending. Q?', answer: '1', edit: null, program: '1', affects: false });
  review(a, 'accept', null);
  review(b, 'accept', '53.1');
  review(c, 'reject', null);
  setItemStatus(db, 'accepted', [a, b]);
  correctAnswer(db, b, '53.1');
  setItemStatus(db, 'rejected', [c]);
});

/** The accepted items' charts, as the database has them. */
const accepted = () =>
  db.prepare("SELECT c.imgname FROM hqa_items i JOIN charts c ON c.id = i.chart_id WHERE i.status = 'accepted' ORDER BY i.id").all() as { imgname: string }[];

async function exportText(options: Parameters<typeof writeExport>[2]): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeExport(db, out, options, new Date('2026-01-02T03:04:05.000Z'));
  out.end();
  return Buffer.concat(chunks).toString('utf8');
}

describe('the chart-hqa export', () => {
  it('holds only accepted items, corrections applied, with the Table 2 stats', async () => {
    const doc = ChartHqaExportV1Schema.parse(JSON.parse(await exportText({ format: 'chart-hqa', name: 'demo', full: false })));
    expect(doc).toMatchObject({ name: 'demo', version: '1', created_at: '2026-01-02T03:04:05.000Z' });
    expect(doc.items.map((i) => i.answer)).toEqual(['50', '53.1']);
    expect(doc.items[1]).toMatchObject({ answer_type: 'decimal', review: { reviews: 1, accepts: 1, rejects: 0, corrected: true } });
    expect(doc.items[0]?.original).toMatchObject({ source: expect.stringMatching(/human|augmented/) });
    const questions = doc.items.map((i) => i.question.length);
    expect(doc.stats).toEqual({
      questions: 2,
      proposals: 0,
      charts: 1,
      answer_types: { integer: 1, decimal: 1, boolean: 0, text: 0 },
      avg_chars: {
        question: Math.round(((questions[0] ?? 0) + (questions[1] ?? 0)) / 2 * 100) / 100,
        assumption: Math.round((('Suppose Bridgestone were 50.'.length + 'Suppose Michelin doubled.'.length) / 2) * 100) / 100,
        answer: Math.round(((2 + 4) / 2) * 100) / 100,
      },
      pass_rate: 66.67,
      // Both ask another question than their factual one ("the highest revenue" of a company question).
      same_question: 0,
      controls: 0,
      // ChartQA publishes its tables: both verified on a confirmed one.
      table_unconfirmed: 0,
    });
    expect(doc.items.map((i) => i.verification)).toEqual([{ table: 'confirmed' }, { table: 'confirmed' }]);
    expect(doc.items.map((i) => [i.question_relation, i.control])).toEqual([
      ['different', false],
      ['different', false],
    ]);
  });

  it('leaves out an accepted item a curator retired, from the items and the stats alike', async () => {
    const [first] = listItemIds(db, { statuses: ['accepted'], limit: 1 });
    if (first === undefined) throw new Error('no accepted item to retire');
    retireItem(db, { itemId: first, retiredBy: (await buildUser(db, { role: 'curator' })).id, reason: 'export test' });
    try {
      const doc = ChartHqaExportV1Schema.parse(JSON.parse(await exportText({ format: 'chart-hqa', name: 'demo', full: false })));
      expect(doc.items.map((i) => i.answer)).toEqual(['53.1']);
      expect(doc.stats).toMatchObject({ questions: 1, answer_types: { integer: 0, decimal: 1, boolean: 0, text: 0 } });
    } finally {
      deleteRetired(db, first);
    }
  });

  it('validates against the published JSON Schema, which is in sync with the zod schema', async () => {
    expect(readFileSync(JSON_SCHEMA_PATH, 'utf8')).toBe(jsonSchemaText());
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(JSON_SCHEMA_PATH, 'utf8')) as object);
    const doc = JSON.parse(await exportText({ format: 'chart-hqa', name: 'demo', full: true })) as ChartHqaExportV1;
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const broken = { ...doc, items: [{ ...doc.items[0], answer_type: 'color' }] };
    expect(validate(broken)).toBe(false);
  });

  it('adds provenance with --full: table hash, edit, program, verifier, every review', async () => {
    const doc = JSON.parse(await exportText({ format: 'chart-hqa', name: 'x', full: true })) as { items: unknown[] };
    const item = ExportItemFullSchema.parse(doc.items[1]);
    expect(item.provenance).toMatchObject({ origin: 'human', model_answer: '53', program: 'round(value("Michelin (France)"))', split: 'test' });
    expect(item.provenance.table_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(item.provenance.reviews).toEqual([
      expect.objectContaining({ decision: 'accept', corrected_answer: '53.1', criteria: { rationality: pass(), correctness: { pass: false, note: '' }, layout: pass() } }),
    ]);
  });

  it('writes ChartQA question files and JSON lines, deterministically', async () => {
    const chartqa = ChartQaExportSchema.parse(JSON.parse(await exportText({ format: 'chartqa', name: 'x', full: false })));
    const imgname = accepted()[0]?.imgname;
    expect(chartqa).toEqual([
      { imgname, query: 'Suppose Bridgestone were 50. What is the highest revenue?', label: '50' },
      { imgname, query: 'Suppose Michelin doubled. What is its revenue?', label: '53.1' },
    ]);
    const lines = (await exportText({ format: 'jsonl', name: 'x', full: false })).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(await exportText({ format: 'jsonl', name: 'x', full: false })).toBe(await exportText({ format: 'jsonl', name: 'x', full: false }));
  });

  it('hqa export writes the file and the chart images beside it', async () => {
    const out = join(dir, 'out.json');
    const images = join(dir, 'images');
    const result = await runCli(['export', '--out', out, '--images', images, '--json'], { dbPath });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ items: 2, images: 1, format: 'chart-hqa' });
    ChartHqaExportV1Schema.parse(JSON.parse(readFileSync(out, 'utf8')));
    const imgname = accepted()[0]?.imgname ?? '';
    expect(readdirSync(images)).toEqual([imgname]);
    expect(readFileSync(join(images, imgname)).subarray(1, 4).toString()).toBe('PNG');
    expect((await runCli(['export', '--out', out, '--format', 'csv'], { dbPath })).stderr).toMatch(/--format: must be one of/);
  });
});

describe('charts of two splits with the same file name', () => {
  it('are exported as split/name, each image in its own file; a split name that is not a folder name is refused', async () => {
    const twoDir = join(dir, 'two');
    const twoDb = join(twoDir, 'two.sqlite');
    const two = openAndMigrate(twoDb);
    try {
      importSplit(two, CHARTQA_EXTRA, { split: 'alpha' });
      importSplit(two, CHARTQA_EXTRA, { split: 'beta' });
      expect(() => importSplit(two, CHARTQA_EXTRA, { split: '../escape' })).toThrow(/--split: "..\/escape" must be/);
      // A question of its own on each split's chart, for an item to be written over.
      const chartIds = two.prepare("SELECT id FROM charts WHERE imgname = 'multi_col_101207.png'").all() as { id: number }[];
      for (const { id } of chartIds) buildQa(two, { chartId: id, query: 'Which is highest?', label: 'X' });
      const qa = (split: string) =>
        two.prepare("SELECT q.id, q.chart_id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.split = ? AND c.imgname = 'multi_col_101207.png'").get(split) as {
          id: number;
          chart_id: number;
        };
      for (const split of ['alpha', 'beta']) buildStoredItem(two, { qaId: qa(split).id, chartId: qa(split).chart_id });
      // Make the two files differ, to see each chart lands in its own file.
      copyChartImage(two, { from: chartIdOf(two, { split: 'beta', imgname: 'multi_col_20134.png' }), to: qa('beta').chart_id });
    } finally {
      two.close();
    }
    const out = join(twoDir, 'out.json');
    const images = join(twoDir, 'images');
    const result = await runCli(['export', '--out', out, '--images', images, '--json'], { dbPath: twoDb });
    expect(result.status, result.stderr).toBe(0);
    const doc = ChartHqaExportV1Schema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.items.map((item) => ('imgname' in item ? item.imgname : null))).toEqual(['alpha/multi_col_101207.png', 'beta/multi_col_101207.png']);
    // Never classified (written straight to the table): not shown to be the factual question.
    expect(doc.items.map((item) => item.question_relation)).toEqual(['different', 'different']);
    const alpha = readFileSync(join(images, 'alpha', 'multi_col_101207.png'));
    const beta = readFileSync(join(images, 'beta', 'multi_col_101207.png'));
    expect(alpha.equals(readFileSync(join(CHARTQA_EXTRA, 'png', 'multi_col_101207.png')))).toBe(true);
    expect(beta.equals(readFileSync(join(CHARTQA_EXTRA, 'png', 'multi_col_20134.png')))).toBe(true);
  });
});

describe('the question relation and control questions', () => {
  it('export as classified (unclassified as different) in chart-hqa and jsonl, counted in the stats; chartqa keeps its three fields', async () => {
    const own = openAndMigrate(join(dir, 'relation.sqlite'));
    try {
      importSplit(own, CHARTQA_SAMPLE);
      const qa = own.prepare(`SELECT q.id FROM factual_qas q WHERE q.query = 'What is the value of "Increase"?'`).get() as { id: number };
      const source = getQaWithChart(own, qa.id);
      if (!source) throw new Error('the 5593.png question is missing');
      const newItem = (draft: Partial<NewItem['draft']> & Pick<NewItem['draft'], 'assumption' | 'question' | 'answer' | 'program' | 'edit'>): NewItem => ({
        source,
        draft: { answer_type: 'integer', rationale: 'hand-built', affects_answer: true, ...draft },
        ...HUMAN_ITEM,
      });
      // The factual question under an assumption that leaves its answer as it was, kept as a control.
      const control = createItem(
        own,
        newItem({
          assumption: 'Suppose 5 points moved from "Decrease" to "Stay about the same".',
          question: 'Suppose 5 points moved from "Decrease" to "Stay about the same". What would the value of "Increase" be?',
          answer: '30',
          affects_answer: false,
          // The slices keep their 100: an edit that broke the pie would be refused, control or not.
          edit: [
            { op: 'add', row: 'Decrease', delta: -5 },
            { op: 'add', row: 'Stay about the same', delta: 5 },
          ],
          program: 'value("Increase")',
        }),
        'control',
      );
      // Another question: the total, not the value of "Increase".
      const different = createVerifiedItem(
        own,
        newItem({
          assumption: 'Suppose "Increase" doubled.',
          question: 'Suppose "Increase" doubled. What would the total of all values be?',
          answer: '130',
          edit: [{ op: 'scale', row: 'Increase', factor: 2 }],
          program: 'sum(series())',
        }),
      );
      if (!control.ok || !control.item || !different) throw new Error(`not stored: ${control.ok ? '' : control.reason}`);
      expect([control.item.question_relation, control.item.is_control, different.question_relation]).toEqual(['same', true, 'different']);
      buildStoredItem(own, { qaId: source.qa.id, chartId: source.chart.id });
      setItemStatus(own, 'accepted');

      const text = async (format: 'chart-hqa' | 'chartqa' | 'jsonl') => {
        const out = new PassThrough();
        const chunks: Buffer[] = [];
        out.on('data', (chunk: Buffer) => chunks.push(chunk));
        await writeExport(own, out, { format, name: 'relation', full: false });
        out.end();
        return Buffer.concat(chunks).toString('utf8');
      };
      const doc = ChartHqaExportV1Schema.parse(JSON.parse(await text('chart-hqa')));
      const expected = [
        ['same', true],
        ['different', false],
        ['different', false], // the unclassified one
      ];
      expect(doc.items.map((i) => [i.question_relation, i.control])).toEqual(expected);
      expect(doc.stats).toMatchObject({ questions: 3, same_question: 1, controls: 1 });
      const lines = (await text('jsonl')).trim().split('\n').map((line) => ExportItemFullSchema.omit({ provenance: true }).strict().parse(JSON.parse(line)));
      expect(lines.map((i) => [i.question_relation, i.control])).toEqual(expected);
      const chartqa = JSON.parse(await text('chartqa')) as Record<string, unknown>[];
      expect(chartqa.map((row) => Object.keys(row).sort())).toEqual(expected.map(() => ['imgname', 'label', 'query']));
    } finally {
      own.close();
    }
  });
});

// How fast 100,000 items stream, and in how much memory, is bench/export.ts's to say (npm run bench:export).
describe('a large export', () => {
  it('streams every accepted item', async () => {
    const big = openAndMigrate(join(dir, 'big.sqlite'));
    try {
      importSplit(big, CHARTQA_SAMPLE);
      const qa = big.prepare('SELECT q.id, q.chart_id FROM factual_qas q LIMIT 1').get() as { id: number; chart_id: number };
      big.transaction(() => {
        for (let i = 0; i < LARGE_EXPORT_ITEMS; i++) buildStoredItem(big, { qaId: qa.id, chartId: qa.chart_id, question: `Suppose x. Question number ${i}?` });
      })();
      const out = new PassThrough();
      let bytes = 0;
      let chunks = 0;
      out.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        chunks += 1;
      });
      const result = await writeExport(big, out, { format: 'chart-hqa', name: 'big', full: false });
      expect(result.items).toBe(LARGE_EXPORT_ITEMS);
      // Written as it is read, not built whole and written once.
      expect(chunks).toBeGreaterThan(1);
      expect(bytes).toBeGreaterThan(LARGE_EXPORT_ITEMS * 200);
    } finally {
      big.close();
    }
  });
});
