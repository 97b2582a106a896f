import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { ImportReportSchema } from '../../shared/api/import';
import { MultiChartQaFieldsSchema } from '../../shared/domain/benchmark-fields';
import { getChartSummary } from '../../server/charts/chart-queries';
import { numberOrText } from '../../shared/domain/answer-kind';
import { sha256 } from '../../server/import/chart-files';
import { importFolder } from '../../server/import/import-folder';
import { runCli } from '../support/cli';
import { markChartStale } from '../support/factories';
import { MULTICHARTQA_DATA, MULTICHARTQA_QA_FILE_NAME } from '../support/multichartqa-sample';
import { SEED_BENCHMARKS } from '../support/paths';

/** The MultiChartQA importer against the real sample (`data/<group>/`), every expectation read from its files. */

const ROOT = join(SEED_BENCHMARKS, 'multichartqa');

interface PublishedRecord {
  id: string;
  image: string[];
  question: string;
  answer: string;
  task?: string;
  type: 'open-ended' | 'multiple-choice';
  context: unknown;
}

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-mcqa-'));
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const groupsOf = (data: string) => readdirSync(data).filter((name) => readdirSync(join(data, name)).includes(MULTICHARTQA_QA_FILE_NAME)).sort();
const recordsOf = (data: string, group: string) => JSON.parse(readFileSync(join(data, group, MULTICHARTQA_QA_FILE_NAME), 'utf8')) as PublishedRecord[];
/** What the published path names: the last part of a Windows or POSIX path. */
const fileOf = (path: string) => path.split(/[\\/]/).pop() ?? '';
const chartsOfGroup = (records: PublishedRecord[]) => [...new Set(records.flatMap((r) => r.image.map(fileOf)))];

function storedQa(externalId: string) {
  return db.prepare("SELECT q.query, q.label, q.answer_kind, q.group_id, q.benchmark_fields, c.imgname FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE q.source = 'multichartqa' AND q.external_id = ?").get(externalId) as
    | { query: string; label: string; answer_kind: string; group_id: number; benchmark_fields: string; imgname: string }
    | undefined;
}

const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('MultiChartQA import (real sample)', () => {
  it('imports every group as a chart group with its charts in order and every question exactly', () => {
    const groups = groupsOf(MULTICHARTQA_DATA);
    const records = groups.flatMap((g) => recordsOf(MULTICHARTQA_DATA, g));
    const chartCount = groups.reduce((n, g) => n + chartsOfGroup(recordsOf(MULTICHARTQA_DATA, g)).length, 0);
    expect(groups.length).toBeGreaterThan(0);

    const { format, report } = importFolder(db, ROOT);
    expect(format).toBe('multichartqa');
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ split: 'multichartqa', charts_imported: chartCount, qas_imported: records.length, groups_imported: groups.length, images_missing: 0 });

    for (const group of groups) {
      const published = recordsOf(MULTICHARTQA_DATA, group);
      const members = db
        .prepare('SELECT c.imgname, m.position, i.sha256 FROM chart_groups g JOIN chart_group_members m ON m.group_id = g.id JOIN charts c ON c.id = m.chart_id LEFT JOIN chart_images i ON i.chart_id = c.id WHERE g.group_key = ? ORDER BY m.position')
        .all(group) as { imgname: string; position: number; sha256: string | null }[];
      // The Windows paths resolve to the PNGs in the group folder, stored byte for byte.
      expect(members).toEqual(chartsOfGroup(published).map((file, i) => ({ imgname: `${group}/${file}`, position: i + 1, sha256: sha256(readFileSync(join(MULTICHARTQA_DATA, group, file))) })));
      for (const record of published) {
        const stored = storedQa(record.id);
        expect(stored?.query).toBe(record.question);
        expect(stored?.label).toBe(record.answer);
        expect(stored?.imgname).toBe(`${group}/${fileOf(record.image[0] ?? '')}`);
        const fields = MultiChartQaFieldsSchema.parse(JSON.parse(stored?.benchmark_fields ?? 'null'));
        expect(fields).toMatchObject({ id: record.id, image: record.image, task: record.task ?? null, type: record.type, context: record.context });
        expect(fields.image_prefix).toBe(record.question.startsWith('The first chart is <image>.'));
        const kind = record.answer.includes('; ') ? 'multi_part' : record.type === 'multiple-choice' ? 'multiple_choice' : numberOrText(record.answer);
        expect(stored?.answer_kind).toBe(kind);
      }
    }
    // The sample holds both answer shapes the importer tells apart.
    expect(records.some((r) => r.answer.includes('; '))).toBe(true);
    expect(records.some((r) => r.type === 'multiple-choice' && !r.answer.includes('; '))).toBe(true);
  });

  it('is idempotent: a re-import changes nothing and reports every chart unchanged', () => {
    const first = importFolder(db, ROOT).report;
    const before = { charts: count('charts'), qas: count('factual_qas'), groups: count('chart_groups'), members: count('chart_group_members'), updated: db.prepare('SELECT id, updated_at FROM charts ORDER BY id').all() };
    const again = importFolder(db, join(ROOT, 'data'), { format: 'multichartqa' }).report;
    expect(again).toMatchObject({ charts_imported: 0, charts_updated: 0, charts_skipped: first.charts_imported, qas_imported: 0, groups_imported: 0, errors: [] });
    expect({ charts: count('charts'), qas: count('factual_qas'), groups: count('chart_groups'), members: count('chart_group_members'), updated: db.prepare('SELECT id, updated_at FROM charts ORDER BY id').all() }).toEqual(before);
  });

  it('a re-import of changed files keeps a type a table extraction named, and resets one the table only guessed', () => {
    importFolder(db, ROOT);
    const [extracted, guessed] = db.prepare("SELECT id, chart_type, type_source FROM charts ORDER BY id LIMIT 2").all() as { id: number; chart_type: string; type_source: string }[];
    expect(guessed?.type_source).toBe('inferred');
    markChartStale(db, extracted?.id ?? 0, { chartType: 'line', typeSource: 'extracted' });
    markChartStale(db, guessed?.id ?? 0, { chartType: 'pie' });
    const again = importFolder(db, ROOT).report;
    expect(again.charts_updated).toBe(2);
    expect(getChartSummary(db, extracted?.id ?? 0)).toMatchObject({ chart_type: 'line', type_source: 'extracted' });
    expect(getChartSummary(db, guessed?.id ?? 0)).toMatchObject({ chart_type: guessed?.chart_type, type_source: 'inferred' });
  });

  it('reads the later schema too: no image prefix, renamed task labels, POSIX paths, groups without a task', () => {
    const [group] = groupsOf(MULTICHARTQA_DATA);
    if (!group) throw new Error('no group in the sample');
    const data = join(dir, 'later', 'data');
    cpSync(join(MULTICHARTQA_DATA, group), join(data, group), { recursive: true });
    const published = recordsOf(MULTICHARTQA_DATA, group);
    const later = published.map((r, i) => ({ ...r, question: r.question.replace(/^The first chart is <image>\. The second chart is <image>\. /, ''), task: i % 2 === 0 ? 'Comparative_Reasoning/Structure' : 'Sequential_Reasoning/Content' }));
    writeFileSync(join(data, group, MULTICHARTQA_QA_FILE_NAME), JSON.stringify(later));
    // A newer "added_" group: POSIX paths, no task field.
    const added = join(data, 'added_IEA_1');
    mkdirSync(added);
    const files = chartsOfGroup(published);
    files.forEach((file, i) => cpSync(join(MULTICHARTQA_DATA, group, file), join(added, `${i + 1}.png`)));
    const { task: _task, ...withoutTask } = { ...published[0], id: 'added_IEA_1_question_0', image: files.map((_, i) => `data/added_IEA_1/${i + 1}.png`) } as PublishedRecord;
    writeFileSync(join(added, MULTICHARTQA_QA_FILE_NAME), JSON.stringify([withoutTask]));

    const { report } = importFolder(db, join(dir, 'later'));
    expect(report.errors).toEqual([]);
    expect(report.groups_imported).toBe(2);
    for (const record of later) {
      const stored = storedQa(record.id);
      expect(stored?.query).toBe(record.question);
      expect(MultiChartQaFieldsSchema.parse(JSON.parse(stored?.benchmark_fields ?? 'null'))).toMatchObject({ task: record.task, image_prefix: false });
    }
    const newer = storedQa('added_IEA_1_question_0');
    expect(newer?.imgname).toBe('added_IEA_1/1.png');
    expect(MultiChartQaFieldsSchema.parse(JSON.parse(newer?.benchmark_fields ?? 'null')).task).toBeNull();
  });

  it('names every bad file and record, imports the rest, and lists a chart whose PNG is missing as image missing', () => {
    const groups = groupsOf(MULTICHARTQA_DATA);
    const [broken, partial, noImage] = groups;
    if (!broken || !partial || !noImage) throw new Error('the sample needs three groups');
    const data = join(dir, 'hostile', 'data');
    for (const group of groups) cpSync(join(MULTICHARTQA_DATA, group), join(data, group), { recursive: true });
    writeFileSync(join(data, broken, MULTICHARTQA_QA_FILE_NAME), '[\n  {"id": "x",\n  "image": [}\n]');
    const partialRecords = recordsOf(MULTICHARTQA_DATA, partial);
    const [first, second, ...rest] = partialRecords;
    if (!first || !second) throw new Error('a group of the sample has fewer than two questions');
    const { answer: _answer, ...noAnswer } = first;
    const duplicate = { ...second, id: recordsOf(MULTICHARTQA_DATA, noImage)[0]?.id ?? 'dup' };
    writeFileSync(join(data, partial, MULTICHARTQA_QA_FILE_NAME), JSON.stringify([noAnswer, duplicate, ...rest]));
    const missingFile = chartsOfGroup(recordsOf(MULTICHARTQA_DATA, noImage))[0] ?? '';
    rmSync(join(data, noImage, missingFile));

    const { report } = importFolder(db, join(dir, 'hostile'));
    const messages = report.errors.map((e) => `${e.file}${e.line !== undefined ? `:${e.line}` : ''}: ${e.message}`);
    const qaFile = (group: string) => `${group}/${MULTICHARTQA_QA_FILE_NAME}`;
    // Groups are read in name order: the id's second use is in the later group, naming the first.
    expect(messages).toEqual([
      expect.stringMatching(new RegExp(`^${qaFile(broken)}:3: invalid JSON`)),
      `${qaFile(partial)}: record ${first.id}: answer: Invalid input: expected string, received undefined`,
      `${qaFile(noImage)}: record ${duplicate.id}: duplicate record id (first in ${qaFile(partial)}); skipped`,
    ]);
    expect(report.errors).toHaveLength(3);
    expect(storedQa(second.id)).toBeUndefined();
    expect(storedQa(duplicate.id)?.query).toBe(second.question);
    for (const record of rest) expect(storedQa(record.id)?.label).toBe(record.answer);
    expect(report.images_missing).toBe(1);
    const chart = db.prepare('SELECT id FROM charts WHERE imgname = ?').get(`${noImage}/${missingFile}`) as { id: number };
    expect(getChartSummary(db, chart.id)).toMatchObject({ image_missing: true, has_image: false, table_source: null, table_confirmed: false });
  });

  it('refuses by record, naming file and field, a question over 2,000 characters, an answer over 1,000 and a bidi control in an image path', () => {
    const groups = groupsOf(MULTICHARTQA_DATA);
    const data = join(dir, 'long', 'data');
    for (const group of groups) cpSync(join(MULTICHARTQA_DATA, group), join(data, group), { recursive: true });
    const group = groups.find((name) => recordsOf(MULTICHARTQA_DATA, name).length >= 4);
    if (!group) throw new Error('the sample needs a group of four questions');
    const [longQuestion, longAnswer, badPath, ...rest] = recordsOf(MULTICHARTQA_DATA, group);
    if (!longQuestion || !longAnswer || !badPath) throw new Error('short group');
    writeFileSync(
      join(data, group, MULTICHARTQA_QA_FILE_NAME),
      JSON.stringify([
        { ...longQuestion, question: `${longQuestion.question} ${'x'.repeat(2_000)}` },
        { ...longAnswer, answer: 'y'.repeat(1_001) },
        { ...badPath, image: badPath.image.map((path, index) => (index === 0 ? `\u2066${path}` : path)) },
        ...rest,
      ]),
    );

    const { report } = importFolder(db, join(dir, 'long'));
    const file = `${group}/${MULTICHARTQA_QA_FILE_NAME}`;
    expect(report.errors.map((e) => `${e.file}: ${e.message}`)).toEqual([
      `${file}: record ${longQuestion.id}: question: longer than 2000 characters`,
      `${file}: record ${longAnswer.id}: answer: longer than 1000 characters`,
      `${file}: record ${badPath.id}: image.0: may not hold NUL or bidirectional control characters (U+202A–U+202E, U+2066–U+2069)`,
    ]);
    for (const record of [longQuestion, longAnswer, badPath]) expect(storedQa(record.id)).toBeUndefined();
    for (const record of rest) expect(storedQa(record.id)?.query).toBe(record.question);
  });

  it('through the CLI: --json prints the report with groups_imported; an undetectable folder is refused naming what was looked for', async () => {
    const dbPath = join(dir, 'cli.sqlite');
    const result = await runCli(['import', ROOT, '--json'], { dbPath });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = ImportReportSchema.parse(JSON.parse(result.stdout));
    expect(report.groups_imported).toBe(groupsOf(MULTICHARTQA_DATA).length);

    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const refused = await runCli(['import', empty], { dbPath });
    expect(refused.status).not.toBe(0);
    for (const sign of ['tables/', 'chart-path_and_question-answer_pair.json', '*.jsonl', 'descriptive_<split>.json', '--format']) expect(refused.stderr).toContain(sign);
  });
});
