import { describe, expect, it } from 'vitest';
import { estimateImageTokens, imageTokenEstimate, qwenResize, visionFamily } from './image-tokens';

describe('estimateImageTokens', () => {
  it('counts OpenAI tiles as the vision guide works them: 85 + 170 per 512-px tile after the 2048 fit and 768 short side', () => {
    // The guide's own examples: 1024² → 768² → 4 tiles; 2048×4096 → 1024×2048 → 768×1536 → 6 tiles.
    expect(estimateImageTokens('gpt-4o', { width: 1024, height: 1024 }, 'high')).toBe(765);
    expect(estimateImageTokens('gpt-4o-2024-08-06', { width: 2048, height: 4096 }, 'high')).toBe(1105);
    expect(estimateImageTokens('gpt-4o', { width: 4096, height: 8192 }, 'low')).toBe(85);
    // A small image is not scaled up: 800×557 is 2×2 tiles.
    expect(estimateImageTokens('gpt-4.1', { width: 800, height: 557 }, 'high')).toBe(85 + 170 * 4);
  });

  it('estimates auto detail as high, the bound', () => {
    expect(estimateImageTokens('gpt-4o', { width: 1024, height: 1024 }, 'auto')).toBe(765);
  });

  it('bills gpt-4o-mini tiles at its own rates', () => {
    expect(estimateImageTokens('gpt-4o-mini', { width: 1024, height: 1024 }, 'high')).toBe(2833 + 5667 * 4);
    expect(estimateImageTokens('gpt-4o-mini', { width: 1024, height: 1024 }, 'low')).toBe(2833);
  });

  it('counts 32-px patches for the patch models, capped at 1536, times the model multiplier', () => {
    expect(estimateImageTokens('gpt-4.1-mini', { width: 1024, height: 1024 }, 'high')).toBe(Math.ceil(1024 * 1.62));
    // The guide's example: 1800×2400 is shrunk to 1452 patches.
    expect(estimateImageTokens('gpt-4.1-nano', { width: 1800, height: 2400 }, 'high')).toBe(Math.ceil(1452 * 2.46));
  });

  it('counts Qwen2-VL tokens as one per 28×28 cell of its smart_resize', () => {
    // The OWID chart: ~10,000 tokens sent whole, ~2,200 at the 1568-px default.
    expect(qwenResize({ width: 3400, height: 2400 })).toEqual({ width: 3388, height: 2408 });
    expect(estimateImageTokens('Qwen/Qwen2-VL-7B-Instruct', { width: 3400, height: 2400 }, 'high')).toBe(121 * 86);
    expect(estimateImageTokens('qwen2.5-vl-72b-instruct', { width: 1568, height: 1107 }, 'low')).toBe(56 * 40);
    expect(estimateImageTokens('Qwen2-VL-2B', { width: 800, height: 557 }, 'high')).toBe(29 * 20);
  });

  it('keeps a huge image under the Qwen pixel cap and a tiny one over its floor', () => {
    const huge = qwenResize({ width: 8000, height: 8000 });
    expect(huge.width * huge.height).toBeLessThanOrEqual(16384 * 28 * 28);
    expect(huge.width % 28).toBe(0);
    const tiny = qwenResize({ width: 20, height: 20 });
    expect(tiny.width * tiny.height).toBeGreaterThanOrEqual(4 * 28 * 28);
  });

  it('does not guess for a model of no known family', () => {
    expect(visionFamily('llava-1.6')).toBeNull();
    expect(estimateImageTokens('llava-1.6', { width: 800, height: 600 }, 'high')).toBeNull();
  });
});

describe('imageTokenEstimate', () => {
  it('prices the tokens at the model input price, and says null where the model has no price', () => {
    const prices = { 'gpt-4o': { input_per_mtok: 2.5, output_per_mtok: 10 } };
    expect(imageTokenEstimate('gpt-4o', { width: 1024, height: 1024 }, 'high', prices)).toEqual({ tokens: 765, cost: (765 * 2.5) / 1e6 });
    expect(imageTokenEstimate('qwen2-vl-7b', { width: 800, height: 557 }, 'high', prices)).toEqual({ tokens: 580, cost: null });
  });
});
