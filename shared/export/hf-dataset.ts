import { z } from 'zod';
import { ExportItemSchema, GroupExportItemSchema } from './chart-hqa';

/**
 * `hf-dataset`: a folder in the Hugging Face `imagefolder` layout — `metadata.jsonl` (one export
 * item per line, its chart under `file_name`, relative to the folder), `images/` and a `README.md`
 * dataset card. `datasets` turns `file_name` into the `image` column; the rest are the item's fields.
 */
export const HF_METADATA_FILE = 'metadata.jsonl';
export const HF_IMAGES_DIR = 'images';
export const HF_CARD_FILE = 'README.md';
/** One split: the benchmark is for evaluation. */
export const HF_SPLIT = 'test';

export const HF_COUNTERFACTUAL_DIR = 'counterfactual';

export const HfMetadataLineSchema = ExportItemSchema.extend({
  /** The chart image, relative to the folder: `images/<imgname>` (PNG). */
  file_name: z.string(),
  /**
   * The item's edited table drawn (`counterfactual/<id>.png`), in the style of a drawing of its
   * original table (the evaluation's `counterfactual_image` condition); null when the edit cannot
   * be drawn. `imagefolder` loads a `*_file_name` column as the image column `counterfactual_image`.
   */
  counterfactual_image_file_name: z.string().nullable(),
});

/**
 * A line of an item over a chart group. `imagefolder` loads one image per row, from `file_name`:
 * it is the chart the assumption edits (chart 1 without a readable edit), so the `image` column
 * always holds a chart of the item. Every chart, in group order, is under `image_files` (paths
 * relative to the folder, as `file_name` is), a plain list column that a loader opens itself;
 * the dataset card says so.
 */
export const HfGroupMetadataLineSchema = GroupExportItemSchema.extend({
  file_name: z.string(),
  image_files: z.array(z.string()).min(2).max(4),
});

export type HfMetadataLine = z.infer<typeof HfMetadataLineSchema>;
export type HfGroupMetadataLine = z.infer<typeof HfGroupMetadataLineSchema>;
/** Any line of `metadata.jsonl`: one chart's item or a group item's. */
export const HfAnyMetadataLineSchema = z.union([HfMetadataLineSchema, HfGroupMetadataLineSchema]);

/** `counterfactual/<id>.png`: an item's counterfactual drawing. */
export const hfCounterfactualPath = (id: string) => `${HF_COUNTERFACTUAL_DIR}/${id}.png`;

/** `images/<imgname>`, with `.png` added when the chart's name has another ending: the file is a PNG. */
export function hfImagePath(imgname: string): string {
  return `${HF_IMAGES_DIR}/${imgname.toLowerCase().endsWith('.png') ? imgname : `${imgname}.png`}`;
}
