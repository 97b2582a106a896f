import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { formatBytes, InputFileError } from './csv-table';
import { parseJsonFile } from './json-file';

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
export function readChartPng(dir: string, stem: string): { png: Buffer; sha256: string } | null {
  const path = join(dir, 'png', `${stem}.png`);
  if (!existsSync(path)) return null;
  const name = `png/${stem}.png`;
  const size = statSync(path).size;
  if (size > MAX_IMAGE_BYTES) throw new InputFileError(name, `the image is ${formatBytes(size)}; images may be at most ${formatBytes(MAX_IMAGE_BYTES)}`);
  const png = readFileSync(path);
  if (png.length === 0) throw new InputFileError(name, 'the image file is empty');
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new InputFileError(name, 'not a PNG image (bad signature)');
  return { png, sha256: sha256(png) };
}

/** The chart's annotation JSON if the split has one, validated for the keys the importer reads. */
export function readAnnotation(dir: string, stem: string): { text: string; annotation: Annotation } | null {
  const path = join(dir, 'annotations', `${stem}.json`);
  if (!existsSync(path)) return null;
  const name = `annotations/${stem}.json`;
  const size = statSync(path).size;
  if (size > MAX_ANNOTATION_BYTES) throw new InputFileError(name, `the file is ${formatBytes(size)}; annotations may be at most ${formatBytes(MAX_ANNOTATION_BYTES)}`);
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') throw new InputFileError(name, 'the file is empty');
  const data = parseJsonFile(text, name);
  const parsed = AnnotationSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputFileError(name, `${issue?.path.join('.') || 'annotation'}: ${issue?.message ?? 'invalid'}`);
  }
  return { text, annotation: parsed.data };
}
