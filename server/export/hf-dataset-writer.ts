import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Db } from '../../db/database';
import { itemIdOfExportId, type ExportStats } from '../../shared/export/chart-hqa';
import { HF_CARD_FILE, HF_COUNTERFACTUAL_DIR, HF_METADATA_FILE, hfCounterfactualPath, hfImagePath, type HfGroupMetadataLine, type HfMetadataLine } from '../../shared/export/hf-dataset';
import { chartImage } from '../charts/chart-image';
import { conditionDrawing, itemDrawingPlan } from '../eval/condition-drawings';
import { getSettings } from '../settings/settings-queries';
import { datasetCard } from './dataset-card';
import { writeExport } from './export-writer';

/**
 * `hqa export --format hf-dataset --out DIR`: the accepted items as the `jsonl` export writes them,
 * each with its chart's `file_name` (a group item: its edited chart's, and every chart under `image_files`), into `DIR/metadata.jsonl`; each chart once as a PNG under
 * `DIR/images/`; each item's counterfactual drawing under `DIR/counterfactual/`; the dataset card as `DIR/README.md`, written last, from the same stats.
 */
export async function writeHfDataset(db: Db, dir: string, options: { name: string }, now = new Date()): Promise<{ stats: ExportStats; items: number; images: number }> {
  mkdirSync(dir, { recursive: true });
  const out = createWriteStream(join(dir, HF_METADATA_FILE));
  let images = 0;
  let groupItems = 0;
  // Drawn after the lines are written: a line is made synchronously, a drawing on the render threads.
  const drawings: { itemId: number; file: string }[] = [];
  const counterfactualFile = (exportId: string): string | null => {
    const itemId = itemIdOfExportId(exportId);
    if (itemId === null || !itemDrawingPlan(db, itemId).plan.ok) return null;
    const file = hfCounterfactualPath(exportId);
    drawings.push({ itemId, file });
    return file;
  };
  const result = await writeExport(
    db,
    out,
    {
      format: 'jsonl',
      name: options.name,
      full: false,
      line: (item): HfMetadataLine | HfGroupMetadataLine => {
        if ('imgname' in item) return { file_name: hfImagePath(item.imgname), counterfactual_image_file_name: counterfactualFile(item.id), ...item };
        groupItems++;
        const files = item.images.map(hfImagePath);
        const shown = files[(item.edited_chart ?? 1) - 1] ?? (files[0] as string);
        return { file_name: shown, image_files: files, ...item };
      },
      onChart: async (chart) => {
        const image = await chartImage(db, chart.id);
        // An accepted item's chart exists (the export joins it): a missing one is a broken database.
        if (!image) throw new Error(`chart ${chart.id} (${chart.imgname}): no image and no table to draw it from`);
        const file = join(dir, hfImagePath(chart.imgname));
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, image.png);
        images++;
      },
    },
    now,
  );
  out.end();
  await finished(out);
  if (drawings.length > 0) mkdirSync(join(dir, HF_COUNTERFACTUAL_DIR), { recursive: true });
  for (const { itemId, file } of drawings) {
    writeFileSync(join(dir, file), await conditionDrawing(db, itemId, 'drawn_counterfactual'));
  }
  writeFileSync(join(dir, HF_CARD_FILE), datasetCard({ name: options.name, items: result.items, images, stats: result.stats, settings: getSettings(db), createdAt: now, groupItems }));
  return { stats: result.stats, items: result.items, images };
}
