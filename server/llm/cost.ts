import type { ModelPrice } from '../../shared/settings';

/** Prices in the table are per million tokens. */
const TOKENS_PER_PRICE_UNIT = 1_000_000;

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /**
   * Of `prompt_tokens`, those the endpoint served from its prompt cache
   * (`usage.prompt_tokens_details.cached_tokens`); absent where the endpoint does not say.
   */
  cached_tokens?: number;
}

/** A call's cost; `priced` is false when the model has no entry, so the UI can say "no price" rather than "free". */
export interface CallCost {
  cost: number;
  priced: boolean;
}

/**
 * The money a call cost under the settings' price table. A model missing from the table
 * costs 0 with `priced: false`: local models (vLLM, Ollama) are usually free, and a budget
 * cap in money cannot be enforced for them — only a token cap can. Cached prompt tokens cost
 * the entry's `cached_input_per_mtok` where it gives one, else the input price.
 */
export function callCost(model: string, usage: TokenUsage, priceTable: Record<string, ModelPrice>): CallCost {
  const price = Object.hasOwn(priceTable, model) ? priceTable[model] : undefined;
  if (!price) return { cost: 0, priced: false };
  // Never more than the prompt: a confused endpoint must not make a call cost less than nothing.
  const cached = Math.min(Math.max(usage.cached_tokens ?? 0, 0), usage.prompt_tokens);
  const input = (usage.prompt_tokens - cached) * price.input_per_mtok + cached * (price.cached_input_per_mtok ?? price.input_per_mtok);
  return { cost: (input + usage.completion_tokens * price.output_per_mtok) / TOKENS_PER_PRICE_UNIT, priced: true };
}

/**
 * A call answered through the Batch API: the price table's cost times `discount` (the
 * `batch_discount` setting; OpenAI bills batches at half price). Unpriced stays unpriced.
 */
export function batchCallCost(model: string, usage: TokenUsage, priceTable: Record<string, ModelPrice>, discount: number): CallCost {
  const full = callCost(model, usage, priceTable);
  return { cost: full.cost * discount, priced: full.priced };
}
