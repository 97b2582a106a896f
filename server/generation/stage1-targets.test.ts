import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { CHARTQA_SAMPLE } from '../../test/support/paths';
import { importSplit } from '../import/import-split';
import { ensureSeedProposals } from '../pool/pool-service';
import { mulberry32 } from './offline/rng';
import { STAGE1_TARGETS, stage1Targets } from './stage1-targets';

const dir = mkdtempSync(join(tmpdir(), 'hqa-stage1-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stage1Targets: the questions a Stage 1 task of the offline rules grows the pool for', () => {
  const db = openAndMigrate(join(dir, 'hqa.sqlite'));
  importSplit(db, CHARTQA_SAMPLE, { split: 'test' });
  ensureSeedProposals(db);
  const config = { split: 'test', only_new_qas: true, confirmed_types_only: false };

  it('samples questions of the chart type from the run split, seeded, with the pool of that type', () => {
    const lines = db.prepare("SELECT COUNT(*) AS n FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.chart_type = 'line'").get() as { n: number };
    expect(lines.n).toBeGreaterThan(STAGE1_TARGETS);
    const { targets, pool } = stage1Targets(db, config, 'line', mulberry32(5));
    expect(targets).toHaveLength(STAGE1_TARGETS);
    expect(new Set(targets.map((target) => target.chartType))).toEqual(new Set(['line']));
    expect(targets.every((target) => target.table.rows.length > 0 && target.qa.query.length > 0)).toBe(true);
    expect(stage1Targets(db, config, 'line', mulberry32(5)).targets.map((t) => t.qa.query)).toEqual(targets.map((t) => t.qa.query));
    expect(stage1Targets(db, config, 'line', mulberry32(6)).targets.map((t) => t.qa.query)).not.toEqual(targets.map((t) => t.qa.query));
    const active = db.prepare("SELECT text FROM proposals WHERE chart_type = 'line' AND status = 'active' ORDER BY id").all() as { text: string }[];
    expect(pool).toEqual(active.map((row) => row.text));
  });

  it('holds nothing for another split or a type without questions', () => {
    expect(stage1Targets(db, { ...config, split: 'train' }, 'line', mulberry32(5)).targets).toEqual([]);
    expect(stage1Targets(db, config, 'scatter', mulberry32(5)).targets).toEqual([]);
  });
});
