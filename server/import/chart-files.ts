import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InputFileError } from './input-file-error';
import { parseJsonFile } from './json-file';
import type { SplitFolder } from './split-folder';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_ANNOTATION_BYTES = 5 * 1024 * 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The parts of a ChartQA annotation the importer uses; the whole file is kept as text. */
const AnnotationSchema = z.looseObject({
  type: z.string().optional(),
  general_figure_info: z
    .looseObject({ title: z.looseObject({ text: z.string().optional() }).optional() })
    .optional(),
  models: z.array(z.unknown()).optional(),
});
export type Annotation = z.infer<typeof AnnotationSchema>;

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The chart's PNG if the split has one. Missing is normal (the chart is rendered); a broken one is an error. */
export function readChartPng(folder: SplitFolder, stem: string): { png: Buffer; sha256: string } | null {
  const name = `png/${stem}.png`;
  const png = folder.readBytes(name, { maxBytes: MAX_IMAGE_BYTES, kind: 'images' });
  if (png === null) return null;
  if (png.length === 0) throw new InputFileError(name, 'the image file is empty');
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new InputFileError(name, 'not a PNG image (bad signature)');
  return { png, sha256: sha256(png) };
}

/** The chart's annotation JSON if the split has one, validated for the keys the importer reads. */
export function readAnnotation(folder: SplitFolder, stem: string): { text: string; annotation: Annotation } | null {
  const name = `annotations/${stem}.json`;
  const text = folder.readText(name, { maxBytes: MAX_ANNOTATION_BYTES, kind: 'annotations' });
  if (text === null) return null;
  if (text.trim() === '') throw new InputFileError(name, 'the file is empty');
  const data = parseJsonFile(text, name);
  const parsed = AnnotationSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputFileError(name, `${issue?.path.join('.') || 'annotation'}: ${issue?.message ?? 'invalid'}`);
  }
  return { text, annotation: parsed.data };
}
