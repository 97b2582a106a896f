import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import type { ImageDetail, Settings } from '../../shared/settings';
import { imageMediaType } from '../import/benchmark-image';
import type { ImageSize } from './image-tokens';

/**
 * The one way a chart image goes into a vision request: scaled down (never up) so its longest
 * side is at most the `vision_max_side` setting, in its own format, as a base64 data URL with
 * the `detail` asked for. An endpoint reads the pixels it is sent and bills for them, so a
 * 3400×2400 chart sent whole buys tokens no encoder uses.
 */

/** OpenAI reads a `low` detail image as a 512-px copy: sending more is bytes for nothing. */
const LOW_DETAIL_SIDE = 512;

export interface VisionImageOptions {
  maxSide: number;
  detail: ImageDetail;
}

/** The vision settings as `prepareVisionImage` takes them. */
export const visionOptions = (settings: Pick<Settings, 'vision_max_side' | 'vision_detail'>): VisionImageOptions => ({ maxSide: settings.vision_max_side, detail: settings.vision_detail });

export interface VisionImage {
  /** `data:<media type>;base64,…` */
  url: string;
  detail: ImageDetail;
  /** As sent. */
  size: ImageSize;
  /** As stored. */
  original: ImageSize;
}

/** The size that fits `size` within `maxSide` on its longest side, aspect kept; `size` itself when it fits already. */
export function fitWithin(size: ImageSize, maxSide: number): ImageSize {
  const longest = Math.max(size.width, size.height);
  if (longest <= maxSide) return size;
  const scale = maxSide / longest;
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/**
 * Charts scaled lately, by bytes and options: a chart asked about in many questions (an
 * evaluation run, Stage 2's tasks) is scaled once, not per request. Bounded: a scaled OWID chart
 * is ~270 KB of base64 at the default side.
 */
const RECENT_LIMIT = 64;
const recent = new Map<string, Promise<VisionImage>>();

/** The image as a vision request sends it (see above); the same bytes and options give the same bytes out. */
export function prepareVisionImage(image: Buffer, options: VisionImageOptions): Promise<VisionImage> {
  const key = `${createHash('sha256').update(image).digest('hex')}:${options.maxSide}:${options.detail}`;
  const known = recent.get(key);
  if (known) {
    // Most recently used last: the oldest is evicted first.
    recent.delete(key);
    recent.set(key, known);
    return known;
  }
  const pending = scale(image, options);
  recent.set(key, pending);
  // A failure is not kept: the next request tries again (and fails with its reason).
  pending.catch(() => recent.delete(key));
  if (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value as string);
  return pending;
}

async function scale(image: Buffer, options: VisionImageOptions): Promise<VisionImage> {
  const mediaType = imageMediaType(image) ?? 'image/png';
  // The size from the header: most images are sent as they are, and sharp's decoder (its
  // options, a hop to libuv's pool) cost an evaluation's loop about a millisecond a question.
  const meta = readableSize(image);
  if (!meta) throw new Error(`a chart image (${mediaType}, ${image.length} bytes) has no readable size`);
  const original = { width: meta.width, height: meta.height };
  const maxSide = options.detail === 'low' ? Math.min(options.maxSide, LOW_DETAIL_SIDE) : options.maxSide;
  const size = fitWithin(original, maxSide);
  if (size === original) return { url: dataUrl(mediaType, image), detail: options.detail, size, original };
  // sharp (libvips) is loaded for the first image too large to send: most never are, and a server's start need not load it.
  const { default: sharp } = await import('sharp');
  const resized = sharp(image).resize({ width: size.width, height: size.height, fit: 'fill' });
  const bytes = mediaType === 'image/jpeg' ? await resized.jpeg({ quality: 90 }).toBuffer() : await resized.png().toBuffer();
  return { url: dataUrl(mediaType === 'image/jpeg' ? 'image/jpeg' : 'image/png', bytes), detail: options.detail, size, original };
}

const dataUrl = (mediaType: string, bytes: Buffer) => `data:${mediaType};base64,${bytes.toString('base64')}`;

function readableSize(image: Buffer): ImageSize | null {
  try {
    const { width, height } = imageSize(image);
    return width > 0 && height > 0 ? { width, height } : null;
  } catch {
    return null;
  }
}
