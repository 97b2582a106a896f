import { questionFromFiles } from './eval-question';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { z } from 'zod';
import { CHART_HQA_VERSION, ExportItemSchema, GroupExportItemSchema, itemImages } from '../../shared/export/chart-hqa';
import { openAndMigrate, type Db } from '../../db/database';
import { loadConfig, type Config } from '../config';
import { providersFor } from '../llm/model-roles';
import { EvalAskError, openAiAsker } from './model-asker';
import { getSettings } from '../settings/settings-queries';
import { eachBounded } from '../jobs/bounded';

export interface EvalCommandOptions {
  dataset: string;
  model: string;
  out: string;
  images?: string;
  /** commander's `--no-image` sets `image: false`. */
  image?: boolean;
  original?: boolean;
  concurrency?: string;
  json?: boolean;
  /** Send every question as one OpenAI Batch API batch, poll until done (resumable by its sidecar). */
  batch?: boolean;
  /** Write the batch's request JSONL here and stop (for `vllm run-batch`). */
  batchOut?: string;
  /** Read a batch output JSONL (OpenAI's or vLLM's) into predictions instead of asking. */
  batchIn?: string;
  /** Milliseconds between polls of a `--batch` batch. */
  batchPoll?: string;
}

export const EvalDatasetSchema = z.object({
  version: z.literal(CHART_HQA_VERSION),
  // An item over one chart names its image (`imgname`), one over a chart group all of them (`images`, in order).
  items: z.array(
    z
      .union([ExportItemSchema.pick({ id: true, imgname: true, question: true, original: true }), GroupExportItemSchema.pick({ id: true, images: true, question: true, original: true })])
      .transform((item) => {
        const images = itemImages(item);
        // `imgname` stays the first image, for readers of one image per item (the batch files).
        return { id: item.id, question: item.question, original: item.original, imgname: images[0] ?? '', images };
      }),
  ),
});
export type EvalDataset = z.infer<typeof EvalDatasetSchema>;
export type EvalItem = EvalDataset['items'][number];

export const PredictionSchema = z.object({ id: z.string(), prediction: z.string().nullable(), raw: z.string() });
export type Prediction = z.infer<typeof PredictionSchema>;

/** Predictions are saved (atomically) after this many answers, so a killed run loses little. */
const SAVE_EVERY = 10;

export function readJsonFile<T>(file: string, schema: z.ZodType<T>): T {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || 'document'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/**
 * `hqa eval`: asks an OpenAI-compatible vision model every question of an export (or, with
 * `--original`, the factual question it came from), the chart sent as a base64 PNG unless
 * `--no-image`. Writes `[{ id, prediction, raw }]`; a rerun with the same `--out` asks only
 * what is missing, so an interrupted run resumes.
 */
export async function runEval(options: EvalCommandOptions): Promise<number> {
  const config = loadConfig();
  // The workbench's database (made if there is none): its price table, and its llm_calls for every attempt's cost.
  const db = openAndMigrate(config.dbPath);
  try {
    return await evaluate(db, config, options);
  } finally {
    db.close();
  }
}

/** The predictions file, written atomically in dataset order, so it is deterministic whatever the concurrency or a batch's order did. */
export function writePredictions(out: string, dataset: EvalDataset, done: Map<string, Prediction>): void {
  const ordered = dataset.items.flatMap((item) => done.get(item.id) ?? []);
  writeFileSync(`${out}.tmp`, `${JSON.stringify(ordered, null, 1)}\n`);
  renameSync(`${out}.tmp`, out);
}

async function evaluate(db: Db, config: Config, options: EvalCommandOptions): Promise<number> {
  if (options.batch || options.batchOut !== undefined || options.batchIn !== undefined) {
    const { evaluateInBatch } = await import('./eval-batch-command');
    return evaluateInBatch(db, config, options);
  }
  const { connection } = providersFor(getSettings(db), config).evaluation;
  if (!connection) throw new Error('OPENAI_API_KEY is not set: eval asks a model through an OpenAI-compatible endpoint (OPENAI_BASE_URL)');
  const withImage = options.image !== false;
  if (withImage && !options.images) throw new Error('--images: give the folder of chart images (hqa export --images DIR), or --no-image for the control');
  const concurrency = Number(options.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error('--concurrency: a whole number from 1 to 64');
  const dataset = readJsonFile(options.dataset, EvalDatasetSchema);
  if (withImage && options.images) {
    const folder = options.images;
    // Every image of every item, a group item's all of them: refused by item and file before anything is asked.
    for (const item of dataset.items) {
      const missing = item.images.find((name) => !existsSync(join(folder, name)));
      if (missing !== undefined) throw new Error(`--images: ${join(folder, missing)} is missing (item ${item.id})`);
    }
  }
  const done = new Map<string, Prediction>();
  if (existsSync(options.out)) for (const p of readJsonFile(options.out, z.array(PredictionSchema))) done.set(p.id, p);
  const todo = dataset.items.filter((item) => !done.has(item.id));

  const asker = openAiAsker({ db, connection, model: options.model });
  const totals = { asked: 0, failed: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0 };
  const errors: { id: string; error: string }[] = [];
  const save = () => writePredictions(options.out, dataset, done);
  const bar = !options.json && process.stderr.isTTY ? new SingleBar({ format: 'eval {bar} {value}/{total}  {eta_formatted} left', stream: process.stderr }, Presets.shades_classic) : null;
  bar?.start(todo.length, 0);

  const ask = async (item: EvalItem): Promise<void> => {
    const text = options.original ? item.original.query : item.question;
    const question = questionFromFiles(text, withImage ? options.images : undefined, item.images);
    try {
      const answer = await asker.ask(question);
      totals.prompt_tokens += answer.prompt_tokens;
      totals.completion_tokens += answer.completion_tokens;
      totals.cost += answer.cost;
      done.set(item.id, { id: item.id, prediction: answer.prediction, raw: answer.raw });
      totals.asked++;
    } catch (error) {
      if (!(error instanceof EvalAskError)) throw error;
      totals.failed++;
      errors.push({ id: item.id, error: error.message });
    }
  };

  let sinceSave = 0;
  await eachBounded(todo, concurrency, async (item) => {
    await ask(item);
    bar?.increment();
    if (++sinceSave >= SAVE_EVERY) {
      sinceSave = 0;
      save();
    }
  });
  save();
  bar?.stop();
  const report = { out: options.out, model: options.model, items: dataset.items.length, skipped: dataset.items.length - todo.length, ...totals, cost: Math.round(totals.cost * 1e6) / 1e6, errors };
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    for (const e of errors) process.stderr.write(`error: item ${e.id}: ${e.error}\n`);
    process.stdout.write(`asked ${totals.asked}, skipped ${report.skipped} already answered, ${totals.failed} failed; ${totals.prompt_tokens + totals.completion_tokens} tokens, $${report.cost.toFixed(4)}; wrote ${options.out}\n`);
  }
  return totals.failed > 0 ? 2 : 0;
}
