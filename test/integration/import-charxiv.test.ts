import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { ImportReportSchema } from '../../shared/api/import';
import { CharXivDescriptiveFieldsSchema, CharXivReasoningFieldsSchema, ChartBenchmarkFieldsSchema } from '../../shared/domain/benchmark-fields';
import { CHARXIV_DESCRIPTIVE_TEMPLATES } from '../../server/import/charxiv-templates';
import { importFolder } from '../../server/import/import-folder';
import { runCli } from '../support/cli';
import { readMultiChartQaSample } from '../support/multichartqa-sample';
import { SEED_BENCHMARKS } from '../support/paths';

/** The CharXiv importer against the real val files, every expectation read from them. */

const ROOT = join(SEED_BENCHMARKS, 'charxiv');
const DATA = join(ROOT, 'data');

interface Descriptive {
  figure_id: number;
  num_subplots: number;
  subplot_loc: [number, number] | string;
  qids: number[];
  answers: string[];
}
interface Reasoning {
  figure_id: number;
  query: string;
  answer: string;
  inst_category: number;
  qa_source: number;
}

const readJson = <T>(name: string) => JSON.parse(readFileSync(join(DATA, name), 'utf8')) as Record<string, T>;
const DESCRIPTIVE = readJson<Descriptive>('descriptive_val.json');
const REASONING = readJson<Reasoning>('reasoning_val.json');
const CHART_TYPES = readJson<{ chart_types: string[] }>('chart_types_val.json');

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-charxiv-'));
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function storedQa(externalId: string) {
  return db.prepare("SELECT q.query, q.label, q.answer_kind, q.benchmark_fields, c.imgname, c.benchmark_fields AS chart_fields FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE q.source = 'charxiv' AND q.external_id = ?").get(externalId) as
    | { query: string; label: string; answer_kind: string; benchmark_fields: string; imgname: string; chart_fields: string }
    | undefined;
}

/** A copy of the val files to break. */
function copyOfData(): string {
  const copy = join(dir, 'copy', 'data');
  mkdirSync(copy, { recursive: true });
  for (const name of readdirSync(DATA)) if (name.endsWith('.json')) copyFileSync(join(DATA, name), join(copy, name));
  return copy;
}

describe('CharXiv import (real val files)', () => {
  it('writes each figure’s four descriptive questions from its templates at its subplot location, and its reasoning question', () => {
    const figures = new Set([...Object.values(DESCRIPTIVE), ...Object.values(REASONING)].map((r) => r.figure_id));
    const questions = Object.values(DESCRIPTIVE).reduce((n, d) => n + d.qids.length, 0) + Object.keys(REASONING).length;
    const { format, report } = importFolder(db, ROOT);
    expect(format).toBe('charxiv');
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ split: 'charxiv-val', charts_imported: figures.size, qas_imported: questions, groups_imported: 0, images_missing: figures.size });

    const locations = new Set<string>();
    for (const record of Object.values(DESCRIPTIVE)) {
      record.qids.forEach((qid, index) => {
        const stored = storedQa(`descriptive:${record.figure_id}_${index}`);
        expect(stored?.label).toBe(record.answers[index]);
        expect(stored?.imgname).toBe(`${record.figure_id}.jpg`);
        expect(CharXivDescriptiveFieldsSchema.parse(JSON.parse(stored?.benchmark_fields ?? 'null'))).toEqual({
          benchmark: 'charxiv', kind: 'descriptive', figure_id: record.figure_id, subq_idx: index, qid, subplot_loc: record.subplot_loc, num_subplots: record.num_subplots,
        });
        const loc = record.subplot_loc;
        const prefix = qid === 18 || qid === 19 ? '' : typeof loc === 'string' ? `For ${loc}, ` : loc[0] === 0 ? 'For the current plot, ' : `For the subplot at row ${loc[0]} and column ${loc[1]}, `;
        locations.add(prefix === '' ? 'none' : typeof loc === 'string' ? 'phrase' : loc[0] === 0 ? 'current' : 'grid');
        expect(stored?.query.startsWith(prefix)).toBe(true);
        expect(stored?.query).toBe(CHARXIV_DESCRIPTIVE_TEMPLATES[qid]?.replace('{}', prefix));
      });
    }
    // The val split exercises every kind of location.
    expect([...locations].sort()).toEqual(['current', 'grid', 'none', 'phrase']);

    for (const [key, record] of Object.entries(REASONING)) {
      const stored = storedQa(`reasoning:${key}`);
      // The question as CharXiv asks it: REASONING_RESP_INST[inst_category] after it.
      const asked = stored?.query ?? '';
      expect(asked.slice(0, record.query.length)).toBe(record.query);
      const instructions = asked.slice(record.query.length + 1).split('\n');
      if (record.inst_category === 4) expect(instructions).toEqual([record.answer.includes('.') ? `* Your final answer must be a number with ${record.answer.split('.')[1]?.length} decimal places.` : '* Your final answer must be an exact integer.']);
      else expect(instructions[0]).toMatch(record.inst_category === 2 ? /^\* If there are options in the question/ : /^\* Your final answer must be grounded to (some text|a number)/);
      expect(stored?.label).toBe(record.answer);
      expect(CharXivReasoningFieldsSchema.parse(JSON.parse(stored?.benchmark_fields ?? 'null'))).toEqual({ benchmark: 'charxiv', kind: 'reasoning', figure_id: record.figure_id, inst_category: record.inst_category, qa_source: record.qa_source });
      if (record.inst_category <= 2) expect(stored?.answer_kind).toBe('free_text');
      const chart = ChartBenchmarkFieldsSchema.parse(JSON.parse(stored?.chart_fields ?? 'null'));
      expect(chart).toMatchObject({ benchmark: 'charxiv', figure_id: record.figure_id, chart_types: CHART_TYPES[String(record.figure_id)]?.chart_types ?? null });
    }
  });

  it('uses the published template text: template 1’s instructions are the ones MultiChartQA quotes from CharXiv', () => {
    const titleQuestion = readMultiChartQaSample()
      .map((r) => (r as unknown as { question: string }).question)
      .find((q) => q.includes('most relevant title'));
    if (!titleQuestion) throw new Error('the MultiChartQA sample has no title question');
    const instructions = (CHARXIV_DESCRIPTIVE_TEMPLATES[1] ?? '').split('\n').slice(1).map((line) => line.replace(/^\* /, ''));
    expect(instructions).toHaveLength(2);
    for (const line of instructions) expect(titleQuestion.toLowerCase()).toContain(line.toLowerCase());
  });

  it('reads <figure_id>.jpg under --images, is idempotent, and lists the rest as image missing', () => {
    const [first] = Object.values(DESCRIPTIVE);
    if (!first) throw new Error('empty sample');
    const images = join(dir, 'images');
    mkdirSync(images);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
    writeFileSync(join(images, `${first.figure_id}.jpg`), jpeg);
    const firstRun = importFolder(db, DATA, { format: 'charxiv', images }).report;
    expect(firstRun.images_missing).toBe(firstRun.charts_imported - 1);
    const stored = db.prepare('SELECT i.png FROM chart_images i JOIN charts c ON c.id = i.chart_id WHERE c.imgname = ?').get(`${first.figure_id}.jpg`) as { png: Buffer };
    expect(stored.png.equals(jpeg)).toBe(true);
    const again = importFolder(db, DATA, { format: 'charxiv', images }).report;
    expect(again).toMatchObject({ charts_imported: 0, charts_updated: 0, charts_skipped: firstRun.charts_imported, qas_imported: 0, errors: [] });
  });

  it('names a broken file, a record missing a field, a duplicate id and a non-image file, and imports the rest', () => {
    const copy = copyOfData();
    const entries = Object.entries(REASONING);
    const [[firstKey, firstRecord] = ['', undefined], [secondKey] = ['']] = entries;
    if (!firstRecord) throw new Error('empty sample');
    // reasoning: a record without its answer, and one id twice (JSON.parse would keep only the last).
    const { answer: _a, ...noAnswer } = firstRecord;
    const body = entries.slice(1).map(([key, record]) => `${JSON.stringify(key)}: ${JSON.stringify(record)}`);
    const secondRecord = REASONING[secondKey];
    writeFileSync(join(copy, 'reasoning_val.json'), `{\n${JSON.stringify(firstKey)}: ${JSON.stringify(noAnswer)},\n${body.join(',\n')},\n${JSON.stringify(secondKey)}: ${JSON.stringify(secondRecord)}\n}`);
    writeFileSync(join(copy, 'chart_types_val.json'), '{"0": ');
    const images = join(dir, 'images');
    mkdirSync(images);
    writeFileSync(join(images, `${firstRecord.figure_id}.jpg`), 'not an image');

    const { report } = importFolder(db, join(dir, 'copy'), { images });
    const messages = report.errors.map((e) => `${e.file}${e.line !== undefined ? `:${e.line}` : ''}: ${e.message}`);
    expect(messages).toEqual([
      `reasoning_val.json:${entries.length + 2}: record ${secondKey}: duplicate record id; none of its records is imported`,
      `reasoning_val.json: record ${firstKey}: answer: Invalid input: expected string, received undefined`,
      expect.stringMatching(/^chart_types_val\.json:1: invalid JSON/),
      `${firstRecord.figure_id}.jpg: not a PNG or JPEG image (bad signature)`,
    ]);
    expect(storedQa(`reasoning:${firstKey}`)).toBeUndefined();
    expect(storedQa(`reasoning:${secondKey}`)).toBeUndefined();
    // "{", the record without an answer, then the others from line 3; the rest are imported.
    const [thirdKey, third] = entries[2] ?? [];
    expect(storedQa(`reasoning:${thirdKey}`)?.label).toBe(third?.answer);
  });

  it('refuses by record, naming file and field, a question over 2,000 characters and an answer over 1,000; keeps questions as published', () => {
    const copy = copyOfData();
    const [[reasoningKey, reasoning] = ['', undefined], [longAnswerKey, longAnswer] = ['', undefined]] = Object.entries(REASONING);
    const [[descriptiveKey, descriptive] = ['', undefined]] = Object.entries(DESCRIPTIVE);
    if (!reasoning || !longAnswer || !descriptive) throw new Error('short sample');
    const answers = [...descriptive.answers];
    answers[2] = 'y'.repeat(1_001);
    writeFileSync(
      join(copy, 'reasoning_val.json'),
      JSON.stringify({ ...REASONING, [reasoningKey]: { ...reasoning, query: `${reasoning.query} ${'x'.repeat(2_000)}` }, [longAnswerKey]: { ...longAnswer, answer: 'z'.repeat(1_001) } }),
    );
    writeFileSync(join(copy, 'descriptive_val.json'), JSON.stringify({ ...DESCRIPTIVE, [descriptiveKey]: { ...descriptive, answers } }));

    const { report } = importFolder(db, join(dir, 'copy'));
    expect(report.errors.map((e) => `${e.file}: ${e.message}`)).toEqual([
      `descriptive_val.json: record ${descriptiveKey}: answers.2: longer than 1000 characters`,
      `reasoning_val.json: record ${reasoningKey}: query: longer than 2000 characters`,
      `reasoning_val.json: record ${longAnswerKey}: answer: longer than 1000 characters`,
    ]);
    expect(storedQa(`reasoning:${reasoningKey}`)).toBeUndefined();
    expect(storedQa(`reasoning:${longAnswerKey}`)).toBeUndefined();
    expect(storedQa(`descriptive:${descriptive.figure_id}_0`)).toBeUndefined();
    // The limit is not a trim: a published question with spaces around it is stored as it is.
    const spaced = Object.entries(REASONING).find(([, record]) => record.query !== record.query.trim());
    if (!spaced) throw new Error('the sample has no question with spaces around it');
    expect(storedQa(`reasoning:${spaced[0]}`)?.query.startsWith(`${spaced[1].query}\n* `)).toBe(true);
  });

  it('through the CLI: --format charxiv --json prints the report', async () => {
    const result = await runCli(['import', DATA, '--format', 'charxiv', '--split', 'cx', '--json'], { dbPath: join(dir, 'cli.sqlite') });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = ImportReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ split: 'cx', groups_imported: 0, errors: [] });
    expect(report.qas_imported).toBe(Object.values(DESCRIPTIVE).reduce((n, d) => n + d.qids.length, 0) + Object.keys(REASONING).length);
  });
});
