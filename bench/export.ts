import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { openAndMigrate } from '../db/database';
import { writeExport } from '../server/export/export-writer';
import { importSplit } from '../server/import/import-split';

/**
 * Export benchmark: stores N accepted items (default 100,000) over one ChartQA sample QA and
 * streams the Chart-HQA export of them to a sink, printing seconds, megabytes and heap growth
 * (the writer streams, so the heap should not hold the ~30 MB document). Run with
 * `--expose-gc` (as the npm script does) for a steady heap baseline.
 *   npm run bench:export -- [items]
 */
const CHARTQA_SAMPLE = resolve(process.cwd(), '../shared/data/chartqa-sample');
const BUDGET_SECONDS = 30;
/** Well under the document's size: holding the text (or its objects) would exceed it. */
const HEAP_BUDGET_BYTES = 60 * 1024 * 1024;

const items = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-export-'));
const db = openAndMigrate(join(dir, 'bench.sqlite'));

try {
  importSplit(db, CHARTQA_SAMPLE);
  const qa = db.prepare('SELECT q.id, q.chart_id FROM factual_qas q LIMIT 1').get() as { id: number; chart_id: number };
  // Raw rows, not the item service: verifying 100,000 items would time the verifier, not the export.
  const insert = db.prepare(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, status)
    VALUES (?, ?, 'human', 'Suppose x.', ?, '1', 'integer', 'r', 1, '1', '{}', 'accepted')`);
  db.transaction(() => {
    for (let i = 0; i < items; i++) insert.run(qa.id, qa.chart_id, `Suppose x. Question number ${i}?`);
  })();

  const out = new PassThrough();
  let bytes = 0;
  let peak = 0;
  out.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes % 64 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  });
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const result = await writeExport(db, out, { format: 'chart-hqa', name: 'bench', full: false });
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  const growth = peak - before;

  console.log(`exported ${result.items} items (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(2)} s = ${(result.items / seconds).toFixed(0)} items/s`);
  console.log(`heap growth ${(growth / 1e6).toFixed(1)} MB${globalThis.gc ? '' : ' (no --expose-gc: baseline not collected)'}`);
  const scaled = (seconds * 100_000) / items;
  console.log(`budget ${BUDGET_SECONDS} s for 100,000 items: ${scaled < BUDGET_SECONDS ? 'met' : 'MISSED'} (ratio ${(scaled / BUDGET_SECONDS).toFixed(2)} of budget${items === 100_000 ? '' : ', scaled linearly'})`);
  console.log(`heap budget ${HEAP_BUDGET_BYTES / 1024 / 1024} MiB: ${growth < HEAP_BUDGET_BYTES ? 'met' : 'MISSED'} (ratio ${(growth / HEAP_BUDGET_BYTES).toFixed(2)})`);
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
