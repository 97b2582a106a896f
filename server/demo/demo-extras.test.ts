import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { runProgram } from '../../shared/table/program';
import { DEMO_SPLIT, importDemoIfEmpty } from '../bootstrap/first-start';
import { loadChartGroup } from '../charts/chart-group-queries';
import { renderChartPng } from '../charts/render-chart';
import { groupQuestionProgram } from '../generation/offline/group-question-program';
import { DEMO_GROUP_CHARTS, DEMO_GROUP_NAME, DEMO_GROUP_QUESTIONS, DEMO_IMAGE_ONLY_CHART, DEMO_IMAGE_ONLY_PNG } from './demo-extras';
import { addDemoExtras } from './demo-extras-import';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-demo-extras-'));
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
  importDemoIfEmpty(db, pino({ level: 'silent' }));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

interface QaRow {
  id: number;
  chart_id: number;
  query: string;
  label: string;
  answer_kind: string;
  group_id: number | null;
}

function groupQas(groupId: number): QaRow[] {
  return db.prepare('SELECT id, chart_id, query, label, answer_kind, group_id FROM factual_qas WHERE group_id = ? ORDER BY id').all(groupId) as QaRow[];
}

function demoGroupId(): number {
  const row = db.prepare("SELECT id, source FROM chart_groups WHERE split = ? AND name = ?").get(DEMO_SPLIT, DEMO_GROUP_NAME) as { id: number; source: string } | undefined;
  if (!row) throw new Error(`no group "${DEMO_GROUP_NAME}" in the demo split`);
  expect(row.source).toBe('curator');
  return row.id;
}

/** The width and height a PNG's IHDR chunk states. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('the embedded demo defaults', () => {
  it('hold a curator group of two charts with confirmed tables over the same years', () => {
    const group = loadChartGroup(db, demoGroupId());
    expect(group?.members.map((m) => [m.position, m.imgname, m.table_confirmed])).toEqual([
      [1, DEMO_GROUP_CHARTS[0].imgname, true],
      [2, DEMO_GROUP_CHARTS[1].imgname, true],
    ]);
    const [first, second] = group?.members.map((m) => m.table?.rows.map((r) => r.label)) ?? [];
    expect(first).toEqual(['2017', '2018', '2019', '2020', '2021', '2022']);
    expect(second).toEqual(first);
  });

  it('ask four questions over the group whose labels are their programs run over the stored tables', () => {
    const groupId = demoGroupId();
    const group = loadChartGroup(db, groupId);
    const tables = (group?.members ?? []).map((m) => {
      if (!m.table) throw new Error(`${m.imgname} has no table`);
      return m.table;
    });
    const qas = groupQas(groupId);
    expect(qas.map((qa) => qa.query)).toEqual(DEMO_GROUP_QUESTIONS.map((q) => q.query));
    for (const [index, qa] of qas.entries()) {
      const program = DEMO_GROUP_QUESTIONS[index]?.program ?? '';
      const result = runProgram(tables, program);
      expect(result.ok, `${program}: ${result.ok ? '' : result.error.message}`).toBe(true);
      if (result.ok) expect(qa.label).toBe(result.answer);
      // Stored on the group's first chart, classified as the importer classifies answers.
      expect(qa.chart_id).toBe(group?.members[0]?.id);
      expect(qa.answer_kind).toBe(/^[0-9.]+$/.test(qa.label) ? 'number' : 'text');
    }
    // Worked by hand from the tables, so a wrong program or table would show here too.
    expect(qas.map((qa) => qa.label)).toEqual(['21.7', 'Yes', '19.4', '31']);
  });

  it('every group question parses, with the offline engine rules, to its program and reproduces its label', () => {
    const tables = DEMO_GROUP_CHARTS.map((chart) => chart.table);
    for (const qa of groupQas(demoGroupId())) {
      const parsed = groupQuestionProgram(qa.query, tables, qa.label);
      expect(parsed, qa.query).not.toBeNull();
      expect(parsed?.program).toBe(DEMO_GROUP_QUESTIONS.find((q) => q.query === qa.query)?.program);
      expect(parsed?.answer).toBe(qa.label);
    }
  });

  it('hold a chart with a stored image and no table, with one question', () => {
    const chart = db
      .prepare('SELECT c.id, c.data_table, c.table_source, c.table_confirmed, c.row_count, i.png FROM charts c JOIN chart_images i ON i.chart_id = c.id WHERE c.split = ? AND c.imgname = ?')
      .get(DEMO_SPLIT, DEMO_IMAGE_ONLY_CHART.imgname) as { id: number; data_table: string | null; table_source: string | null; table_confirmed: number; row_count: number; png: Buffer } | undefined;
    expect(chart).toMatchObject({ data_table: null, table_source: null, table_confirmed: 0, row_count: 0 });
    expect(chart?.png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const qas = db.prepare('SELECT query, label, group_id FROM factual_qas WHERE chart_id = ?').all(chart?.id ?? 0);
    expect(qas).toEqual([{ ...DEMO_IMAGE_ONLY_CHART.question, group_id: null }]);
  });

  it('ship the image-only chart as its table drawn by render-chart (same size as a fresh render)', async () => {
    const shipped = readFileSync(new URL(`./${DEMO_IMAGE_ONLY_PNG}`, import.meta.url));
    const fresh = await renderChartPng(DEMO_IMAGE_ONLY_CHART.table, DEMO_IMAGE_ONLY_CHART.chart_type, { title: DEMO_IMAGE_ONLY_CHART.title });
    expect(pngSize(shipped)).toEqual(pngSize(fresh));
  });

  it('are added once: a second start adds no chart, group or question', () => {
    const count = () => db.prepare('SELECT (SELECT COUNT(*) FROM charts) AS charts, (SELECT COUNT(*) FROM chart_groups) AS groups, (SELECT COUNT(*) FROM chart_group_members) AS members, (SELECT COUNT(*) FROM factual_qas) AS qas, (SELECT COUNT(*) FROM chart_images) AS images').get();
    const before = count();
    expect(importDemoIfEmpty(db, pino({ level: 'silent' }))).toBe(false);
    const again = addDemoExtras(db, DEMO_SPLIT);
    expect(again).toMatchObject({ charts_created: 0, qas_added: 0, group_id: demoGroupId() });
    expect(count()).toEqual(before);
  });
});
