import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { CHART_TYPES } from '../../shared/domain/chart-types';
import { CHARTQA_SAMPLE } from '../../test/support/paths';
import { DEMO_CHARTS } from '../bootstrap/first-start';
import { addDemoExtras } from '../demo/demo-extras-import';
import { generateDemoSplit } from '../demo/demo-split';
import { importSplit } from '../import/import-split';
import { ensureSeedProposals } from '../pool/pool-service';
import { mulberry32 } from './offline/rng';
import { STAGE1_TARGETS, stage1Targets } from './stage1-targets';

const dir = mkdtempSync(join(tmpdir(), 'hqa-stage1-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every QA of a database as a run's selection would list it. */
function allAsked(db: Db): { id: number; chart_type: string; group_id: number | null }[] {
  return db.prepare('SELECT q.id, c.chart_type, q.group_id FROM factual_qas q JOIN charts c ON c.id = q.chart_id ORDER BY q.id').all() as { id: number; chart_type: string; group_id: number | null }[];
}

describe('stage1Targets: the questions a Stage 1 task of the offline rules grows the pool for', () => {
  const db = openAndMigrate(join(dir, 'hqa.sqlite'));
  importSplit(db, CHARTQA_SAMPLE, { split: 'test' });
  ensureSeedProposals(db);

  it('samples the run’s questions of the chart type, seeded, with the pool of that type', () => {
    const asked = allAsked(db);
    expect(asked.filter((qa) => qa.chart_type === 'line').length).toBeGreaterThan(STAGE1_TARGETS);
    const { targets, pool } = stage1Targets(db, asked, 'line', mulberry32(5));
    expect(targets).toHaveLength(STAGE1_TARGETS);
    expect(new Set(targets.map((target) => target.chartType))).toEqual(new Set(['line']));
    expect(targets.every((target) => target.table.rows.length > 0 && target.qa.query.length > 0)).toBe(true);
    const queries = (seed: number) => stage1Targets(db, asked, 'line', mulberry32(seed)).targets.map((t) => t.qa.query);
    expect(queries(5)).toEqual(targets.map((t) => t.qa.query));
    expect(queries(6)).not.toEqual(targets.map((t) => t.qa.query));
    const active = db.prepare("SELECT text FROM proposals WHERE chart_type = 'line' AND status = 'active' ORDER BY id").all() as { text: string }[];
    expect(pool).toEqual(active.map((row) => row.text));
  });

  it('holds only what the run asks: a run of a few questions grows the pool for those', () => {
    const asked = allAsked(db).filter((qa) => qa.chart_type === 'line').slice(0, 3);
    const { targets } = stage1Targets(db, asked, 'line', mulberry32(5));
    const texts = (db.prepare(`SELECT query FROM factual_qas WHERE id IN (${asked.map((qa) => qa.id).join(',')})`).all() as { query: string }[]).map((row) => row.query);
    expect(targets.map((t) => t.qa.query).sort()).toEqual([...texts].sort());
    expect(stage1Targets(db, asked, 'pie', mulberry32(5)).targets).toEqual([]);
    expect(stage1Targets(db, [], 'line', mulberry32(5)).targets).toEqual([]);
  });

  it('skips charts known only by their image (the demo has some), which have no table to change', () => {
    const demoDb = openAndMigrate(join(dir, 'demo.sqlite'));
    generateDemoSplit({ dir: join(dir, 'demo'), split: 'demo', charts: DEMO_CHARTS, seed: 1 });
    importSplit(demoDb, join(dir, 'demo'), { split: 'demo' });
    addDemoExtras(demoDb, 'demo');
    const imageOnly = demoDb.prepare('SELECT COUNT(*) AS n FROM charts WHERE data_table IS NULL').get() as { n: number };
    expect(imageOnly.n).toBeGreaterThan(0);
    const asked = allAsked(demoDb);
    for (const chartType of CHART_TYPES) {
      for (let seed = 1; seed <= 8; seed++) {
        const { targets } = stage1Targets(demoDb, asked, chartType, mulberry32(seed));
        expect(targets.every((target) => target.table.rows.length > 0)).toBe(true);
      }
    }
    demoDb.close();
  });
});
