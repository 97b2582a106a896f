import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { ChartHqaExportV1Schema, ChartQaExportSchema, GroupExportItemSchema, itemImages } from '../../shared/export/chart-hqa';
import { HfAnyMetadataLineSchema } from '../../shared/export/hf-dataset';
import { tableFromCells } from '../../shared/table/model';
import { writeExport } from '../../server/export/export-writer';
import { writeHfDataset } from '../../server/export/hf-dataset-writer';
import { JSON_SCHEMA_PATH } from '../../server/export/write-json-schema';
import { buildChart, buildChartGroup, buildItem, buildQa } from '../support/factories';
import { runCli } from '../support/cli';

/**
 * Exported items over a chart group: `images` (every chart, in group order) and `edited_chart`
 * in place of `imgname`, validated by the published JSON Schema; single-chart items as before;
 * every member's image written by `--images` and into the hf-dataset folder; the chartqa and
 * pairs formats leave group items out and count them; stats count distinct charts.
 */

const dir = mkdtempSync(join(tmpdir(), 'hqa-group-export-'));
const dbPath = join(dir, 'hqa.sqlite');
let db: Db;
let groupItem: number;
let singleItem: number;

const PROFIT_2020 = 'value(1, "2020", "Sales") - value(2, "2020", "Costs")';

beforeAll(() => {
  db = openAndMigrate(dbPath);
  const sales = buildChart(db, { imgname: 'sales.png', title: 'Sales', chartType: 'line', table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12']]) });
  const costs = buildChart(db, { imgname: 'costs.png', title: 'Costs', table: tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '7']]) });
  const groupId = buildChartGroup(db, { chartIds: [sales, costs] });
  const qa = buildQa(db, { chartId: sales, groupId, query: 'What was the profit in 2020?', label: '5' });
  groupItem = buildItem(db, { qaId: qa, status: 'accepted', draft: { assumption: 'Suppose 2020 costs doubled.', question: 'Suppose 2020 costs doubled. What was the profit in 2020?', edit: [{ chart: 2, op: 'scale', row: '2020', factor: 2 }], program: PROFIT_2020, answer: '-2' } });
  // A single-chart item on the group's first chart: the chart is counted once.
  singleItem = buildItem(db, { qaId: buildQa(db, { chartId: sales, label: '12' }), status: 'accepted', draft: { edit: [{ op: 'add', row: '2020', delta: 1 }], program: 'value("2020")', answer: '13' } });
  const other = buildChart(db, { imgname: 'other.png' });
  buildItem(db, { qaId: buildQa(db, { chartId: other }), status: 'accepted', draft: { edit: [{ op: 'scale', row: '2020', factor: 2 }], program: 'value("2020")', answer: '40' } });
});
afterAll(async () => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function exportText(options: Parameters<typeof writeExport>[2]): Promise<{ text: string; result: Awaited<ReturnType<typeof writeExport>> }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const result = await writeExport(db, out, options);
  out.end();
  return { text: Buffer.concat(chunks).toString('utf8'), result };
}

describe('exporting an item over a chart group', () => {
  it('carries images in group order and the edited chart, no imgname; a single-chart item keeps imgname; the JSON Schema accepts both', async () => {
    const { text } = await exportText({ format: 'chart-hqa', name: 'groups', full: false });
    const raw = JSON.parse(text) as { items: Record<string, unknown>[] };
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync(JSON_SCHEMA_PATH, 'utf8')) as object);
    expect(validate(raw), JSON.stringify(validate.errors)).toBe(true);
    const doc = ChartHqaExportV1Schema.parse(raw);
    const [group, single] = raw.items;
    expect(group).toMatchObject({ images: ['sales.png', 'costs.png'], edited_chart: 2, chart_type: 'line', answer: '-2' });
    expect(group).not.toHaveProperty('imgname');
    expect(GroupExportItemSchema.safeParse(group).success).toBe(true);
    expect(single).toMatchObject({ imgname: 'sales.png', chart_type: 'line' });
    expect(single).not.toHaveProperty('images');
    expect(doc.items.map(itemImages)).toEqual([['sales.png', 'costs.png'], ['sales.png'], ['other.png']]);
    // sales, costs and other: the group's second chart counted, the shared first chart once.
    expect(doc.stats.charts).toBe(3);
    // A group item without both shapes is refused by the schema: both names, or neither.
    expect(validate({ ...raw, items: [{ ...group, imgname: 'sales.png' }] })).toBe(false);
    expect(validate({ ...raw, items: [{ ...single, imgname: undefined }] })).toBe(false);
  });

  it('keeps provenance with --full', async () => {
    const { text } = await exportText({ format: 'jsonl', name: 'groups', full: true });
    const first = JSON.parse(text.split('\n')[0] ?? '') as { images?: string[]; provenance?: { program: string } };
    expect(first.images).toEqual(['sales.png', 'costs.png']);
    expect(first.provenance?.program).toBe(PROFIT_2020);
  });

  it('calls onChart for every chart of the group once', async () => {
    const charts: string[] = [];
    await exportText({ format: 'jsonl', name: 'groups', full: false, onChart: (chart) => void charts.push(chart.imgname) });
    expect(charts).toEqual(['sales.png', 'costs.png', 'other.png']);
  });

  it('leaves group items out of chartqa and pairs, counting them', async () => {
    const chartqa = await exportText({ format: 'chartqa', name: 'groups', full: false });
    expect(chartqa.result).toMatchObject({ items: 2, skipped_group_items: 1 });
    expect(ChartQaExportSchema.parse(JSON.parse(chartqa.text)).map((row) => row.imgname)).toEqual(['sales.png', 'other.png']);
    const pairs = await exportText({ format: 'pairs', name: 'groups', full: false });
    expect(pairs.result.pairs?.skipped.multi_chart).toBe(1);
    expect(pairs.text).not.toContain(`"item_id":"chq-${String(groupItem).padStart(6, '0')}"`);
  });

  it('writes the hf-dataset line with the edited chart as file_name and every chart under image_files, which the card describes', async () => {
    const out = join(dir, 'hf');
    const result = await writeHfDataset(db, out, { name: 'groups' });
    expect(result.images).toBe(3);
    const lines = readFileSync(join(out, 'metadata.jsonl'), 'utf8').trimEnd().split('\n').map((line) => HfAnyMetadataLineSchema.parse(JSON.parse(line)));
    expect(lines[0]).toMatchObject({ file_name: 'images/costs.png', image_files: ['images/sales.png', 'images/costs.png'] });
    for (const file of ['images/sales.png', 'images/costs.png', 'images/other.png']) expect(existsSync(join(out, file)), file).toBe(true);
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    expect(card).toContain('## Items over several charts');
    expect(card).toMatch(/- name: image_files\n {4}sequence: string/);
    expect(lines[1]).toMatchObject({ file_name: 'images/sales.png' });
    expect(lines[1]).not.toHaveProperty('image_files');
    expect(singleItem).toBeGreaterThan(groupItem);
  });

  it('hqa export --images writes every chart of the group', async () => {
    const out = join(dir, 'cli.json');
    const images = join(dir, 'cli-images');
    const result = await runCli(['export', '--out', out, '--images', images, '--json'], { dbPath });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ items: 3, images: 3 });
    for (const name of ['sales.png', 'costs.png', 'other.png']) expect(readFileSync(join(images, name)).subarray(1, 4).toString(), name).toBe('PNG');
    const chartqa = await runCli(['export', '--format', 'chartqa', '--out', join(dir, 'cli-chartqa.json')], { dbPath });
    expect(chartqa.status, chartqa.stderr).toBe(0);
    expect(chartqa.stdout).toContain('1 items over a chart group left out');
  });
});
