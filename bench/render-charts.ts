import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ChartType } from '../shared/domain/chart-types';
import { readTableCsv } from '../server/import/csv-table';
import { renderChartPng } from '../server/charts/render-chart';

/**
 * Chart rendering benchmark: draws the 30 sample ChartQA tables to PNG one after another on
 * the main thread (Vega-Lite → Vega's canvas renderer on Skia → PNG), the work a cache miss on a chart image costs,
 * and prints the time per chart against the budget of 5 s for all 30.
 *   npm run bench:render -- [rounds]
 */
const SAMPLE_TABLES = resolve(process.cwd(), '../shared/data/chartqa-sample/tables');
/** What the 30 sample charts may take together: a page of thumbnails drawn from cold. */
const BUDGET_MS = 5000;

const rounds = Number(process.argv[2] ?? 3);
const files = readdirSync(SAMPLE_TABLES).filter((f) => f.endsWith('.csv'));
const tables = files.map((f) => readTableCsv(join(SAMPLE_TABLES, f)));
// The same mix of chart types as the test suite draws, so every renderer path is timed.
const chartTypeOf = (series: number, i: number): ChartType => (series > 1 ? (i % 2 ? 'line' : 'stacked_bar') : i % 3 ? 'vertical_bar' : 'pie');

const timings: number[] = [];
// CPU time beside wall time: on a shared machine the wall clock also measures the neighbours.
const cpuBefore = process.cpuUsage();
for (let round = 0; round < rounds; round++) {
  const started = performance.now();
  for (const [i, data] of tables.entries()) await renderChartPng(data, chartTypeOf(data.series.length, i), { title: files[i] });
  timings.push(performance.now() - started);
}

const cpu = process.cpuUsage(cpuBefore);
const first = timings[0] ?? 0;
const warm = timings.slice(1);
const warmMs = warm.length > 0 ? Math.min(...warm) : first;
console.log(`rendered ${tables.length} sample charts to PNG, ${rounds} rounds`);
console.log(`first round (cold): ${first.toFixed(0)} ms = ${(first / tables.length).toFixed(1)} ms per chart`);
if (warm.length > 0) console.log(`best warm round: ${warmMs.toFixed(0)} ms = ${(warmMs / tables.length).toFixed(1)} ms per chart`);
const wallMs = timings.reduce((sum, ms) => sum + ms, 0);
console.log(`CPU over all rounds: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms = ${(((cpu.user + cpu.system) / 1000 / wallMs) * 100).toFixed(0)}% of wall time`);
console.log(`budget ${BUDGET_MS} ms for ${tables.length} charts: cold ${first < BUDGET_MS ? 'met' : 'MISSED'} (ratio ${(first / BUDGET_MS).toFixed(2)} of budget)`);
