import type { ModelPrice } from '../../shared/settings';
import type { ImageDetail } from '../../shared/settings';
import { callCost } from './cost';

/**
 * What an image in a request costs in prompt tokens, estimated from its size as the model's
 * family reads it. Endpoints count image tokens in `prompt_tokens` without saying how many were
 * the image's, so this is the only way to see what the image size setting saves.
 *
 * Sources of the formulas:
 * - OpenAI tile models (gpt-4o, gpt-4.1, gpt-4-turbo, o1/o3): platform.openai.com/docs/guides/images-vision,
 *   "Calculating costs": `low` is a flat 85 tokens; `high` scales the image to fit 2048×2048,
 *   then its short side to 768, and costs 85 + 170 per 512-px tile. gpt-4o-mini bills the same
 *   tiles at 2833 + 5667 per tile.
 * - OpenAI patch models (gpt-4.1-mini, gpt-4.1-nano, o4-mini): same page: 32-px patches, at most
 *   1536 (the image shrunk to fit), times a per-model multiplier (1.62, 2.46, 1.72).
 * - Qwen2-VL / Qwen2.5-VL (vLLM and other local servers): `smart_resize` in qwen-vl-utils
 *   (github.com/QwenLM/Qwen2-VL, vision_process.py): each side rounded to a multiple of 28
 *   (14-px patches merged 2×2), the area kept within 4×28² … 16384×28² pixels; one token per
 *   28×28 cell. Qwen ignores `detail`.
 * `auto` is estimated as `high`: OpenAI does not document how it chooses, and high is the bound.
 */

export type VisionFamily = 'openai-tiles' | 'openai-mini-tiles' | 'openai-patches' | 'qwen-vl';

export interface ImageSize {
  width: number;
  height: number;
}

const OPENAI_TILE = 512;
const OPENAI_FIT = 2048;
const OPENAI_SHORT_SIDE = 768;
const TILE_TOKENS: Record<'openai-tiles' | 'openai-mini-tiles', { base: number; tile: number }> = {
  'openai-tiles': { base: 85, tile: 170 },
  'openai-mini-tiles': { base: 2833, tile: 5667 },
};
const PATCH = 32;
const MAX_PATCHES = 1536;
/** Billing multipliers of the patch models, by name prefix (longest first so `gpt-4.1-mini` is not taken for `gpt-4.1`). */
const PATCH_MULTIPLIERS: [prefix: string, multiplier: number][] = [
  ['gpt-4.1-mini', 1.62],
  ['gpt-4.1-nano', 2.46],
  ['o4-mini', 1.72],
];
const QWEN_FACTOR = 28;
const QWEN_MIN_PIXELS = 4 * QWEN_FACTOR * QWEN_FACTOR;
const QWEN_MAX_PIXELS = 16384 * QWEN_FACTOR * QWEN_FACTOR;

/** The family a model name belongs to, or null when its image tokens cannot be estimated. */
export function visionFamily(model: string): VisionFamily | null {
  const name = model.toLowerCase().split('/').at(-1) ?? '';
  if (/qwen[\d.]*-?vl/.test(name)) return 'qwen-vl';
  if (PATCH_MULTIPLIERS.some(([prefix]) => name.startsWith(prefix))) return 'openai-patches';
  if (name.startsWith('gpt-4o-mini')) return 'openai-mini-tiles';
  if (/^(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4\.5|o1|o3)/.test(name)) return 'openai-tiles';
  return null;
}

function openAiTiles(size: ImageSize, detail: ImageDetail, costs: { base: number; tile: number }): number {
  if (detail === 'low') return costs.base;
  let { width, height } = size;
  const fit = Math.min(1, OPENAI_FIT / Math.max(width, height));
  width *= fit;
  height *= fit;
  const short = Math.min(1, OPENAI_SHORT_SIDE / Math.min(width, height));
  width *= short;
  height *= short;
  return costs.base + costs.tile * Math.ceil(width / OPENAI_TILE) * Math.ceil(height / OPENAI_TILE);
}

function openAiPatches(size: ImageSize, multiplier: number): number {
  const { width, height } = size;
  let patches = Math.ceil(width / PATCH) * Math.ceil(height / PATCH);
  if (patches > MAX_PATCHES) {
    const shrink = Math.sqrt((PATCH * PATCH * MAX_PATCHES) / (width * height));
    // Shrunk further so whole patches fit each side, as OpenAI's worked example does.
    const adjusted = shrink * Math.min(Math.floor((width * shrink) / PATCH) / ((width * shrink) / PATCH), Math.floor((height * shrink) / PATCH) / ((height * shrink) / PATCH));
    patches = Math.min(MAX_PATCHES, Math.ceil((width * adjusted) / PATCH) * Math.ceil((height * adjusted) / PATCH));
  }
  return Math.ceil(patches * multiplier);
}

/** Qwen2-VL's `smart_resize`: the size the model actually encodes. */
export function qwenResize(size: ImageSize): ImageSize {
  const { width, height } = size;
  let h = Math.max(QWEN_FACTOR, Math.round(height / QWEN_FACTOR) * QWEN_FACTOR);
  let w = Math.max(QWEN_FACTOR, Math.round(width / QWEN_FACTOR) * QWEN_FACTOR);
  if (h * w > QWEN_MAX_PIXELS) {
    const beta = Math.sqrt((height * width) / QWEN_MAX_PIXELS);
    h = Math.floor(height / beta / QWEN_FACTOR) * QWEN_FACTOR;
    w = Math.floor(width / beta / QWEN_FACTOR) * QWEN_FACTOR;
  } else if (h * w < QWEN_MIN_PIXELS) {
    const beta = Math.sqrt(QWEN_MIN_PIXELS / (height * width));
    h = Math.ceil((height * beta) / QWEN_FACTOR) * QWEN_FACTOR;
    w = Math.ceil((width * beta) / QWEN_FACTOR) * QWEN_FACTOR;
  }
  return { width: w, height: h };
}

/** The prompt tokens one image of `size` takes for `model` at `detail`; null for a model of no known family. */
export function estimateImageTokens(model: string, size: ImageSize, detail: ImageDetail): number | null {
  const family = visionFamily(model);
  switch (family) {
    case null:
      return null;
    case 'openai-tiles':
    case 'openai-mini-tiles':
      return openAiTiles(size, detail, TILE_TOKENS[family]);
    case 'openai-patches': {
      const name = model.toLowerCase().split('/').at(-1) ?? '';
      const multiplier = PATCH_MULTIPLIERS.find(([prefix]) => name.startsWith(prefix))?.[1] ?? 1;
      return openAiPatches(size, multiplier);
    }
    case 'qwen-vl': {
      const encoded = qwenResize(size);
      return (encoded.width / QWEN_FACTOR) * (encoded.height / QWEN_FACTOR);
    }
  }
}

/** An image's estimated tokens and their price at the model's input price; `cost` is null where either is unknown. */
export interface ImageTokenEstimate {
  tokens: number | null;
  cost: number | null;
}

export function imageTokenEstimate(model: string, size: ImageSize, detail: ImageDetail, prices: Record<string, ModelPrice>): ImageTokenEstimate {
  const tokens = estimateImageTokens(model, size, detail);
  if (tokens === null) return { tokens: null, cost: null };
  const priced = callCost(model, { prompt_tokens: tokens, completion_tokens: 0 }, prices);
  return { tokens, cost: priced.priced ? priced.cost : null };
}

/** What one request's images are estimated to take: how many, and their summed tokens (null when the model has no known formula). */
export interface RequestImages {
  count: number;
  tokens: number | null;
}

/** The request's images as sent (`prepareVisionImage`'s sizes and detail), estimated for `model`; none: 0 tokens. */
export function requestImages(model: string, images: readonly { size: ImageSize; detail: ImageDetail }[]): RequestImages {
  let tokens: number | null = 0;
  for (const image of images) {
    const one = estimateImageTokens(model, image.size, image.detail);
    tokens = one === null || tokens === null ? null : tokens + one;
  }
  return { count: images.length, tokens };
}

/**
 * The `llm_calls` columns of a request's images, priced by `price` (the call's own: the price
 * table's, or the batch price). Like `prompt_tokens`, whose part they are, the tokens are 0 on a
 * request that got no reply (`billed` false): nothing was billed for it.
 */
export function imageColumns(
  images: RequestImages | undefined,
  billed: boolean,
  price: (tokens: number) => { cost: number; priced: boolean },
): { images: number | null; image_tokens: number | null; image_cost: number | null } {
  if (!images) return { images: null, image_tokens: null, image_cost: null };
  if (images.tokens === null) return { images: images.count, image_tokens: null, image_cost: null };
  const tokens = billed ? images.tokens : 0;
  const priced = price(tokens);
  return { images: images.count, image_tokens: tokens, image_cost: priced.priced ? priced.cost : null };
}
