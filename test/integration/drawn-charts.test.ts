import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { chartsApi } from '../../shared/api/charts';
import { itemsApi } from '../../shared/api/items';
import { reviewApi } from '../../shared/api/review';
import { colourWordsIn } from '../../shared/domain/colour-words';
import { inferChartType } from '../../shared/domain/infer-chart-type';
import { DataTableSchema } from '../../shared/table/model';
import { chartImage } from '../../server/charts/chart-image';
import { getChartForRender, getQaWithChart, setChartType } from '../../server/charts/chart-queries';
import { renderChartPng } from '../../server/charts/render-chart';
import { importSplit } from '../../server/import/import-split';
import { createVerifiedItem } from '../../server/items/item-service';
import { runCli } from '../support/cli';
import { TestClient } from '../support/http-client';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { HUMAN_ITEM } from '../support/item-factory';
import { setInferredType, setItemStatus } from '../support/factories';

/**
 * Charts drawn from their tables must not contradict their questions, and must say they are
 * drawn: the type the questions name, the annotation's colours and order, time earliest first,
 * the original PNG whenever there is one, and a warning where a question names a colour the
 * drawing cannot show.
 */

let server: TestServer;
let dir: string;
const db = (): Db => server.server.ctx.db;

/** A split of two real ChartQA charts with annotations in ChartQA's format: one with its PNG, one without. */
function writeStyledSplit(): string {
  const split = join(dir, 'styled');
  for (const sub of ['tables', 'png', 'annotations']) mkdirSync(join(split, sub), { recursive: true });
  for (const stem of ['multi_col_20134', 'multi_col_60320']) cpSync(join(CHARTQA_EXTRA, 'tables', `${stem}.csv`), join(split, 'tables', `${stem}.csv`));
  cpSync(join(CHARTQA_EXTRA, 'png', 'multi_col_20134.png'), join(split, 'png', 'multi_col_20134.png'));
  const years = ['2014', '2015', '2016', '2017'];
  writeFileSync(
    join(split, 'annotations', 'multi_col_20134.json'),
    JSON.stringify({ type: 'v_bar', models: [{ name: 'Other Public Sector', color: 'Dark Blue' }, { name: 'Defence and Intelligence', color: 'Light Green' }] }),
  );
  // The original lists the latest year first, in its own colours.
  const colours = ['Gold', 'Dark Orange', 'Royal Blue', 'UNK'];
  writeFileSync(
    join(split, 'annotations', 'multi_col_60320.json'),
    JSON.stringify({
      type: 'v_bar',
      general_figure_info: { title: { text: 'Smartphone and tablet gamers in North America' } },
      models: [...years].reverse().map((name, i) => ({ name, color: colours[i], bboxes: [], x: ['Tablet gamer only'], y: [1] })),
    }),
  );
  writeFileSync(
    join(split, 'styled_human.json'),
    JSON.stringify([
      { imgname: 'multi_col_20134.png', query: 'What is the value of the light green bar in 2017?', label: '250' },
      { imgname: 'multi_col_60320.png', query: 'What is the value of the gold bar for tablet gamers only?', label: '11.4' },
    ]),
  );
  return split;
}

function chartId(imgname: string, split: string): number {
  return (db().prepare('SELECT id FROM charts WHERE imgname = ? AND split = ?').get(imgname, split) as { id: number }).id;
}

function qaId(imgname: string, split: string, query: string): number {
  return (db().prepare('SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.imgname = ? AND c.split = ? AND q.query = ?').get(imgname, split, query) as {
    id: number;
  }).id;
}

/** A hand-written item on a factual question, the way the write-an-item form stores one. */
function itemOn(qa: number): number {
  const source = getQaWithChart(db(), qa);
  if (!source) throw new Error(`qa ${qa}`);
  const item = createVerifiedItem(db(), {
    source,
    draft: {
      assumption: 'Suppose every value were 1.',
      question: `Suppose every value were 1. ${source.qa.query}`,
      answer: '1',
      answer_type: 'integer',
      rationale: 'hand-built',
      affects_answer: true,
      edit: null,
      program: '1',
    },
    ...HUMAN_ITEM,
  });
  if (!item) throw new Error('not stored');
  return item.id;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-drawn-'));
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  for (const split of [CHARTQA_SAMPLE, CHARTQA_EXTRA, writeStyledSplit()]) expect(importSplit(db(), split).errors).toEqual([]);
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a chart type inferred from its table hears its questions', () => {
  /**
   * The sample charts whose questions change the inferred type, and why:
   * - 3398 (Pew): 8 year rows, so the table alone says line; its questions ask about "the
   *   light green bar", "the smallest gray bar" → bars (6 series not summing to 100: grouped);
   * - multi_col_803 (Statista): 8 year rows → line; "Which year the value of red bar is
   *   high?" → grouped bars;
   * - 10476815004500 (OWID): 3 countries × 5 years across the columns → grouped bars; "Which
   *   country represents in red line?" → a line per country.
   * No other sample chart's questions name a mark other than its inferred one.
   */
  it('at import, on the ChartQA sample: three charts change type, all still `inferred`', () => {
    const rows = db().prepare("SELECT imgname, chart_type, type_source, data_table FROM charts WHERE split = 'test' ORDER BY imgname").all() as {
      imgname: string;
      chart_type: string;
      type_source: string;
      data_table: string;
    }[];
    expect(rows).toHaveLength(30);
    const changed = Object.fromEntries(
      rows.flatMap((row) => {
        const inferred = inferChartType(DataTableSchema.parse(JSON.parse(row.data_table)));
        return inferred === row.chart_type ? [] : [[row.imgname, `${inferred} → ${row.chart_type}`]];
      }),
    );
    expect(changed).toEqual({
      '10476815004500.png': 'grouped_bar → line',
      '3398.png': 'line → grouped_bar',
      'multi_col_803.png': 'line → grouped_bar',
    });
    expect(new Set(rows.map((row) => row.type_source))).toEqual(new Set(['inferred']));
  });

  it('refreshes a type stored by the table-only rule on the next import, and keeps curators’ and annotations’ types', () => {
    setInferredType(db(), chartId('3398.png', 'test'), 'line');
    setChartType(db(), chartId('multi_col_803.png', 'test'), 'line', 'curator');
    const report = importSplit(db(), CHARTQA_SAMPLE);
    expect(report).toMatchObject({ charts_updated: 1, charts_skipped: 29, errors: [] });
    expect(getChartForRender(db(), chartId('3398.png', 'test'))?.chart_type).toBe('grouped_bar');
    expect(db().prepare("SELECT chart_type, type_source FROM charts WHERE imgname = 'multi_col_803.png' AND split = 'test'").get()).toEqual({
      chart_type: 'line',
      type_source: 'curator',
    });
    // The styled split's annotations say v_bar: questions naming bars or not, that type stands.
    expect(db().prepare("SELECT DISTINCT type_source FROM charts WHERE split = 'styled'").all()).toEqual([{ type_source: 'annotation' }]);
    expect(importSplit(db(), CHARTQA_SAMPLE)).toMatchObject({ charts_updated: 0, charts_skipped: 30 });
  });
});

describe('colour words in the sample’s questions', () => {
  it('are found in exactly the questions that name a colour (or colours)', () => {
    const questions = ['test_human.json', 'test_augmented.json'].flatMap(
      (file) => JSON.parse(readFileSync(join(CHARTQA_SAMPLE, file), 'utf8')) as { imgname: string; query: string }[],
    );
    const found = questions.flatMap(({ imgname, query }) => {
      const table = getChartForRender(db(), chartId(imgname, 'test'))?.table;
      const words = colourWordsIn(query, table ? [...table.series, ...table.rows.map((row) => row.label)] : []);
      return words.length > 0 ? [`${imgname.replace('.png', '')}: ${words.join(', ')}`] : [];
    });
    expect(found.sort()).toEqual(
      [
        '01499440003158: green, orange',
        '10476815004500: red',
        '1304: colors',
        '1304: light blue',
        '1319: gray',
        '1319: green',
        '3398: gray, light blue',
        '3398: light green',
        'OECD_GROSS_DIRECT_INSURANCE_PREMIUMS_AUS_CHL_ISR_PRT_URY_000090: color',
        'multi_col_60912: blue',
        'multi_col_803: red',
        'two_col_62073: blue',
      ].sort(),
    );
  });
});

describe('chart images', () => {
  it('are the original PNG whenever there is one, annotation colours or not', async () => {
    const withPng = chartId('multi_col_20134.png', 'styled');
    const image = await chartImage(db(), withPng);
    expect(image?.rendered).toBe(false);
    expect(image?.png.equals(readFileSync(join(CHARTQA_EXTRA, 'png', 'multi_col_20134.png')))).toBe(true);
  });

  it('are drawn in the annotation’s colours and order when there is no PNG', async () => {
    const drawn = getChartForRender(db(), chartId('multi_col_60320.png', 'styled'));
    if (!drawn) throw new Error('no chart');
    expect(drawn.style).toEqual({
      series_order: ['2017', '2016', '2015', '2014'],
      series_colours: { '2017': '#ffd700', '2016': '#ff8c00', '2015': '#4169e1' },
      row_colours: {},
      orientation: 'vertical',
    });
    const image = await chartImage(db(), chartId('multi_col_60320.png', 'styled'));
    expect(image?.rendered).toBe(true);
    const options = { title: drawn.title ?? '' };
    expect(image?.png.equals(await renderChartPng(drawn.table, drawn.chart_type, { ...options, style: drawn.style }))).toBe(true);
    expect(image?.png.equals(await renderChartPng(drawn.table, drawn.chart_type, options))).toBe(false);
  });

  it('tell the client whether they are original or drawn: a field on the chart and a header on the image', async () => {
    const client = new TestClient(server.url);
    await client.login('rev', 'reviewer-pass-1');
    const cases = [
      { imgname: 'two_col_41347.png', split: 'train', has_image: true, header: 'original', styled: false },
      { imgname: 'multi_col_20134.png', split: 'styled', has_image: true, header: 'original', styled: true },
      { imgname: 'multi_col_60320.png', split: 'styled', has_image: false, header: 'rendered', styled: true },
      { imgname: '3398.png', split: 'test', has_image: false, header: 'rendered', styled: false },
    ];
    for (const { imgname, split, has_image, header, styled } of cases) {
      const id = chartId(imgname, split);
      const { chart } = await client.call(chartsApi.get, { params: { id } });
      expect({ imgname, has_image: chart.has_image, styled: chart.drawing_style !== null }).toEqual({ imgname, has_image, styled });
      expect((await client.send(chartsApi.image, { params: { id } })).headers.get('x-chart-image'), imgname).toBe(header);
    }
  });

  it('exported with --images are the originals, and the drawings in the annotation’s colours', async () => {
    const items = [
      itemOn(qaId('multi_col_20134.png', 'styled', 'What is the value of the light green bar in 2017?')),
      itemOn(qaId('multi_col_60320.png', 'styled', 'What is the value of the gold bar for tablet gamers only?')),
    ];
    setItemStatus(db(), 'accepted', items);
    const images = join(dir, 'images');
    const result = await runCli(['export', '--out', join(dir, 'out.json'), '--images', images, '--json'], { dbPath: server.dbPath });
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(images).sort()).toEqual(['multi_col_20134.png', 'multi_col_60320.png']);
    expect(readFileSync(join(images, 'multi_col_20134.png')).equals(readFileSync(join(CHARTQA_EXTRA, 'png', 'multi_col_20134.png')))).toBe(true);
    const drawn = await chartImage(db(), chartId('multi_col_60320.png', 'styled'));
    expect(readFileSync(join(images, 'multi_col_60320.png')).equals(drawn?.png ?? Buffer.alloc(0))).toBe(true);
  });
});

describe('questions naming a colour on a drawn chart', () => {
  it('are flagged on the item only when the chart shown cannot have the original colours', async () => {
    const curator = new TestClient(server.url);
    await curator.login('cora', 'curator-pass-1');
    const drawnNoColours = itemOn(qaId('3398.png', 'test', 'Is the value of light green bar 35 in 1989?'));
    const plain = itemOn(qaId('3398.png', 'test', 'What is the average of the smallest gray bar and largest light blue bar?'));
    const noColourWords = itemOn(qaId('two_col_158.png', 'test', 'What is the name of the company have highest tire-related revenue ?'));
    const withPng = itemOn(qaId('multi_col_20134.png', 'styled', 'What is the value of the light green bar in 2017?'));
    const annotated = itemOn(qaId('multi_col_60320.png', 'styled', 'What is the value of the gold bar for tablet gamers only?'));
    const flags = async (id: number) => (await curator.call(itemsApi.get, { params: { id } })).item.unverifiable_colours;
    expect(await flags(drawnNoColours)).toEqual(['light green']);
    expect(await flags(plain)).toEqual(['gray', 'light blue']);
    expect(await flags(noColourWords)).toEqual([]);
    expect(await flags(withPng)).toEqual([]);
    expect(await flags(annotated)).toEqual([]);
  });

  it('reach the reviewer with the chart’s drawn/original field and its drawing style', async () => {
    const reviewer = new TestClient(server.url);
    await reviewer.login('rev', 'reviewer-pass-1');
    const { task } = await reviewer.call(reviewApi.next, { body: {} });
    if (!task) throw new Error('the queue is empty');
    const { chart } = await reviewer.call(chartsApi.get, { params: { id: task.chart.id } });
    expect(task.chart).toMatchObject({ has_image: chart.has_image, drawing_style: chart.drawing_style });
    expect(task.item.unverifiable_colours).toEqual((await reviewer.call(itemsApi.get, { params: { id: task.item.id } })).item.unverifiable_colours);
  });
});
