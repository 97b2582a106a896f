import { createHash } from 'node:crypto';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { Db } from '../../db/database';
import { extractAnswer } from '../../shared/eval/answer-extraction';
import { createTransport, type ChatBody, type ModelConnection } from '../llm/provider';
import { describeFailure, type Sleep } from '../llm/retry';

/** The instruction every question gets: ChartQA-style answers the scorer can compare. */
export const EVAL_SYSTEM_PROMPT = [
  'You answer questions about a chart.',
  'Work from what the chart shows and from any assumption the question makes about it: if the question says "suppose …", answer for the chart as changed by that assumption.',
  'End your reply with one line of the form "Answer: <answer>", where <answer> is a number without units or thousands separators (for example 42 or 3.5), Yes or No, or a label exactly as it appears on the chart.',
].join(' ');

/** The prompt is no template file; its hash still traces each recorded call to the exact text. */
export const EVAL_TEMPLATE = { name: 'evaluation', hash: createHash('sha256').update(EVAL_SYSTEM_PROMPT).digest('hex') };

export interface EvalQuestion {
  text: string;
  /** The chart as PNG bytes; null sends no image (the no-image control). */
  png: Buffer | null;
  /**
   * An item over a chart group: every chart's PNG in group order, sent in place of `png`, each
   * after a "Chart N:" label, since the question names the charts by position.
   */
  charts?: readonly Buffer[];
}

const imagePart = (png: Buffer): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } });

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

/**
 * What one question sends, at temperature 0 with the chart as a base64 PNG data URL (a group
 * item's charts each labelled, in order): the body
 * of a call on its own and of its line in a batch (`--batch`, `--batch-out`) alike.
 */
export function evalChatBody(question: EvalQuestion): ChatBody {
  const content: ChatCompletionContentPart[] = [];
  if (question.charts && question.charts.length > 0) {
    question.charts.forEach((png, index) => content.push({ type: 'text', text: `Chart ${index + 1}:` }, imagePart(png)));
  } else if (question.png) {
    content.push(imagePart(question.png));
  }
  content.push({ type: 'text', text: question.text });
  return {
    temperature: 0,
    messages: [
      { role: 'system', content: EVAL_SYSTEM_PROMPT },
      { role: 'user', content },
    ],
  };
}

export interface ModelAsker {
  ask(question: EvalQuestion, signal?: AbortSignal): Promise<EvalAnswer>;
}

export interface OpenAiAskerOptions {
  /** Where every attempt is recorded (`llm_calls`, purpose `evaluation`). */
  db: Db;
  /** The evaluation role's (`providersFor(…).evaluation`): its timeout, retries and prices. */
  connection: ModelConnection;
  model: string;
  /** The server's evaluation run the answers are for; `hqa eval` has none. */
  evalRunId?: number;
  sleep?: Sleep;
}

/**
 * Asks an OpenAI-compatible vision model one question, the chart as a base64 PNG data URL, at
 * temperature 0, through the one transport: retries what a retry can fix (429, 5xx, timeouts)
 * and records every attempt. `hqa eval` and the server's evaluation runs share it, so both ask the same way.
 */
export function openAiAsker(options: OpenAiAskerOptions): ModelAsker {
  const transport = createTransport({ db: options.db, connection: options.connection, ...(options.sleep ? { sleep: options.sleep } : {}) });
  return {
    async ask(question, signal) {
      const body = evalChatBody(question);
      const call = transport.call({ purpose: 'evaluation', model: options.model, template: EVAL_TEMPLATE, evalRunId: options.evalRunId, signal });
      const reply = await call.send({ body: () => body });
      if (!reply.ok) {
        if (reply.kind === 'cancelled') throw new EvalAskError('cancelled', call.attempts, true);
        throw new EvalAskError(`${describeFailure(reply.failure)} after ${reply.failures} attempt(s)`, reply.failures, false);
      }
      const raw = reply.content ?? '';
      return { raw, prediction: extractAnswer(raw), ...reply.tokens, cost: reply.cost, attempts: call.attempts };
    },
  };
}
