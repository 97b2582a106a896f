import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoSplit } from '../server/demo/demo-split';

/**
 * Demo split benchmark: writes a split of N charts (default 20,000, the benchmark's scale) in
 * ChartQA layout with the demo generator and prints charts per second and peak memory (the
 * generator yields one chart at a time, so memory should not grow with N).
 *   npm run bench:demo -- [charts]
 */
/** "A few seconds", as the test that used to time this said: a first start writes the demo split before it listens. */
const BUDGET_SECONDS = 10;

const charts = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-demo-'));
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

try {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = generateDemoSplit({ dir, charts, seed: 7, split: 'bench' });
  const seconds = (performance.now() - started) / 1000;
  // CPU time beside wall time: on a shared machine the wall clock also measures the neighbours.
  const cpu = process.cpuUsage(cpuBefore);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const files = readdirSync(join(dir, 'tables')).length;
  console.log(`generateDemoSplit: ${result.charts} charts (${files} table files), ${result.qas} questions in ${seconds.toFixed(2)} s = ${(result.charts / seconds).toFixed(0)} charts/s`);
  console.log(`CPU: ${(cpu.user / 1e6).toFixed(2)} s user + ${(cpu.system / 1e6).toFixed(2)} s system (${(((cpu.user + cpu.system) / 1e6 / seconds) * 100).toFixed(0)}% of wall time)`);
  console.log(`peak RSS: ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
  const scaled = (seconds * 20_000) / charts;
  console.log(`budget ${BUDGET_SECONDS} s for 20,000 charts: ${scaled < BUDGET_SECONDS ? 'met' : 'MISSED'} (ratio ${(scaled / BUDGET_SECONDS).toFixed(2)} of budget${charts === 20_000 ? '' : ', scaled linearly from this size'})`);
} finally {
  clearInterval(sampler);
  rmSync(dir, { recursive: true, force: true });
}
