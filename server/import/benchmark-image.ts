import { MAX_IMAGE_BYTES, sha256 } from './chart-files';
import { InputFileError } from './input-file-error';
import type { SplitFolder } from './split-folder';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

/** The image's media type from its first bytes (benchmarks publish PNG and JPEG). */
export function imageMediaType(bytes: Buffer): 'image/png' | 'image/jpeg' | null {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.subarray(0, 3).equals(JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

/**
 * A benchmark chart's image, from the first of `names` that exists under `folder` (read only
 * inside it, by realpath). Null: no image folder was given, or none of the names is there
 * (the chart is then "image missing"). A file that is there but empty or not an image is an error.
 */
export function readBenchmarkImage(folder: SplitFolder | null, names: string[]): { png: Buffer; sha256: string } | null {
  if (folder === null) return null;
  for (const name of names) {
    const bytes = folder.readBytes(name, { maxBytes: MAX_IMAGE_BYTES, kind: 'images' });
    if (bytes === null) continue;
    if (bytes.length === 0) throw new InputFileError(name, 'the image file is empty');
    if (imageMediaType(bytes) === null) throw new InputFileError(name, 'not a PNG or JPEG image (bad signature)');
    return { png: bytes, sha256: sha256(bytes) };
  }
  return null;
}

/** A benchmark's relative image path, refused when it would leave the image folder. */
export function safeRelativePath(path: string): string | null {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (path.startsWith('/') || parts.length === 0 || parts.some((part) => part === '..')) return null;
  return parts.join('/');
}
