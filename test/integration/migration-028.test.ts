import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openAndMigrate } from '../../db/database';
import { getChartSummary } from '../../server/charts/chart-queries';
import { importSplit } from '../../server/import/import-split';
import { CHARTQA_EXTRA } from '../support/paths';
import { databaseAtVersion } from '../support/migrated-database';

/** Migration 028: charts.type_evidence, llm_calls.chart_id and the chart-type jobs' tables. */

const dir = mkdtempSync(join(tmpdir(), 'hqa-migration-028-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 028', () => {
  it('reads the inferred types of charts made before it as unconfirmed where they have an image, confirmed where they are drawn', () => {
    const db = databaseAtVersion(dir, 27);
    const insert = db.prepare(`INSERT INTO charts (split, imgname, chart_type, type_source, data_table, row_count, series_count, table_source, table_confirmed, source_file, content_hash)
      VALUES ('old', ?, ?, ?, '{"label_header":"Year","series":["A"],"rows":[{"label":"2019","raw":["1"],"values":[1]}]}', 1, 1, 'imported', 1, 'x.csv', 'h')`);
    const pictured = Number(insert.run('pictured.png', 'line', 'inferred').lastInsertRowid);
    const drawn = Number(insert.run('drawn.png', 'line', 'inferred').lastInsertRowid);
    const annotated = Number(insert.run('annotated.png', 'pie', 'annotation').lastInsertRowid);
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    for (const id of [pictured, annotated]) db.prepare('INSERT INTO chart_images (chart_id, png, sha256) VALUES (?, ?, ?)').run(id, png, 'sha');
    // Later migrations follow it; 028 is the first this database takes.
    expect(migrate(db)[0]).toBe(28);

    expect(getChartSummary(db, pictured)).toMatchObject({ type_evidence: null, type_confirmed: false });
    expect(getChartSummary(db, drawn)).toMatchObject({ type_evidence: null, type_confirmed: true });
    expect(getChartSummary(db, annotated)).toMatchObject({ type_evidence: null, type_confirmed: true });
    const columns = (table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    expect(columns('llm_calls')).toContain('chart_id');
    expect(columns('chart_type_tasks')).toEqual(['job_id', 'chart_id', 'status', 'chart_type', 'hint', 'kind', 'error', 'updated_at']);
    expect(() => db.prepare("UPDATE charts SET type_evidence = 'guess' WHERE id = ?").run(pictured)).toThrow(/CHECK constraint failed/);
    db.close();
  });

  it('lets a re-import of unchanged files record what the questions decided for a chart made before it', () => {
    const split = join(dir, 'worded');
    mkdirSync(join(split, 'tables'), { recursive: true });
    mkdirSync(join(split, 'png'), { recursive: true });
    copyFileSync(join(CHARTQA_EXTRA, 'tables', 'two_col_3119.csv'), join(split, 'tables', 'two_col_3119.csv'));
    copyFileSync(join(CHARTQA_EXTRA, 'png', 'two_col_3119.png'), join(split, 'png', 'two_col_3119.png'));
    writeFileSync(join(split, 'worded_human.json'), JSON.stringify([{ imgname: 'two_col_3119.png', query: 'Is the leftmost bar the lowest?', label: 'No' }]));
    const db = openAndMigrate(join(dir, 'reimport.sqlite'));
    importSplit(db, split);
    // As a chart imported before 028 reads after it: the type its questions decided, no evidence recorded.
    db.prepare("UPDATE charts SET type_evidence = NULL WHERE imgname = 'two_col_3119.png'").run();
    const id = (db.prepare("SELECT id FROM charts WHERE imgname = 'two_col_3119.png'").get() as { id: number }).id;
    expect(getChartSummary(db, id)).toMatchObject({ chart_type: 'vertical_bar', type_confirmed: false });
    const report = importSplit(db, split);
    expect(report).toMatchObject({ charts_updated: 1, items_reverified: 0 });
    expect(getChartSummary(db, id)).toMatchObject({ chart_type: 'vertical_bar', type_evidence: 'questions', type_confirmed: true });
    db.close();
  });
});
