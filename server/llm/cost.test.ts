import { describe, expect, it } from 'vitest';
import { SettingsSchema } from '../../shared/settings';
import { batchCallCost, callCost } from './cost';

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

  it('charges cached prompt tokens at the cached input price, the rest of the prompt at the input price', () => {
    const table = { m: { input_per_mtok: 2, cached_input_per_mtok: 0.5, output_per_mtok: 8 } };
    const { cost } = callCost('m', { prompt_tokens: 1_000_000, cached_tokens: 600_000, completion_tokens: 100_000 }, table);
    expect(cost).toBeCloseTo(0.4 * 2 + 0.6 * 0.5 + 0.1 * 8, 10);
    // A batch's discount applies to the whole, cached part included.
    expect(batchCallCost('m', { prompt_tokens: 1_000_000, cached_tokens: 600_000, completion_tokens: 100_000 }, table, 0.5).cost).toBeCloseTo(cost / 2, 10);
  });

  it('charges cached tokens at the input price when the entry gives no cached price', () => {
    const cached = callCost('gpt-4o-mini', { prompt_tokens: 2_000_000, cached_tokens: 1_500_000, completion_tokens: 0 }, prices);
    expect(cached.cost).toBeCloseTo(callCost('gpt-4o-mini', { prompt_tokens: 2_000_000, completion_tokens: 0 }, prices).cost, 10);
  });

  it('never counts more cached tokens than the prompt had', () => {
    const table = { m: { input_per_mtok: 2, cached_input_per_mtok: 0, output_per_mtok: 0 } };
    expect(callCost('m', { prompt_tokens: 100, cached_tokens: 500, completion_tokens: 0 }, table).cost).toBe(0);
    expect(callCost('m', { prompt_tokens: 1_000_000, cached_tokens: -5, completion_tokens: 0 }, table).cost).toBeCloseTo(2, 10);
  });

  it('keeps a price table saved without cached prices valid, and the defaults give OpenAI\'s cached prices', () => {
    const saved = SettingsSchema.parse({ price_table: { 'gpt-4o': { input_per_mtok: 2.5, output_per_mtok: 10 } } });
    expect(saved.price_table['gpt-4o']).toEqual({ input_per_mtok: 2.5, output_per_mtok: 10 });
    expect(SettingsSchema.parse({}).price_table['gpt-4o-mini']).toEqual({ input_per_mtok: 0.15, cached_input_per_mtok: 0.075, output_per_mtok: 0.6 });
  });
});
