import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { ChartBenchFieldsSchema, ChartBenchmarkFieldsSchema } from '../../shared/domain/benchmark-fields';
import { getChartSummary } from '../../server/charts/chart-queries';
import { importFolder } from '../../server/import/import-folder';
import { CHARTBENCH_SAMPLE } from '../support/chartbench-sample';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';

/** The ChartBench importer against the real sample (600 records of test_mini.jsonl), every expectation read from the file. */

interface PublishedRecord {
  id: number;
  image: string;
  type: { chart: string; image: string; task: string; QA: string };
  conversation: { label: string; query: string }[];
}

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-chartbench-'));
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const SAMPLE_LINES = readFileSync(CHARTBENCH_SAMPLE, 'utf8').split('\n');
const RECORDS = SAMPLE_LINES.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as PublishedRecord);
const imageRef = (record: PublishedRecord) => record.image.replace(/^\.\//, '');

/** A folder holding only the sample's jsonl (the real folder also has QA_reference.json and a README). */
function sampleFolder(lines = SAMPLE_LINES): string {
  const folder = join(dir, `bench-${Math.random().toString(36).slice(2)}`);
  mkdirSync(folder);
  writeFileSync(join(folder, 'test_mini.jsonl'), lines.join('\n'));
  return folder;
}

function storedQa(id: number) {
  return db.prepare("SELECT q.query, q.label, q.answer_kind, q.benchmark_fields, c.imgname, c.chart_type, c.benchmark_fields AS chart_fields FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE q.source = 'chartbench' AND q.external_id = ?").get(String(id)) as
    | { query: string; label: string; answer_kind: string; benchmark_fields: string; imgname: string; chart_type: string; chart_fields: string }
    | undefined;
}

describe('ChartBench import (real sample)', () => {
  it('keeps each judgement pair as one record with both assertions and labels, NQA as a number question, one chart per image', () => {
    const images = new Set(RECORDS.map(imageRef));
    const { format, report } = importFolder(db, dirname(CHARTBENCH_SAMPLE));
    expect(format).toBe('chartbench');
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ split: 'chartbench', charts_imported: images.size, qas_imported: RECORDS.length, groups_imported: 0, images_missing: images.size });

    const pairs = RECORDS.filter((r) => r.type.QA === 'Acc+');
    const numeric = RECORDS.filter((r) => r.type.QA === 'GPT-acc');
    expect(pairs.length).toBeGreaterThan(0);
    expect(numeric.length).toBeGreaterThan(0);
    for (const record of RECORDS) {
      const stored = storedQa(record.id);
      const [first] = record.conversation;
      expect(stored?.query).toBe(first?.query);
      expect(stored?.label).toBe(first?.label);
      // The sample's NQA labels are all numbers (one with a unit, "16.599M").
      expect(stored?.answer_kind).toBe(record.type.QA === 'Acc+' ? 'judgement_pair' : 'number');
      // Both entries, as published: the true assertion labelled Yes, then the false one labelled No.
      expect(ChartBenchFieldsSchema.parse(JSON.parse(stored?.benchmark_fields ?? 'null'))).toEqual({ benchmark: 'chartbench', ...record });
      expect(stored?.imgname).toBe(imageRef(record));
      expect(ChartBenchmarkFieldsSchema.parse(JSON.parse(stored?.chart_fields ?? 'null'))).toEqual({ benchmark: 'chartbench', chart: record.type.chart, image: record.type.image });
    }
    const horizontal = RECORDS.find((r) => r.type.chart === 'bar' && r.type.image === 'horizontal_single');
    if (horizontal) expect(storedQa(horizontal.id)?.chart_type).toBe('horizontal_bar');
  });

  it('imports an NQA question whose label is Yes or No as a text question, not a number', () => {
    // The sample holds no such record (the full test set does): real NQA records of the sample, their label set to Yes / No / " no ".
    const nqa = RECORDS.filter((r) => r.type.QA === 'GPT-acc' && r.type.task === 'NQA').slice(0, 4);
    expect(nqa).toHaveLength(4);
    const [yes, no, spaced, numeric] = nqa as [PublishedRecord, PublishedRecord, PublishedRecord, PublishedRecord];
    const relabel = (record: PublishedRecord, label: string) => ({ ...record, conversation: [{ ...record.conversation[0], label }] });
    const lines = [relabel(yes, 'Yes'), relabel(no, 'No'), relabel(spaced, ' no '), numeric].map((record) => JSON.stringify(record));
    const { report } = importFolder(db, sampleFolder(lines));
    expect(report.errors).toEqual([]);
    expect([yes, no, spaced, numeric].map((record) => [storedQa(record.id)?.label, storedQa(record.id)?.answer_kind])).toEqual([
      ['Yes', 'text'],
      ['No', 'text'],
      [expect.stringMatching(/^\s*no\s*$/), 'text'],
      [numeric.conversation[0]?.label, 'number'],
    ]);
  });

  it('reads each image from its record path under --images; the rest are listed as image missing', () => {
    const [firstRecord] = RECORDS;
    if (!firstRecord) throw new Error('empty sample');
    const imagesDir = join(dir, 'hub');
    const png = join(MULTICHARTQA_DATA, 'owid_0_london-air-pollution', 'air-pollution-london-vs-delhi.png');
    mkdirSync(dirname(join(imagesDir, imageRef(firstRecord))), { recursive: true });
    copyFileSync(png, join(imagesDir, imageRef(firstRecord)));
    const images = new Set(RECORDS.map(imageRef));

    const { report } = importFolder(db, sampleFolder(), { images: imagesDir });
    expect(report.images_missing).toBe(images.size - 1);
    const withImage = db.prepare('SELECT c.id, i.png FROM charts c JOIN chart_images i ON i.chart_id = c.id').all() as { id: number; png: Buffer }[];
    expect(withImage).toHaveLength(1);
    expect(withImage[0]?.png.equals(readFileSync(png))).toBe(true);
    const other = db.prepare('SELECT id FROM charts WHERE imgname <> ? LIMIT 1').get(imageRef(firstRecord)) as { id: number };
    expect(getChartSummary(db, other.id)).toMatchObject({ image_missing: true, table_source: null });
  });

  it('is idempotent, and an image added later updates only its chart', () => {
    const folder = sampleFolder();
    const first = importFolder(db, folder).report;
    const again = importFolder(db, folder).report;
    expect(again).toMatchObject({ charts_imported: 0, charts_updated: 0, charts_skipped: first.charts_imported, qas_imported: 0, errors: [] });
    const [record] = RECORDS;
    if (!record) throw new Error('empty sample');
    const imagesDir = join(dir, 'hub');
    mkdirSync(dirname(join(imagesDir, imageRef(record))), { recursive: true });
    copyFileSync(join(MULTICHARTQA_DATA, 'owid_0_london-air-pollution', 'air-pollution-london-vs-delhi.png'), join(imagesDir, imageRef(record)));
    const withImage = importFolder(db, folder, { images: imagesDir }).report;
    expect(withImage).toMatchObject({ charts_imported: 0, charts_updated: 1, charts_skipped: first.charts_imported - 1, qas_imported: 0 });
  });

  it('names every bad line and record by file, line and id, and imports the rest', () => {
    const lines = [...SAMPLE_LINES];
    // Line 1 is broken below; the pair and the NQA record are others.
    const pairIndex = RECORDS.findIndex((r, i) => i > 0 && r.type.QA === 'Acc+');
    const nqaIndex = RECORDS.findIndex((r) => r.type.QA === 'GPT-acc');
    const pair = RECORDS[pairIndex];
    const nqa = RECORDS[nqaIndex];
    if (!pair || !nqa) throw new Error('the sample needs a pair and an NQA record');
    lines[0] = '{"id": 0, "image": ';
    lines[pairIndex] = JSON.stringify({ ...pair, conversation: [...pair.conversation].reverse() });
    const { conversation: _c, ...noConversation } = nqa;
    lines[nqaIndex] = JSON.stringify(noConversation);
    const duplicateOf = RECORDS[5];
    if (!duplicateOf) throw new Error('short sample');
    lines.push(JSON.stringify(duplicateOf));

    const { report } = importFolder(db, sampleFolder(lines), { format: 'chartbench' });
    const at = (line: number) => `test_mini.jsonl:${line}`;
    const messages = report.errors.map((e) => `${e.file}:${e.line ?? '?'}: ${e.message}`);
    expect(messages).toEqual([
      expect.stringMatching(new RegExp(`^${at(1)}: invalid JSON`)),
      `${at(pairIndex + 1)}: record ${pair.id}: conversation: a judgement pair (Acc+) has two entries, the true assertion labelled Yes first, the false one No; found labels ["No","Yes"]`,
      `${at(nqaIndex + 1)}: record ${nqa.id}: conversation: Invalid input: expected array, received undefined`,
      `${at(lines.length)}: record ${duplicateOf.id}: duplicate record id (first at ${at(6)}); skipped`,
    ]);
    const bad = new Set([RECORDS[0]?.id, pair.id, nqa.id]);
    expect(report.qas_imported).toBe(RECORDS.filter((r) => !bad.has(r.id)).length);
    expect(storedQa(pair.id)).toBeUndefined();
  });

  it('refuses by record, naming file, line and field, a question over 2,000 characters, a label over 1,000 and a bidi control in an image path', () => {
    const lines = [...SAMPLE_LINES];
    const nqaIndex = RECORDS.findIndex((r) => r.type.QA === 'GPT-acc');
    const pairIndex = RECORDS.findIndex((r) => r.type.QA === 'Acc+');
    const pathIndex = RECORDS.findIndex((_, i) => i !== nqaIndex && i !== pairIndex);
    const [nqa, pair, other] = [RECORDS[nqaIndex], RECORDS[pairIndex], RECORDS[pathIndex]];
    if (!nqa || !pair || !other) throw new Error('the sample needs a pair and an NQA record');
    const [yes, no] = pair.conversation;
    const [answer] = nqa.conversation;
    if (!yes || !no || !answer) throw new Error('short conversation');
    lines[pairIndex] = JSON.stringify({ ...pair, conversation: [yes, { ...no, query: `${no.query} ${'x'.repeat(2_000)}` }] });
    lines[nqaIndex] = JSON.stringify({ ...nqa, conversation: [{ ...answer, label: '9'.repeat(1_001) }] });
    lines[pathIndex] = JSON.stringify({ ...other, image: other.image.replace('image', 'ima\u202Ege') });

    const { report } = importFolder(db, sampleFolder(lines), { format: 'chartbench' });
    const messages = report.errors.map((e) => `${e.file}:${e.line ?? '?'}: ${e.message}`).sort();
    const at = (index: number) => `test_mini.jsonl:${index + 1}`;
    expect(messages).toEqual(
      [
        `${at(pairIndex)}: record ${pair.id}: conversation.1.query: longer than 2000 characters`,
        `${at(nqaIndex)}: record ${nqa.id}: conversation.0.label: longer than 1000 characters`,
        `${at(pathIndex)}: record ${other.id}: image: may not hold NUL or bidirectional control characters (U+202A–U+202E, U+2066–U+2069)`,
      ].sort(),
    );
    for (const record of [nqa, pair, other]) expect(storedQa(record.id)).toBeUndefined();
    expect(report.qas_imported).toBe(RECORDS.length - 3);
  });
});
