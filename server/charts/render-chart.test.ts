import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import * as vega from 'vega';
import { logger, Warn } from 'vega';
import { compile } from 'vega-lite';
import { describe, expect, it, vi } from 'vitest';
import { chartData, transposeTable } from '../../shared/chart-spec/chart-data';
import { buildChartSpec } from '../../shared/chart-spec/vega-lite-spec';
import { CHART_TYPES, type ChartType } from '../../shared/domain/chart-types';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { readTableCsv } from '../import/csv-table';
import { compileChart, renderChartPng, renderChartSvg } from './render-chart';
import { comparedValueDomain } from '../../shared/chart-spec/value-domain';

// compile, counted: compileChart must reuse a compiled shape rather than compile again.
vi.mock('vega-lite', async (importOriginal) => {
  const real = await importOriginal<typeof import('vega-lite')>();
  return { ...real, compile: vi.fn(real.compile) };
});

// vega-typings do not declare textMetrics (render-chart.ts sets its width function).
const { textMetrics } = vega as unknown as { textMetrics: { width: (item: { fontSize: number; fontWeight: string }, text: string) => number } };

const SAMPLE_TABLES = resolve(process.cwd(), '../shared/data/chartqa-sample/tables');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The number of cells holding a number (not missing, not text): one mark each. */
function countNumericCells(table: DataTable): number {
  return table.rows.reduce((n, row) => n + row.values.filter((v) => v !== null).length, 0);
}

function table(header: string[], body: string[][]): DataTable {
  return tableFromCells(header, body);
}

const SINGLE = table(
  ['Characteristic', 'Share of respondents'],
  [
    ['Recipes', '42%'],
    ['Crafts', '23%'],
    ['Comedy', '-'],
    ['Fitness', '18%'],
    ['Travel', '17%'],
  ],
);

const MULTI = table(
  ['Year', 'Online sales', 'Store sales', 'Catalogue'],
  [
    ['Q1 2018', '12', '30', '4'],
    ['Q2 2018', '15', '28', 'nan'],
    ['Q3 2018', '19', '25', '3'],
    ['Q4 2018', '24', '31', '2'],
  ],
);

/** The text of every `<text>` element, entities decoded, one entry per line. */
function svgTexts(svg: string): string[] {
  const texts: string[] = [];
  for (const match of svg.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)) {
    for (const line of (match[1] ?? '').split(/<\/tspan>/)) {
      const text = decodeEntities(line.replace(/<[^>]+>/g, '')).trim();
      if (text) texts.push(text);
    }
  }
  return texts;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The labels a reader needs to find in a chart of `chartType` drawn from `t`. */
function expectedTexts(t: DataTable, chartType: ChartType): string[] {
  const multi = t.series.length > 1;
  if (chartType === 'pie') return [t.label_header, ...t.rows.filter((r) => (r.values[0] ?? 0) > 0).map((r) => r.label)];
  if (chartType === 'scatter' && multi) {
    const plotted = t.rows.filter((r) => r.values[0] !== null && r.values[1] !== null);
    return [t.series[0] ?? '', t.series[1] ?? '', ...plotted.map((r) => r.label)];
  }
  return [t.label_header, multi ? 'Value' : (t.series[0] ?? ''), ...t.rows.map((r) => r.label), ...(multi ? t.series : [])];
}

/**
 * Decodes an 8-bit RGB, non-interlaced PNG (what renderChartPng writes: no alpha channel, so
 * every pixel is opaque by the format) to RGBA pixels, alpha 255.
 */
function decodePng(png: Buffer): { width: number; height: number; rgba: Buffer } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  expect([png[24], png[25], png[28]]).toEqual([8, 2, 0]);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  const rgb = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x += 1) {
      const byte = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= 3 ? (rgb[y * stride + x - 3] ?? 0) : 0;
      const up = y > 0 ? (rgb[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = x >= 3 && y > 0 ? (rgb[(y - 1) * stride + x - 3] ?? 0) : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) predicted = paeth(left, up, upLeft);
      rgb[y * stride + x] = (byte + predicted) & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4, 255);
  for (let pixel = 0; pixel < width * height; pixel += 1) rgb.copy(rgba, pixel * 4, pixel * 3, pixel * 3 + 3);
  return { width, height, rgba };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Pixels darker than mid-grey in rows [top, bottom): text is the only dark ink in a title band. */
function darkPixels(image: { width: number; rgba: Buffer }, top: number, bottom: number): number {
  let count = 0;
  for (let y = top; y < bottom; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const i = (y * image.width + x) * 4;
      const luminance = 0.299 * (image.rgba[i] ?? 0) + 0.587 * (image.rgba[i + 1] ?? 0) + 0.114 * (image.rgba[i + 2] ?? 0);
      if (luminance < 128) count += 1;
    }
  }
  return count;
}

/** The first and last columns with a dark pixel in rows [top, bottom). */
function darkColumns(image: { width: number; rgba: Buffer }, top: number, bottom: number): [number, number] {
  let left = image.width;
  let right = -1;
  for (let y = top; y < bottom; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const i = (y * image.width + x) * 4;
      const luminance = 0.299 * (image.rgba[i] ?? 0) + 0.587 * (image.rgba[i + 1] ?? 0) + 0.114 * (image.rgba[i + 2] ?? 0);
      if (luminance < 128) {
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
  }
  return [left, right];
}

/** The rows a 16 px title sits in under the chart's 12 px padding, above any axis label. */
const TITLE_BAND = [0, 34] as const;

describe('renderChartSvg / renderChartPng', () => {
  for (const chartType of CHART_TYPES) {
    for (const [shape, data] of [
      ['single-series', SINGLE],
      ['multi-series', MULTI],
    ] as const) {
      it(`draws a ${shape} ${chartType} chart with its title, axis titles and every label`, async () => {
        const title = `Sales ${chartType} ${shape}`;
        const svg = await renderChartSvg(data, chartType, { title });
        const texts = svgTexts(svg);
        expect(texts).toContain(title);
        for (const expected of expectedTexts(data, chartType)) expect(texts).toContain(expected);
        expect(svg).toContain('font-family="Roboto"');

        const png = await renderChartPng(data, chartType, { title });
        expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
        expect(png.readUInt32BE(16)).toBe(800);
      });
    }
  }

  it('draws real ChartQA tables with nan and - cells, leaving the missing cells out', async () => {
    const cases: [string, ChartType][] = [
      ['3398.csv', 'line'],
      ['3398.csv', 'grouped_bar'],
      ['multi_col_20086.csv', 'stacked_bar'],
      ['multi_col_20086.csv', 'grouped_bar'],
    ];
    for (const [file, chartType] of cases) {
      const data = readTableCsv(join(SAMPLE_TABLES, file));
      expect(chartData(data)).toHaveLength(countNumericCells(data));
      const svg = await renderChartSvg(data, chartType, { title: `ChartQA ${file}` });
      const texts = svgTexts(svg);
      for (const expected of expectedTexts(data, chartType)) expect(texts).toContain(expected);
      expect(texts.join(' ')).not.toMatch(/\bNaN\b|\bnan\b|null/);
      const png = await renderChartPng(data, chartType);
      expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      expect(png.readUInt32BE(16)).toBe(800);
    }
  });

  it('draws in the annotation’s colours and series order, and time earliest first', async () => {
    const style = { series_order: ['Store sales', 'Online sales'], series_colours: { 'Store sales': '#006400', 'Online sales': '#c0392b' }, row_colours: {} };
    const latestFirst = table(['Year', ...MULTI.series], [...MULTI.rows].reverse().map((row) => [row.label, ...row.raw]));
    const svg = await renderChartSvg(latestFirst, 'grouped_bar', { style });
    expect(svg).toMatch(/fill="#006400"/);
    expect(svg).toMatch(/fill="#c0392b"/);
    const texts = svgTexts(svg);
    const quarters = texts.filter((text) => /^Q\d 2018$/.test(text));
    expect(quarters).toEqual(['Q1 2018', 'Q2 2018', 'Q3 2018', 'Q4 2018']);
    const legend = texts.filter((text) => MULTI.series.includes(text));
    expect(legend.slice(0, 2)).toEqual(['Store sales', 'Online sales']);
  });

  it('escapes table text in the SVG', async () => {
    const data = table(['Group <i>', 'Score & rank'], [['<script>alert(1)</script>', '3'], ['"Quoted" & Co', '4']]);
    const svg = await renderChartSvg(data, 'vertical_bar', { title: 'A <b>bold</b> title' });
    expect(svg).not.toMatch(/<script|<b>|<i>/);
    expect(svgTexts(svg)).toEqual(expect.arrayContaining(['<script>alert(1)</script>', '"Quoted" & Co', 'A <b>bold</b> title', 'Group <i>']));
  });

  it('measures labels with Roboto metrics, so a 34-character label is not cut short', async () => {
    // vega's own guess (0.8 em a character) would put this label at ~300 px, over the 180 px limit.
    const label = 'Country number 10 with a long name';
    const data = table(['Country', 'Density'], [[label, '12'], ['Chile', '30']]);
    expect(svgTexts(await renderChartSvg(data, 'horizontal_bar'))).toContain(label);
  });

  it('labels bars with the cell text as the chart showed it', async () => {
    const texts = svgTexts(await renderChartSvg(SINGLE, 'vertical_bar'));
    expect(texts).toEqual(expect.arrayContaining(['42%', '23%', '18%', '17%']));
  });

  it('draws text with the bundled Roboto: the title is as wide in pixels as Roboto\'s metrics lay it out', async () => {
    const title = 'Roboto renders this title';
    const image = decodePng(await renderChartPng(MULTI, 'vertical_bar', { title }));
    expect(image.width).toBe(800);
    expect(darkPixels(image, ...TITLE_BAND)).toBeGreaterThan(300);
    // The title as the SVG places it (16 px bold, from x = 0 of the padded group at 12 px);
    // the layout measured it with Roboto's advances (textMetrics, patched by render-chart).
    const svg = await renderChartSvg(MULTI, 'vertical_bar', { title });
    expect(svg).toContain(`font-family="Roboto" font-size="16px" font-weight="bold" fill="#1a1a1a" opacity="1">${title}</text>`);
    const laidOut = textMetrics.width({ fontSize: 16, fontWeight: 'bold' }, title);
    const [left, right] = darkColumns(image, ...TITLE_BAND);
    // Drawn in any other face (a system fallback: DejaVu Sans Bold is ~20% wider) the ink would
    // not span the width the layout gave it; glyph side bearings take a pixel or two.
    expect(right - left).toBeGreaterThan(laidOut - 4);
    expect(right - left).toBeLessThan(laidOut + 1);
  });

  it('gives the SVG a white background and the PNG opaque white corners', async () => {
    const svg = await renderChartSvg(SINGLE, 'pie');
    expect(svg).toMatch(/^<svg[^>]*>(<[^>]*>)*?<rect[^>]*fill="white"/);
    const image = decodePng(await renderChartPng(SINGLE, 'pie'));
    expect([...image.rgba.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
  });

  it('fits the PNG to the requested width', async () => {
    const png = await renderChartPng(MULTI, 'line', { width: 400, height: 300 });
    expect(png.readUInt32BE(16)).toBe(400);
    expect(png.readUInt32BE(20)).toBe(300);
  });

  it('gives the same SVG for concurrent and sequential renders', async () => {
    const jobs: [DataTable, ChartType][] = [
      [MULTI, 'stacked_bar'],
      [SINGLE, 'pie'],
      [MULTI, 'line'],
      [SINGLE, 'horizontal_bar'],
    ];
    const sequential: string[] = [];
    for (const [data, chartType] of jobs) sequential.push(await renderChartSvg(data, chartType, { title: chartType }));
    const concurrent = await Promise.all(jobs.map(([data, chartType]) => renderChartSvg(data, chartType, { title: chartType })));
    expect(concurrent).toEqual(sequential);
  });

  // How long this takes is bench/render-charts.ts's to say (npm run bench:render).
  it('renders each of the 30 sample ChartQA charts to PNG', async () => {
    const files = readdirSync(SAMPLE_TABLES).filter((f) => f.endsWith('.csv'));
    expect(files).toHaveLength(30);
    const tables = files.map((f) => readTableCsv(join(SAMPLE_TABLES, f)));
    for (const [i, data] of tables.entries()) {
      const chartType: ChartType = data.series.length > 1 ? (i % 2 ? 'line' : 'stacked_bar') : i % 3 ? 'vertical_bar' : 'pie';
      const png = await renderChartPng(data, chartType, { title: files[i] });
      expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }
  });
});

/** The table with every number doubled, its cells' other text (units) and its labels kept: what an edit of the values draws. */
function doubled(data: DataTable): DataTable {
  const double = (cell: string) => cell.replace(/\d+(?:\.\d+)?/, (n) => String(Number(n) * 2));
  return tableFromCells([data.label_header, ...data.series], data.rows.map((row) => [row.label, ...row.raw.map(double)]));
}

describe('compileChart', () => {
  it('compiles a table drawn in a shape compiled before, without compiling, exactly as a fresh compile does', () => {
    const files = readdirSync(SAMPLE_TABLES).filter((f) => f.endsWith('.csv')).slice(0, 8);
    const tables = [SINGLE, MULTI, ...files.map((f) => readTableCsv(join(SAMPLE_TABLES, f)))];
    for (const chartType of CHART_TYPES) {
      for (const [i, original] of tables.entries()) {
        const edited = doubled(original);
        // As the drawn conditions draw them: one title and one value axis for both tables.
        const options = { title: `chart ${i}`, valueDomain: comparedValueDomain([original, edited], chartType) };
        compileChart(buildChartSpec(original, chartType, options));
        const compiles = vi.mocked(compile).mock.calls.length;
        const reused = compileChart(buildChartSpec(edited, chartType, options));
        expect(vi.mocked(compile).mock.calls.length, `${chartType} ${i} compiled again`).toBe(compiles);
        expect(reused, `${chartType} ${i}`).toEqual(compile(buildChartSpec(edited, chartType, options)).spec);
      }
    }
  });
});

describe('buildChartSpec', () => {
  it('is deterministic and compiles without warnings for every chart type', () => {
    for (const chartType of CHART_TYPES) {
      for (const data of [SINGLE, MULTI]) {
        const spec = buildChartSpec(data, chartType, { title: 'T' });
        expect(JSON.stringify(buildChartSpec(data, chartType, { title: 'T' }))).toBe(JSON.stringify(spec));
        const warnings: unknown[] = [];
        compile(spec, { logger: logger(Warn, 'warn', (_method, _level, args) => warnings.push(args)) });
        expect(warnings, `${chartType} ${data.series.length}`).toEqual([]);
      }
    }
  });

  it('keeps the rows in table order on the category axis, missing rows included', () => {
    const spec = JSON.stringify(buildChartSpec(SINGLE, 'vertical_bar'));
    expect(spec).toContain(JSON.stringify(['Recipes', 'Crafts', 'Comedy', 'Fitness', 'Travel']));
  });

  it('feeds the chart long-format data without the missing cells', () => {
    const data = chartData(MULTI);
    expect(data).toHaveLength(11);
    expect(data[0]).toEqual({ label: 'Q1 2018', series: 'Online sales', value: 12, text: '12', row: 0, seriesIndex: 0 });
    expect(data.some((d) => d.label === 'Q2 2018' && d.series === 'Catalogue')).toBe(false);
  });

  it('rounds long decimals in value labels but keeps units', () => {
    const t = table(['Entity', 'Share'], [['A', '83.9560003538846%'], ['B', '$1,200'], ['C', '0.290001']]);
    expect(chartData(t).map((d) => d.text)).toEqual(['83.96%', '$1,200', '0.29']);
  });

  it('draws a multi-series pie from its first series', () => {
    const spec = JSON.stringify(buildChartSpec(MULTI, 'pie'));
    expect(spec).not.toContain('Store sales');
    expect(spec).toContain('"theta"');
  });

  it('plots the first two series against each other in a multi-series scatter', () => {
    const spec = buildChartSpec(MULTI, 'scatter');
    expect(JSON.stringify(spec)).toContain('{"label":"Q1 2018","x":12,"y":30,"row":0}');
  });

  it('draws years across the columns (OECD, OWID) as a line per row over time', () => {
    const t = table(['Country', '2000', '2010', '2020'], [['Chile', '1', '2', '3'], ['Peru', '4', 'nan', '6']]);
    const transposed = transposeTable(t);
    expect(transposed.series).toEqual(['Chile', 'Peru']);
    expect(transposed.rows.map((r) => r.label)).toEqual(['2000', '2010', '2020']);
    expect(JSON.stringify(buildChartSpec(t, 'line'))).toContain('"domain":["Chile","Peru"]');
  });
});
