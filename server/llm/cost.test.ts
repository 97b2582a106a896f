import { describe, expect, it } from 'vitest';
import { callCost } from './cost';

const prices = { 'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 } };

describe('callCost', () => {
  it('charges prompt and completion tokens at their per-million prices', () => {
    const { cost, priced } = callCost('gpt-4o-mini', { prompt_tokens: 2_000_000, completion_tokens: 500_000 }, prices);

    expect(priced).toBe(true);
    expect(cost).toBeCloseTo(0.3 + 0.3, 10);
  });

  it('costs nothing for zero tokens', () => {
    expect(callCost('gpt-4o-mini', { prompt_tokens: 0, completion_tokens: 0 }, prices)).toEqual({ cost: 0, priced: true });
  });

  it('flags a model missing from the table instead of calling it free', () => {
    expect(callCost('llama-3-8b', { prompt_tokens: 1000, completion_tokens: 1000 }, prices)).toEqual({ cost: 0, priced: false });
  });

  it('does not mistake inherited object keys for models', () => {
    expect(callCost('constructor', { prompt_tokens: 1000, completion_tokens: 1000 }, prices).priced).toBe(false);
  });
});
