import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportReportSchema, type ImportReport } from '../../shared/api/import';
import { DataTableSchema } from '../../shared/table/model';
import { runCli } from '../support/cli';
import { CHARTQA_EXTRA } from '../support/paths';

// Real ChartQA files in a temp dir, altered there (links, encodings); imported through the real CLI.
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-contain-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function importJson(splitDir: string, dbPath: string): Promise<{ status: number; report: ImportReport }> {
  const result = await runCli(['import', splitDir, '--json'], { dbPath });
  expect(result.stderr).toBe('');
  return { status: result.status, report: ImportReportSchema.parse(JSON.parse(result.stdout)) };
}

function storedCharts(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT c.imgname, c.data_table, c.type_source, i.chart_id AS has_image FROM charts c LEFT JOIN chart_images i ON i.chart_id = c.id')
      .all() as { imgname: string; data_table: string; type_source: string; has_image: number | null }[];
    return new Map(rows.map((row) => [row.imgname, { ...row, table: DataTableSchema.parse(JSON.parse(row.data_table)) }]));
  } finally {
    db.close();
  }
}

const latin1 = (text: string) => Buffer.from(text, 'latin1');
/** Each test runs the CLI: more than the default 30 s on a loaded machine. */
const CLI_TEST_MS = 90_000;

describe('hqa import reads only files inside the split folder, only as UTF-8', () => {
  it('refuses links out of the split and non-UTF-8 files by name, reads links that stay inside and BOMs, imports the rest', async () => {
    const split = join(dir, 'split');
    const outside = join(dir, 'outside');
    cpSync(CHARTQA_EXTRA, split, { recursive: true });
    mkdirSync(outside);
    mkdirSync(join(split, 'annotations'));
    mkdirSync(join(split, 'kept'));
    const tables = join(split, 'tables');

    // The case: a table that is a link to a file outside the split.
    writeFileSync(join(outside, 'secret.csv'), 'Characteristic,Secret\r\nTOP-SECRET-ROW,42\r\n');
    rmSync(join(tables, 'two_col_417.csv'));
    symlinkSync('../../outside/secret.csv', join(tables, 'two_col_417.csv'));
    // An image and an annotation linked out: refused, the chart still imports (rendered, type inferred).
    renameSync(join(split, 'png', 'two_col_1739.png'), join(outside, 'two_col_1739.png'));
    symlinkSync('../../outside/two_col_1739.png', join(split, 'png', 'two_col_1739.png'));
    writeFileSync(join(outside, 'ann.json'), JSON.stringify({ type: 'pie' }));
    symlinkSync('../../outside/ann.json', join(split, 'annotations', 'two_col_3119.json'));
    // A link that stays inside the split is an ordinary file.
    renameSync(join(tables, 'two_col_1124.csv'), join(split, 'kept', 'two_col_1124.csv'));
    symlinkSync('../kept/two_col_1124.csv', join(tables, 'two_col_1124.csv'));
    // Latin-1: "España" is E s p a 0xF1 a; today it imports as "Espa\uFFFDa".
    const spain = readFileSync(join(tables, 'two_col_81623.csv'), 'utf8').replace('Spain', 'España');
    writeFileSync(join(tables, 'two_col_81623.csv'), latin1(spain));
    const badOffset = latin1(spain).indexOf(0xf1);
    // A UTF-8 BOM on a table and on the question file is fine.
    const bomTable = readFileSync(join(tables, 'two_col_41271.csv'));
    writeFileSync(join(tables, 'two_col_41271.csv'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bomTable]));
    const questions = readFileSync(join(split, 'train_augmented.json'));
    writeFileSync(join(split, 'train_augmented.json'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), questions]));
    // The split named through a link of its own: the folder is compared by its realpath.
    symlinkSync(split, join(dir, 'split-link'));

    const dbPath = join(dir, 'hqa.sqlite');
    const { status, report } = await importJson(join(dir, 'split-link'), dbPath);
    expect(status).toBe(2);
    const errorOf = (file: string) => report.errors.filter((e) => e.file === file);
    expect(errorOf('tables/two_col_417.csv')).toHaveLength(1);
    expect(errorOf('tables/two_col_417.csv')[0]?.message).toMatch(/^leads outside the split folder through a symbolic link.*\(its 1 question\(s\) were not imported\)$/);
    expect(errorOf('png/two_col_1739.png')[0]?.message).toMatch(/outside the split folder/);
    expect(errorOf('annotations/two_col_3119.json')[0]?.message).toMatch(/outside the split folder/);
    expect(errorOf('tables/two_col_81623.csv')[0]).toMatchObject({
      line: 9,
      message: expect.stringMatching(new RegExp(`^not valid UTF-8: byte 0xF1 at byte offset ${badOffset}; save the file as UTF-8`)),
    });
    expect(report.errors).toHaveLength(4);
    expect(report).toMatchObject({ charts_imported: 18, qas_imported: 18 });

    const charts = storedCharts(dbPath);
    expect(charts.has('two_col_417.png')).toBe(false);
    expect(readFileSync(dbPath).includes('TOP-SECRET-ROW')).toBe(false);
    expect(charts.has('two_col_81623.png')).toBe(false);
    expect(charts.get('two_col_1739.png')?.has_image).toBeNull();
    expect(charts.get('two_col_3119.png')?.type_source).toBe('inferred');
    expect(charts.get('two_col_1124.png')?.table.rows.length).toBeGreaterThan(0);
    expect(charts.get('two_col_41271.png')?.table.label_header).toBe('Characteristic');
    expect(charts.get('multi_col_101207.png')?.has_image).not.toBeNull();
  }, CLI_TEST_MS);

  it('refuses a whole folder linked out of the split, a question file linked out, and a Latin-1 question file', async () => {
    const split = join(dir, 's2');
    const outside = join(dir, 'outside');
    mkdirSync(join(split, 'tables'), { recursive: true });
    mkdirSync(join(outside, 'png'), { recursive: true });
    cpSync(join(CHARTQA_EXTRA, 'tables', 'two_col_81623.csv'), join(split, 'tables', 'two_col_81623.csv'));
    cpSync(join(CHARTQA_EXTRA, 'png', 'two_col_81623.png'), join(outside, 'png', 'two_col_81623.png'));
    symlinkSync('../outside/png', join(split, 'png'));
    writeFileSync(join(outside, 's2_human.json'), JSON.stringify([{ imgname: 'two_col_81623.png', query: 'Which country is last?', label: 'Italy' }]));
    symlinkSync('../outside/s2_human.json', join(split, 's2_human.json'));
    const augmented = JSON.stringify([{ imgname: 'two_col_81623.png', query: 'How many admissions in España?', label: '189.15' }]);
    writeFileSync(join(split, 's2_augmented.json'), latin1(augmented));

    const { report } = await importJson(split, join(dir, 'hqa.sqlite'));
    expect(report.errors.find((e) => e.file === 'png/two_col_81623.png')?.message).toMatch(/outside the split folder/);
    expect(report.errors.find((e) => e.file === 's2_human.json')?.message).toMatch(/outside the split folder/);
    expect(report.errors.find((e) => e.file === 's2_augmented.json')).toMatchObject({
      line: 1,
      message: expect.stringContaining(`byte 0xF1 at byte offset ${latin1(augmented).indexOf(0xf1)}`),
    });
    expect(report).toMatchObject({ charts_imported: 1, qas_imported: 0 });
  }, CLI_TEST_MS);
});
