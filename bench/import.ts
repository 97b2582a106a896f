import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAndMigrate } from '../db/database';
import { generateDemoSplit } from '../server/demo/demo-split';
import { importSplit } from '../server/import/import-split';

/**
 * Import benchmark: generates a split of N charts (default 20,000) in ChartQA layout with the
 * demo generator, imports it into a fresh SQLite file, and prints charts per second and peak
 * memory. Target: 20,000 charts in under 60 s on the 2-core machine.
 *   npm run bench:import -- [charts]
 */
const charts = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-'));
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

try {
  const genStart = performance.now();
  const generated = generateDemoSplit({ dir: join(dir, 'split'), split: 'bench', charts, seed: 7 });
  const genSeconds = (performance.now() - genStart) / 1000;

  const db = openAndMigrate(join(dir, 'bench.sqlite'));
  const start = performance.now();
  const report = importSplit(db, join(dir, 'split'), {
    split: 'bench',
    onProgress: (done) => {
      if (done % 1000 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
    },
  });
  const seconds = (performance.now() - start) / 1000;
  const reStart = performance.now();
  const again = importSplit(db, join(dir, 'split'), { split: 'bench' });
  const reSeconds = (performance.now() - reStart) / 1000;
  db.close();
  peakRss = Math.max(peakRss, process.memoryUsage().rss);

  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  console.log(`generated ${generated.charts} charts, ${generated.qas} questions in ${genSeconds.toFixed(1)} s`);
  console.log(
    `import: ${report.charts_imported} charts, ${report.qas_imported} questions, ${report.errors.length} errors in ${seconds.toFixed(1)} s ` +
      `= ${(report.charts_imported / seconds).toFixed(0)} charts/s`,
  );
  console.log(`re-import (unchanged): ${again.charts_skipped} skipped in ${reSeconds.toFixed(1)} s = ${(again.charts_skipped / reSeconds).toFixed(0)} charts/s`);
  console.log(`peak RSS: ${mb(peakRss)} MB`);
  console.log(`target 20,000 charts < 60 s: ${charts === 20_000 ? (seconds < 60 ? 'met' : 'MISSED') : 'n/a (different size)'} (ratio ${(seconds / 60).toFixed(2)} of budget)`);
} finally {
  clearInterval(sampler);
  rmSync(dir, { recursive: true, force: true });
}
