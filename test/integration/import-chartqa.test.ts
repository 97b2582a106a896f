import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { ImportReportSchema } from '../../shared/api/import';
import { DataTableSchema } from '../../shared/table/model';
import { importSplit } from '../../server/import/import-split';
import { setChartType } from '../../server/charts/chart-queries';
import { runCli } from '../support/cli';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE } from '../support/paths';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-import-'));
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** CSV line text rebuilt from stored raw cells, quoting as the source does. */
function csvLine(cells: string[]): string {
  return cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
}

function storedCharts(split: string) {
  return (db.prepare('SELECT id, imgname, data_table, chart_type, type_source FROM charts WHERE split = ?').all(split) as {
    id: number;
    imgname: string;
    data_table: string;
    chart_type: string;
    type_source: string;
  }[]).map((row) => ({ ...row, table: DataTableSchema.parse(JSON.parse(row.data_table)) }));
}

interface QaFileEntry {
  imgname: string;
  query: string;
  label: string;
}

describe('importing the real ChartQA sample (test split)', () => {
  it('imports every chart, every cell and every question exactly', () => {
    const report = importSplit(db, CHARTQA_SAMPLE);
    expect(report.errors).toEqual([]);
    expect(report.split).toBe('test');
    const tables = readdirSync(join(CHARTQA_SAMPLE, 'tables'));
    expect(report.charts_imported).toBe(tables.length);

    const charts = storedCharts('test');
    expect(charts).toHaveLength(30);
    for (const chart of charts) {
      const stem = chart.imgname.replace(/\.png$/, '');
      const lines = readFileSync(join(CHARTQA_SAMPLE, 'tables', `${stem}.csv`), 'utf8').split('\r\n').filter((l) => l !== '');
      expect(lines.length - 1, stem).toBe(chart.table.rows.length);
      expect(csvLine([chart.table.label_header, ...chart.table.series])).toBe(lines[0]);
      chart.table.rows.forEach((row, i) => expect(csvLine([row.label, ...row.raw]), `${stem} row ${i}`).toBe(lines[i + 1]));
      expect(chart.type_source).toBe('inferred');
    }

    const human = JSON.parse(readFileSync(join(CHARTQA_SAMPLE, 'test_human.json'), 'utf8')) as QaFileEntry[];
    const augmented = JSON.parse(readFileSync(join(CHARTQA_SAMPLE, 'test_augmented.json'), 'utf8')) as QaFileEntry[];
    expect(report.qas_imported).toBe(human.length + augmented.length);
    const find = db.prepare(
      'SELECT COUNT(*) AS n FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.imgname = ? AND q.query = ? AND q.label = ? AND q.source = ?',
    );
    for (const [entries, source] of [[human, 'human'], [augmented, 'augmented']] as const) {
      for (const qa of entries) expect((find.get(qa.imgname, qa.query, qa.label, source) as { n: number }).n, qa.query).toBe(1);
    }
  });

  it('reads nan and - as missing values and keeps numbers with their precision', () => {
    importSplit(db, CHARTQA_SAMPLE);
    const byName = new Map(storedCharts('test').map((c) => [c.imgname, c.table]));
    const pew = byName.get('3398.png');
    expect(pew?.rows[0]?.raw[0]).toBe('nan');
    expect(pew?.rows[0]?.values[0]).toBeNull();
    expect(pew?.rows[0]?.raw[2]).toBe('9.0');
    const statista = byName.get('multi_col_20086.png');
    expect(statista?.rows[1]?.raw[6]).toBe('-');
    expect(statista?.rows[1]?.values[6]).toBeNull();
    expect(statista?.rows[0]?.values[0]).toBe(32.7);
    const oecd = byName.get('OECD_GROSS_DIRECT_INSURANCE_PREMIUMS_AUS_CHL_ISR_PRT_URY_000090.png');
    expect(oecd?.rows[0]?.raw[0]).toBe('1.655581');
    expect(oecd?.rows[0]?.values[0]).toBe(1.655581);
  });

  it('re-importing the same split adds nothing', () => {
    importSplit(db, CHARTQA_SAMPLE);
    const again = importSplit(db, CHARTQA_SAMPLE);
    expect(again).toMatchObject({ charts_imported: 0, charts_updated: 0, charts_skipped: 30, qas_imported: 0, errors: [] });
    expect((db.prepare('SELECT COUNT(*) AS n FROM factual_qas').get() as { n: number }).n).toBe(83);
  });

  it('a changed table updates its chart and keeps a curator’s type', () => {
    const split = join(dir, 'split');
    cpSync(CHARTQA_SAMPLE, split, { recursive: true });
    importSplit(db, split, { split: 'test' });
    const chart = storedCharts('test').find((c) => c.imgname === 'two_col_158.png');
    if (!chart) throw new Error('two_col_158 not imported');
    setChartType(db, chart.id, 'pie', 'curator');
    const file = join(split, 'tables', 'two_col_158.csv');
    writeFileSync(file, readFileSync(file, 'utf8').replace('27.23', '28.00'));
    const report = importSplit(db, split, { split: 'test' });
    expect(report).toMatchObject({ charts_imported: 0, charts_updated: 1, charts_skipped: 29 });
    const updated = storedCharts('test').find((c) => c.imgname === 'two_col_158.png');
    expect(updated?.table.rows[0]?.raw[0]).toBe('28.00');
    expect(updated?.chart_type).toBe('pie');
    expect(updated?.type_source).toBe('curator');
  });
});

describe('importing the real ChartQA extra charts (train split, PNGs)', () => {
  it('stores every PNG byte for byte with its table and question', () => {
    const report = importSplit(db, CHARTQA_EXTRA);
    expect(report).toMatchObject({ split: 'train', charts_imported: 20, qas_imported: 20, errors: [] });
    const images = db.prepare('SELECT c.imgname, i.png FROM chart_images i JOIN charts c ON c.id = i.chart_id').all() as {
      imgname: string;
      png: Buffer;
    }[];
    expect(images).toHaveLength(20);
    for (const image of images) expect(image.png.equals(readFileSync(join(CHARTQA_EXTRA, 'png', image.imgname)))).toBe(true);
    const withDash = storedCharts('train').find((c) => c.imgname === 'multi_col_101207.png');
    expect(withDash?.table.rows.some((r) => r.raw.includes('-') && r.values.includes(null))).toBe(true);
  });
});

describe('chart types', () => {
  it('takes the type from annotations/*.json when present', () => {
    const split = join(dir, 'annotated');
    mkdirSync(join(split, 'tables'), { recursive: true });
    mkdirSync(join(split, 'annotations'));
    writeFileSync(join(split, 'tables', 'a.csv'), 'Country,Share\r\nX,10\r\nY,20\r\n');
    writeFileSync(join(split, 'tables', 'b.csv'), 'Country,Share\r\nX,10\r\nY,20\r\n');
    writeFileSync(join(split, 'annotations', 'a.json'), JSON.stringify({ type: 'h_bar', general_figure_info: { title: { text: 'Shares' } }, models: [] }));
    const report = importSplit(db, split, { split: 'x' });
    expect(report.errors).toEqual([]);
    const charts = storedCharts('x');
    expect(charts.find((c) => c.imgname === 'a.png')).toMatchObject({ chart_type: 'horizontal_bar', type_source: 'annotation' });
    expect(charts.find((c) => c.imgname === 'b.png')).toMatchObject({ chart_type: 'vertical_bar', type_source: 'inferred' });
  });
});

describe('bad input', () => {
  function badSplit(): string {
    const split = join(dir, 'bad');
    mkdirSync(join(split, 'tables'), { recursive: true });
    mkdirSync(join(split, 'png'));
    writeFileSync(join(split, 'tables', 'good.csv'), 'Year,Value\r\n2019,1.5\r\n2020,nan\r\n');
    writeFileSync(join(split, 'tables', 'ragged.csv'), 'Year,Value\r\n2019,1.5\r\n2020,2,3\r\n');
    writeFileSync(join(split, 'tables', 'quote.csv'), 'Year,Value\r\n"2019,1.5\r\n');
    writeFileSync(join(split, 'tables', 'empty.csv'), '');
    writeFileSync(join(split, 'tables', 'repeated-year.csv'), 'Year,Value\r\n2019,1\r\n2020,2\r\n2019,3\r\n');
    writeFileSync(join(split, 'tables', 'repeated-series.csv'), 'Country,Men,Men\r\nA,1,2\r\n');
    writeFileSync(join(split, 'tables', 'huge.csv'), Buffer.alloc(50 * 1024 * 1024, 'a'));
    writeFileSync(join(split, 'png', 'fake.png'), 'not a png');
    writeFileSync(join(split, 'tables', 'fake.csv'), 'Year,Value\r\n2019,1\r\n');
    writeFileSync(
      join(split, 'bad_human.json'),
      JSON.stringify([
        { imgname: 'good.png', query: 'What is the value in 2019?', label: '1.5' },
        { imgname: 'nowhere.png', query: 'Q?', label: '1' },
        { imgname: '../../etc/passwd.png', query: 'Q?', label: '1' },
        { imgname: '/etc/abs.png', query: 'Q?', label: '1' },
        { imgname: 'good.png', query: '' },
        { imgname: 'good.png', query: `What is the value in 2019?${' Really?'.repeat(1000)}`, label: '1.5' },
        { imgname: 'go\u202Eod.png', query: 'Q?', label: '1' },
        { imgname: 'repeated-year.png', query: 'What is the value in 2019?', label: '1' },
      ]),
    );
    writeFileSync(join(split, 'bad_augmented.json'), '[\n  {"imgname": "good.png",\n  "query": oops}\n]');
    return split;
  }

  it('names the file (and line) of each problem and still imports the good files', () => {
    const report = importSplit(db, badSplit());
    const byFile = (file: string) => report.errors.filter((e) => e.file === file);
    expect(byFile('tables/ragged.csv')[0]).toMatchObject({ line: 3 });
    expect(byFile('tables/quote.csv')[0]?.message).toMatch(/malformed CSV/);
    expect(byFile('tables/empty.csv')[0]?.message).toMatch(/empty/);
    expect(byFile('tables/repeated-year.csv')).toEqual([
      { file: 'tables/repeated-year.csv', line: 4, message: 'row label "2019" repeats the row on line 2; row labels must differ (its 1 question(s) were not imported)' },
    ]);
    expect(byFile('tables/repeated-series.csv')).toEqual([{ file: 'tables/repeated-series.csv', line: 1, message: 'series "Men" names columns 2 and 3 of the header; series names must differ' }]);
    expect(byFile('tables/huge.csv')[0]?.message).toMatch(/50\.0 MB/);
    expect(byFile('png/fake.png')[0]?.message).toMatch(/not a PNG/);
    expect(byFile('bad_augmented.json')[0]).toMatchObject({ line: 3 });
    const human = byFile('bad_human.json').map((e) => e.message);
    expect(human.some((m) => /unknown chart "nowhere.png"/.test(m))).toBe(true);
    expect(human.some((m) => /"\.\.\/\.\.\/etc\/passwd\.png" is not a plain file name/.test(m))).toBe(true);
    expect(human.some((m) => /"\/etc\/abs\.png" is not a plain file name/.test(m))).toBe(true);
    expect(human.some((m) => /entry 4: query/.test(m))).toBe(true);
    expect(human).toContain('entry 5: query: longer than 2000 characters');
    expect(human.some((m) => /^entry 6: imgname: may not hold NUL or bidirectional control characters/.test(m))).toBe(true);
    // good.csv and fake.csv (whose bad PNG is only reported) import; the rest do not.
    expect(report.charts_imported).toBe(2);
    expect(report.qas_imported).toBe(1);
    expect((db.prepare("SELECT COUNT(*) AS n FROM chart_images").get() as { n: number }).n).toBe(0);
  });

  it('writes each chart in one transaction: a failure inside leaves nothing half-written', () => {
    const split = join(dir, 'atomic');
    mkdirSync(join(split, 'tables'), { recursive: true });
    writeFileSync(join(split, 'tables', 'a.csv'), 'Year,Value\r\n2019,1\r\n');
    writeFileSync(join(split, 'tables', 'b.csv'), 'Year,Value\r\n2019,2\r\n');
    writeFileSync(join(split, 'atomic_human.json'), JSON.stringify([
      { imgname: 'a.png', query: 'boom', label: '1' },
      { imgname: 'b.png', query: 'fine', label: '2' },
    ]));
    db.exec(`CREATE TRIGGER fail_qa BEFORE INSERT ON factual_qas WHEN NEW.query = 'boom' BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`);
    const report = importSplit(db, split);
    expect(report.errors[0]).toMatchObject({ file: 'tables/a.csv' });
    expect(report.errors[0]?.message).toMatch(/simulated failure/);
    expect(storedCharts('atomic').map((c) => c.imgname)).toEqual(['b.png']);
  });
});

describe('hqa import (CLI)', () => {
  it('prints only the JSON report with --json', async () => {
    const dbPath = join(dir, 'cli.sqlite');
    const result = await runCli(['import', CHARTQA_SAMPLE, '--json'], { dbPath });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = ImportReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ charts_imported: 30, charts_skipped: 0, qas_imported: 83, errors: [] });
    const again = ImportReportSchema.parse(JSON.parse((await runCli(['import', CHARTQA_SAMPLE, '--json', '--split', 'test'], { dbPath })).stdout));
    expect(again).toMatchObject({ charts_imported: 0, charts_skipped: 30, qas_imported: 0 });
  });

  it('prints a summary line without --json and fails clearly on a missing folder', async () => {
    const dbPath = join(dir, 'cli.sqlite');
    const ok = await runCli(['import', CHARTQA_EXTRA], { dbPath });
    expect(ok.stdout).toMatch(/split train: 20 charts imported, 0 updated, 0 unchanged, 20 questions imported, 0 errors/);
    const missing = await runCli(['import', join(dir, 'nope')], { dbPath });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/nope: not a folder/);
  });
});
