import { createHash } from 'node:crypto';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { Db } from '../../db/database';
import { extractAnswer } from '../../shared/eval/answer-extraction';
import { createTransport, type ChatBody, type ModelConnection } from '../llm/provider';
import { callCost } from '../llm/cost';
import { imageColumns, requestImages } from '../llm/image-tokens';
import { describeFailure, type Sleep } from '../llm/retry';
import { prepareVisionImage, type VisionImage, type VisionImageOptions } from '../llm/vision-image';

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

/** A question with its images as they are sent (`prepareVisionImage`): what `evalChatBody` reads. */
export interface PreparedEvalQuestion {
  text: string;
  /** The chart, or null (the no-image control, or a group item). */
  image: VisionImage | null;
  /** A group item's charts in group order, each labelled "Chart N:". */
  charts: readonly VisionImage[];
}

/**
 * The question's images through the one vision helper (`vision_max_side`, `vision_detail`):
 * scaled once here, so every attempt and a batch line send the same bytes.
 */
export async function prepareEvalQuestion(question: EvalQuestion, vision: VisionImageOptions): Promise<PreparedEvalQuestion> {
  if (question.charts && question.charts.length > 0) {
    const charts: VisionImage[] = [];
    for (const png of question.charts) charts.push(await prepareVisionImage(png, vision));
    return { text: question.text, image: null, charts };
  }
  return { text: question.text, image: question.png ? await prepareVisionImage(question.png, vision) : null, charts: [] };
}

/** The images a prepared question sends, in order. */
export const sentImages = (question: PreparedEvalQuestion): VisionImage[] => (question.image ? [question.image] : [...question.charts]);

const imagePart = (image: VisionImage): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url: image.url, detail: image.detail } });

export interface EvalAnswer {
  raw: string;
  prediction: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  attempts: number;
  /** The images' estimated share of `prompt_tokens` (the answered request's); null: no formula for the model. */
  image_tokens: number | null;
  /** Those tokens at the model's input price; null: no formula, or the model is unpriced. */
  image_cost: number | null;
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
 * What one question sends, at temperature 0 with the chart as `prepareEvalQuestion` made it (a
 * group item's charts each labelled, in order): the body of a call on its own and of its line in
 * a batch (`--batch`, `--batch-out`) alike.
 */
export function evalChatBody(question: PreparedEvalQuestion): ChatBody {
  const content: ChatCompletionContentPart[] = [];
  if (question.charts.length > 0) {
    question.charts.forEach((image, index) => content.push({ type: 'text', text: `Chart ${index + 1}:` }, imagePart(image)));
  } else if (question.image) {
    content.push(imagePart(question.image));
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
  /** The `vision_max_side` and `vision_detail` settings. */
  vision: VisionImageOptions;
  sleep?: Sleep;
}

/**
 * Asks an OpenAI-compatible vision model one question, the chart scaled by the vision settings,
 * at temperature 0, through the one transport: retries what a retry can fix (429, 5xx, timeouts)
 * and records every attempt, with its images' estimated tokens. `hqa eval` and the server's evaluation runs share it, so both ask the same way.
 */
export function openAiAsker(options: OpenAiAskerOptions): ModelAsker {
  const transport = createTransport({ db: options.db, connection: options.connection, ...(options.sleep ? { sleep: options.sleep } : {}) });
  return {
    async ask(question, signal) {
      const prepared = await prepareEvalQuestion(question, options.vision);
      const body = evalChatBody(prepared);
      const images = requestImages(options.model, sentImages(prepared));
      const call = transport.call({ purpose: 'evaluation', model: options.model, template: EVAL_TEMPLATE, evalRunId: options.evalRunId, images, signal });
      const reply = await call.send({ body: () => body });
      if (!reply.ok) {
        if (reply.kind === 'cancelled') throw new EvalAskError('cancelled', call.attempts, true);
        throw new EvalAskError(`${describeFailure(reply.failure)} after ${reply.failures} attempt(s)`, reply.failures, false);
      }
      const raw = reply.content ?? '';
      // One reply answered: only its request was billed (a failed attempt's was not).
      const { image_tokens, image_cost } = imageColumns(images, true, (tokens) => callCost(options.model, { prompt_tokens: tokens, completion_tokens: 0 }, options.connection.prices));
      return { raw, prediction: extractAnswer(raw), ...reply.tokens, cost: reply.cost, attempts: call.attempts, image_tokens, image_cost };
    },
  };
}
