import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { importFolder } from '../../server/import/import-folder';
import { getChartTable } from '../../server/tables/table-queries';
import { saveCuratorTable } from '../../server/tables/table-service';
import { DomainEvents } from '../../server/events/event-bus';

const NO_SUBSCRIBERS = (db: ConstructorParameters<typeof DomainEvents>[0]) => new DomainEvents(db, console);
import { CHARTQA_EXTRA } from '../support/paths';

/**
 * A ChartQA-layout folder whose charts have a PNG and no table: the real chartqa-extra split
 * copied at test time with its tables/ left out (the data is never committed).
 */
const SPLIT = 'extra';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-image-only-'));
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The split without tables/: png/ and the question files only. */
function withoutTables(): string {
  const folder = join(dir, 'split');
  mkdirSync(folder);
  cpSync(join(CHARTQA_EXTRA, 'png'), join(folder, 'png'), { recursive: true });
  copyFileSync(join(CHARTQA_EXTRA, 'train_augmented.json'), join(folder, 'train_augmented.json'));
  return folder;
}

interface StoredQa {
  imgname: string;
  query: string;
  label: string;
  source: string;
  answer_kind: string;
}

const questionsOf = (split: string) =>
  db
    .prepare('SELECT c.imgname, q.query, q.label, q.source, q.answer_kind FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.split = ? ORDER BY c.imgname, q.query')
    .all(split) as StoredQa[];
const chartsOf = (split: string) =>
  db.prepare('SELECT id, imgname, chart_type, type_source, table_source, table_confirmed, data_table FROM charts WHERE split = ? ORDER BY imgname').all(split) as {
    id: number;
    imgname: string;
    chart_type: string;
    type_source: string;
    table_source: string | null;
    table_confirmed: number;
    data_table: string | null;
  }[];

describe('a ChartQA-layout folder of charts with a PNG and no table', () => {
  it('imports them as image-only charts whose questions attach to them with the answer kinds a ChartQA import gives', () => {
    const { format, report } = importFolder(db, withoutTables(), { split: SPLIT });
    expect(format).toBe('chartqa');
    expect(report.errors).toEqual([]);
    expect(report.charts_imported).toBe(20);

    const charts = chartsOf(SPLIT);
    expect(charts).toHaveLength(20);
    for (const chart of charts) {
      expect(chart).toMatchObject({ chart_type: 'other', type_source: 'inferred', table_source: null, table_confirmed: 0, data_table: null });
      expect(getChartTable(db, chart.id)).toMatchObject({ data_table: null, has_image: true });
    }

    // The same questions as the split imported with its tables, on the same charts, with the same kinds.
    importFolder(db, CHARTQA_EXTRA, { split: 'with-tables' });
    const imageOnly = questionsOf(SPLIT);
    expect(imageOnly).toHaveLength(20);
    expect(imageOnly).toEqual(questionsOf('with-tables'));
    // Not every answer a number: the split has text answers ("George Brett").
    expect(new Set(imageOnly.map((qa) => qa.answer_kind)).size).toBeGreaterThan(1);
  });

  it('imports a PNG without its CSV beside charts with tables, and a re-import keeps the table a curator typed in since', () => {
    const folder = join(dir, 'mixed');
    cpSync(CHARTQA_EXTRA, folder, { recursive: true });
    unlinkSync(join(folder, 'tables', 'two_col_100746.csv'));
    const first = importFolder(db, folder, { split: SPLIT }).report;
    expect(first.errors).toEqual([]);
    expect(first.charts_imported).toBe(20);
    const charts = chartsOf(SPLIT);
    const lone = charts.find((chart) => chart.imgname === 'two_col_100746.png');
    expect(lone).toMatchObject({ table_source: null, data_table: null });
    expect(charts.filter((chart) => chart.table_source === 'imported')).toHaveLength(19);
    expect(questionsOf(SPLIT).filter((qa) => qa.imgname === 'two_col_100746.png')).toEqual([
      { imgname: 'two_col_100746.png', query: 'Who has the most hits in Kansas City Royals franchise history?', label: 'George Brett', source: 'augmented', answer_kind: 'text' },
    ]);

    saveCuratorTable(db, NO_SUBSCRIBERS(db), lone?.id ?? 0, { title: null, label_header: 'Player', series: ['Hits'], rows: [{ label: 'George Brett', cells: ['3154'] }] }, null);
    const again = importFolder(db, folder, { split: SPLIT }).report;
    expect(again).toMatchObject({ charts_imported: 0, qas_imported: 0, errors: [] });
    expect(getChartTable(db, lone?.id ?? 0)).toMatchObject({ table_source: 'curator', table_confirmed: true, data_table: { series: ['Hits'] } });
  });

  it('still refuses a folder with neither tables/ nor png/, naming both', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    copyFileSync(join(CHARTQA_EXTRA, 'train_augmented.json'), join(empty, 'train_augmented.json'));
    expect(() => importFolder(db, empty, { split: SPLIT, format: 'chartqa' })).toThrow(/no tables\/ or png\/ folder/);
  });
});
