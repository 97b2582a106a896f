import { z } from 'zod';
import { ExportItemSchema } from './chart-hqa';

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

export const HfMetadataLineSchema = ExportItemSchema.extend({
  /** The chart image, relative to the folder: `images/<imgname>` (PNG). */
  file_name: z.string(),
});
export type HfMetadataLine = z.infer<typeof HfMetadataLineSchema>;

/** `images/<imgname>`, with `.png` added when the chart's name has another ending: the file is a PNG. */
export function hfImagePath(imgname: string): string {
  return `${HF_IMAGES_DIR}/${imgname.toLowerCase().endsWith('.png') ? imgname : `${imgname}.png`}`;
}
