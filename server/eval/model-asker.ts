import OpenAI from 'openai';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import { extractAnswer } from '../../shared/eval/answer-extraction';
import type { ModelPrice } from '../../shared/settings';
import { callCost } from '../llm/cost';
import { withRequestSignal } from '../llm/request-signal';
import { abortableSleep, classifyError, describeFailure, retryDelay, type Sleep } from '../llm/retry';

/** The instruction every question gets: ChartQA-style answers the scorer can compare. */
export const EVAL_SYSTEM_PROMPT = [
  'You answer questions about a chart.',
  'Work from what the chart shows and from any assumption the question makes about it: if the question says "suppose …", answer for the chart as changed by that assumption.',
  'End your reply with one line of the form "Answer: <answer>", where <answer> is a number without units or thousands separators (for example 42 or 3.5), Yes or No, or a label exactly as it appears on the chart.',
].join(' ');

export const EVAL_MAX_ATTEMPTS = 5;
/** Vision calls over big charts are slow; this is per attempt. */
const EVAL_TIMEOUT_MS = 120_000;

export interface EvalQuestion {
  text: string;
  /** The chart as PNG bytes; null sends no image (the no-image control). */
  png: Buffer | null;
}

export interface EvalAnswer {
  raw: string;
  prediction: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  attempts: number;
}

/** The question could not be answered: not retryable, retries used up, or cancelled. */
export class EvalAskError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
    readonly cancelled: boolean,
  ) {
    super(message);
  }
}

export interface ModelAsker {
  ask(question: EvalQuestion, signal?: AbortSignal): Promise<EvalAnswer>;
}

/**
 * Asks an OpenAI-compatible vision model one question, the chart as a base64 PNG data URL, at
 * temperature 0, retrying what a retry can fix (429, 5xx, timeouts) with full-jitter backoff.
 * `hqa eval` and the server's evaluation runs share it, so both ask the same way.
 */
export function openAiAsker(options: { apiKey: string; baseURL?: string | undefined; model: string; prices: Record<string, ModelPrice>; sleep?: Sleep }): ModelAsker {
  const client = new OpenAI({ apiKey: options.apiKey, ...(options.baseURL ? { baseURL: options.baseURL } : {}), maxRetries: 0, timeout: EVAL_TIMEOUT_MS });
  const sleep = options.sleep ?? abortableSleep;
  return {
    async ask(question, signal) {
      const content: ChatCompletionContentPart[] = [];
      if (question.png) content.push({ type: 'image_url', image_url: { url: `data:image/png;base64,${question.png.toString('base64')}` } });
      content.push({ type: 'text', text: question.text });
      for (let attempt = 1; ; attempt++) {
        try {
          const completion = await withRequestSignal(signal, (requestSignal) =>
            client.chat.completions.create(
              {
                model: options.model,
                temperature: 0,
                messages: [
                  { role: 'system', content: EVAL_SYSTEM_PROMPT },
                  { role: 'user', content },
                ],
              },
              requestSignal ? { signal: requestSignal } : {},
            ),
          );
          const raw = completion.choices[0]?.message.content ?? '';
          const usage = { prompt_tokens: completion.usage?.prompt_tokens ?? 0, completion_tokens: completion.usage?.completion_tokens ?? 0 };
          return { raw, prediction: extractAnswer(raw), ...usage, cost: callCost(options.model, usage, options.prices).cost, attempts: attempt };
        } catch (error) {
          const failure = classifyError(error);
          if (failure.kind === 'cancelled' || signal?.aborted) throw new EvalAskError('cancelled', attempt, true);
          if (!failure.retryable || attempt >= EVAL_MAX_ATTEMPTS) throw new EvalAskError(`${describeFailure(failure)} after ${attempt} attempt(s)`, attempt, false);
          await sleep(retryDelay(error, attempt), signal);
          if (signal?.aborted) throw new EvalAskError('cancelled', attempt, true);
        }
      }
    },
  };
}
