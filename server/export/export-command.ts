import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { openAndMigrate } from '../../db/database';
import { ExportFormatSchema } from '../../shared/export/chart-hqa';
import { chartImage } from '../charts/chart-image';
import { closeRenderPool } from '../charts/render-pool';
import { loadConfig } from '../config';
import { writeExport } from './export-writer';

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

/** `hqa export`: the accepted items to a file, streamed; chart images (original or rendered) beside it on request. */
export async function runExport(options: ExportCommandOptions): Promise<number> {
  const format = ExportFormatSchema.safeParse(options.format);
  if (!format.success) throw new Error(`--format: must be one of ${ExportFormatSchema.options.join(', ')}`);
  if (options.full && format.data === 'chartqa') throw new Error('--full: the chartqa format has no room for provenance; use chart-hqa or jsonl');
  if (options.full && format.data === 'pairs') throw new Error('--full: the pairs format has no room for provenance; use chart-hqa or jsonl');
  const db = openAndMigrate(loadConfig().dbPath);
  try {
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
    const report = { out: options.out, format: format.data, items: result.items, images, seconds: Math.round(performance.now() - started) / 1000, stats: result.stats, ...(result.pairs ? { pairs: result.pairs } : {}) };
    process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : `exported ${result.items} ${result.pairs ? `judgement pairs from ${result.pairs.considered} accepted items (skipped: ${skippedText(result.pairs.skipped)})` : 'items'} (${format.data}) to ${options.out}${options.images ? `, ${images} images to ${options.images}` : ''}\n`);
    return 0;
  } finally {
    await closeRenderPool();
    db.close();
  }
}
