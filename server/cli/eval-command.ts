import { questionFromFiles } from '../eval/eval-question';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { z } from 'zod';
import { CHART_HQA_VERSION, ExportItemSchema, GroupExportItemSchema, itemIdOfExportId, itemImages } from '../../shared/export/chart-hqa';
import { openAndMigrate, type Db } from '../../db/database';
import { loadConfig, type Config } from '../config';
import { providersFor } from '../llm/model-roles';
import { visionOptions } from '../llm/vision-image';
import { EvalAskError, openAiAsker } from '../eval/model-asker';
import { getSettings } from '../settings/settings-queries';
import { eachBounded } from '../jobs/bounded';
import { EvalModeSchema } from '../../shared/api/evaluations';
import { CONDITION_PLANS, EVAL_CONDITIONS, type EvalCondition } from '../../shared/eval/conditions';
import { conditionDrawing, UndrawableItemError } from '../eval/condition-drawings';

export interface EvalCommandOptions {
  dataset: string;
  model: string;
  out: string;
  images?: string;
  /** commander's `--no-image` sets `image: false`. */
  image?: boolean;
  original?: boolean;
  /** Conditions (`shared/eval/conditions.ts`): any of these (or `conditions`) asks each named one, each to its own file. */
  hqa?: boolean;
  counterfactualImage?: boolean;
  drawnOriginal?: boolean;
  /** A comma-separated list of conditions. */
  conditions?: string;
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

/** The images' estimated share of the prompt tokens, summed as extraction's report sums it: null once one answer's is unknown. */
interface ImageTotals {
  image_tokens: number | null;
  image_cost: number | null;
}

const NO_IMAGES: ImageTotals = { image_tokens: 0, image_cost: 0 };

function addImages(totals: ImageTotals, answer: ImageTotals): void {
  totals.image_tokens = totals.image_tokens === null || answer.image_tokens === null ? null : totals.image_tokens + answer.image_tokens;
  totals.image_cost = totals.image_cost === null || answer.image_cost === null ? null : totals.image_cost + answer.image_cost;
}

const imagesLine = (totals: ImageTotals, model: string) =>
  totals.image_tokens === null
    ? `image tokens not estimated (no known vision encoder for ${model})`
    : `of which images ~${totals.image_tokens}${totals.image_cost === null ? '' : ` ~$${totals.image_cost.toFixed(4)}`}`;

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

/**
 * The conditions the options name, or null for the command as it was before conditions (one
 * file: the hypothetical questions, `--original` the factual ones, `--no-image` without the
 * chart, the two combinable). Naming `--hqa`, `--counterfactual-image`, `--drawn-original` or
 * `--conditions` switches to conditions: then `--original` and `--no-image` name theirs too.
 */
export function conditionsOf(options: EvalCommandOptions): EvalCondition[] | null {
  if (!options.hqa && !options.counterfactualImage && !options.drawnOriginal && options.conditions === undefined) return null;
  const named = new Set<EvalCondition>();
  for (const name of (options.conditions ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const parsed = EvalModeSchema.safeParse(name);
    if (!parsed.success) throw new Error(`--conditions: "${name}" is not a condition (${EVAL_CONDITIONS.join(', ')})`);
    named.add(parsed.data);
  }
  if (options.hqa) named.add('hqa');
  if (options.original) named.add('original');
  if (options.image === false) named.add('no_image');
  if (options.counterfactualImage) named.add('counterfactual_image');
  if (options.drawnOriginal) named.add('drawn_original');
  // In the list's order, so the files and the report read as the paper's figure does.
  return EVAL_CONDITIONS.filter((condition) => named.has(condition));
}

/** Where one condition's predictions go when a command asks several: `p.json` → `p.counterfactual_image.json`. */
export function conditionOut(out: string, condition: EvalCondition): string {
  const dot = out.lastIndexOf('.');
  const slash = Math.max(out.lastIndexOf('/'), out.lastIndexOf('\\'));
  return dot > slash ? `${out.slice(0, dot)}.${condition}${out.slice(dot)}` : `${out}.${condition}`;
}

async function evaluate(db: Db, config: Config, options: EvalCommandOptions): Promise<number> {
  const conditions = conditionsOf(options);
  if (conditions !== null) return evaluateConditions(db, config, options, conditions);
  if (options.batch || options.batchOut !== undefined || options.batchIn !== undefined) {
    const { evaluateInBatch } = await import('./eval-batch-command');
    return evaluateInBatch(db, config, options);
  }
  const settings = getSettings(db);
  const { connection } = providersFor(settings, config).evaluation;
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

  const asker = openAiAsker({ db, connection, model: options.model, vision: visionOptions(settings) });
  const totals = { asked: 0, failed: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0, ...NO_IMAGES };
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
      addImages(totals, answer);
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
    process.stdout.write(`asked ${totals.asked}, skipped ${report.skipped} already answered, ${totals.failed} failed; ${totals.prompt_tokens + totals.completion_tokens} tokens (${imagesLine(totals, options.model)}), $${report.cost.toFixed(4)}; wrote ${options.out}\n`);
  }
  return totals.failed > 0 ? 2 : 0;
}

/** What `hqa eval` reports of one condition. */
interface ConditionReport {
  condition: EvalCondition;
  out: string;
  asked: number;
  /** Already answered in the file (a resumed run). */
  resumed: number;
  failed: number;
  /** Items this condition cannot ask (an edit that cannot be drawn, an item not in this workbench), with the reason. */
  undrawable: { id: string; reason: string }[];
}

/**
 * `hqa eval` over conditions: each condition's questions (`CONDITION_PLANS`), each to its own
 * predictions file (`--out` itself when one is named), scoreable by `hqa score` against the same
 * export (the drawn original's gold is the factual label, as `--original`'s). The drawn conditions'
 * images are drawn from the workbench database (`HQA_DB`) the export came from, by export id,
 * with the server's renderer and options, so a CLI run and a server run send the same drawings.
 */
async function evaluateConditions(db: Db, config: Config, options: EvalCommandOptions, conditions: EvalCondition[]): Promise<number> {
  if (options.batch || options.batchOut !== undefined || options.batchIn !== undefined) {
    throw new Error('--batch, --batch-out and --batch-in ask one condition of hqa, original or no_image (--original, --no-image); ask conditions call by call');
  }
  const settings = getSettings(db);
  const { connection } = providersFor(settings, config).evaluation;
  if (!connection) throw new Error('OPENAI_API_KEY is not set: eval asks a model through an OpenAI-compatible endpoint (OPENAI_BASE_URL)');
  const concurrency = Number(options.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error('--concurrency: a whole number from 1 to 64');
  const dataset = readJsonFile(options.dataset, EvalDatasetSchema);
  const withChart = conditions.filter((condition) => CONDITION_PLANS[condition].image === 'chart');
  if (withChart.length > 0) {
    const folder = options.images;
    if (!folder) throw new Error(`--images: give the folder of chart images (hqa export --images DIR): ${withChart.join(', ')} send the chart`);
    for (const item of dataset.items) {
      const missing = item.images.find((name) => !existsSync(join(folder, name)));
      if (missing !== undefined) throw new Error(`--images: ${join(folder, missing)} is missing (item ${item.id})`);
    }
  }
  const asker = openAiAsker({ db, connection, model: options.model, vision: visionOptions(settings) });
  const totals = { prompt_tokens: 0, completion_tokens: 0, cost: 0, ...NO_IMAGES };
  const errors: { id: string; condition: EvalCondition; error: string }[] = [];
  const reports: ConditionReport[] = [];
  const bar = !options.json && process.stderr.isTTY ? new SingleBar({ format: 'eval {bar} {value}/{total}  {eta_formatted} left', stream: process.stderr }, Presets.shades_classic) : null;
  const states = conditions.map((condition) => {
    const out = conditions.length === 1 ? options.out : conditionOut(options.out, condition);
    const done = new Map<string, Prediction>();
    if (existsSync(out)) for (const p of readJsonFile(out, z.array(PredictionSchema))) done.set(p.id, p);
    const report: ConditionReport = { condition, out, asked: 0, resumed: done.size, failed: 0, undrawable: [] };
    reports.push(report);
    return { condition, out, done, report, sinceSave: 0 };
  });
  // Every (item, condition) still to ask, an item's conditions together: its drawings are made once, back to back.
  const todo = dataset.items.flatMap((item) => states.filter((state) => !state.done.has(item.id)).map((state) => ({ item, state })));
  bar?.start(todo.length, 0);
  await eachBounded(todo, concurrency, async ({ item, state }) => {
    const plan = CONDITION_PLANS[state.condition];
    const text = plan.question === 'factual' ? item.original.query : item.question;
    try {
      let question;
      if (plan.image === 'none') question = { text, png: null };
      else if (plan.image === 'chart') question = questionFromFiles(text, options.images, item.images);
      else {
        const itemId = itemIdOfExportId(item.id);
        if (itemId === null) throw new UndrawableItemError(`"${item.id}" is not an export id of this workbench`);
        question = { text, png: await conditionDrawing(db, itemId, plan.image) };
      }
      const answer = await asker.ask(question);
      totals.prompt_tokens += answer.prompt_tokens;
      totals.completion_tokens += answer.completion_tokens;
      totals.cost += answer.cost;
      addImages(totals, answer);
      state.done.set(item.id, { id: item.id, prediction: answer.prediction, raw: answer.raw });
      state.report.asked++;
    } catch (error) {
      if (error instanceof UndrawableItemError) state.report.undrawable.push({ id: item.id, reason: error.message });
      else if (error instanceof EvalAskError) {
        state.report.failed++;
        errors.push({ id: item.id, condition: state.condition, error: error.message });
      } else throw error;
    }
    bar?.increment();
    if (++state.sinceSave >= SAVE_EVERY) {
      state.sinceSave = 0;
      writePredictions(state.out, dataset, state.done);
    }
  });
  for (const state of states) writePredictions(state.out, dataset, state.done);
  bar?.stop();
  const failed = reports.reduce((sum, report) => sum + report.failed, 0);
  const report = { model: options.model, items: dataset.items.length, conditions: reports, ...totals, cost: Math.round(totals.cost * 1e6) / 1e6, errors };
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    for (const e of errors) process.stderr.write(`error: item ${e.id} (${e.condition}): ${e.error}\n`);
    for (const r of reports) {
      for (const u of r.undrawable) process.stderr.write(`skipped: item ${u.id} (${r.condition}): ${u.reason}\n`);
      process.stdout.write(`${r.condition}: asked ${r.asked}, ${r.resumed} already answered, ${r.undrawable.length} skipped (cannot be drawn), ${r.failed} failed; wrote ${r.out}\n`);
    }
    process.stdout.write(`${totals.prompt_tokens + totals.completion_tokens} tokens (${imagesLine(totals, options.model)}), $${report.cost.toFixed(4)}\n`);
  }
  return failed > 0 ? 2 : 0;
}
