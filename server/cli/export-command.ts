import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { z } from 'zod';
import { openAndMigrate, type Db } from '../../db/database';
import { ExportFormatSchema } from '../../shared/export/chart-hqa';
import { chartImage } from '../charts/chart-image';
import { loadConfig } from '../config';
import { writeExport } from '../export/export-writer';
import { emptyExportRefusal } from '../export/export-readiness';
import { writeHfDataset } from '../export/hf-dataset-writer';

export interface ExportCommandOptions {
  out: string;
  format: string;
  name: string;
  full?: boolean;
  images?: string;
  json?: boolean;
}

/** "label_answer 3, not_numeric 5" — or "none". */
function skippedText(skipped: Record<string, number>): string {
  const counted = Object.entries(skipped).filter(([, n]) => n > 0);
  return counted.length === 0 ? 'none' : counted.map(([reason, n]) => `${reason} ${n}`).join(', ');
}

/** `hf-dataset` is a folder, not a stream: on the command line a format of its own, from the page a zip. */
const HF_DATASET = 'hf-dataset';

/** `hqa export`: the accepted items to a file, streamed; chart images (original or rendered) beside it on request. */
export async function runExport(options: ExportCommandOptions): Promise<number> {
  const format = ExportFormatSchema.or(z.literal(HF_DATASET)).safeParse(options.format);
  if (!format.success) throw new Error(`--format: must be one of ${[...ExportFormatSchema.options, HF_DATASET].join(', ')}`);
  if (format.data === HF_DATASET) {
    if (options.full) throw new Error('--full: the hf-dataset format holds the items\' public fields; use chart-hqa or jsonl for provenance');
    if (options.images) throw new Error('--images: the hf-dataset format writes the images into --out DIR/images');
  }
  if (options.full && format.data === 'chartqa') throw new Error('--full: the chartqa format has no room for provenance; use chart-hqa or jsonl');
  if (options.full && format.data === 'pairs') throw new Error('--full: the pairs format has no room for provenance; use chart-hqa or jsonl');
  const db = openAndMigrate(loadConfig().dbPath);
  try {
    // An empty export is a mistake to explain, not a file to write: nothing is created.
    const refusal = emptyExportRefusal(db);
    if (refusal !== null) throw new Error(refusal);
    if (format.data === HF_DATASET) return await runHfExport(db, options);
    if (options.images) mkdirSync(options.images, { recursive: true });
    let images = 0;
    const out = createWriteStream(options.out);
    const started = performance.now();
    const result = await writeExport(db, out, {
      format: format.data,
      name: options.name,
      full: options.full ?? false,
      ...(options.images
        ? {
            onChart: async (chart: { id: number; imgname: string }) => {
              const image = await chartImage(db, chart.id);
              if (!image || !options.images) return;
              const file = join(options.images, chart.imgname);
              mkdirSync(dirname(file), { recursive: true });
              writeFileSync(file, image.png);
              images++;
            },
          }
        : {}),
    });
    out.end();
    await finished(out);
    const report = {
      out: options.out,
      format: format.data,
      items: result.items,
      images,
      seconds: Math.round(performance.now() - started) / 1000,
      stats: result.stats,
      ...(result.pairs ? { pairs: result.pairs } : {}),
      ...(result.skipped_group_items ? { skipped_group_items: result.skipped_group_items } : {}),
    };
    // ChartQA's files have one image per question: items over a chart group are left out, and said so.
    const leftOut = result.skipped_group_items ? ` (${result.skipped_group_items} items over a chart group left out: the chartqa format names one image per question; use chart-hqa or jsonl)` : '';
    process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : `exported ${result.items} ${result.pairs ? `judgement pairs from ${result.pairs.considered} accepted items (skipped: ${skippedText(result.pairs.skipped)})` : 'items'} (${format.data}) to ${options.out}${options.images ? `, ${images} images to ${options.images}` : ''}${leftOut}\n`);
    return 0;
  } finally {
    db.close();
  }
}

async function runHfExport(db: Db, options: ExportCommandOptions): Promise<number> {
  const started = performance.now();
  const result = await writeHfDataset(db, options.out, { name: options.name });
  const report = { out: options.out, format: HF_DATASET, items: result.items, images: result.images, seconds: Math.round(performance.now() - started) / 1000, stats: result.stats };
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : `exported ${result.items} items and ${result.images} images (${HF_DATASET}: metadata.jsonl, images/, README.md) to ${options.out}\n`);
  return 0;
}
