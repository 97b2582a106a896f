import { Presets, SingleBar } from 'cli-progress';
import { readFileSync, writeFileSync } from 'node:fs';
import { openAndMigrate, type Db } from '../../db/database';
import { toJsonl } from '../llm/batch-lines';
import { extractionBatchLines, readExtractionReplies } from '../tables/extraction-batch-file';
import type { ExtractionScope } from '../tables/table-queries';
import { loadConfig } from '../config';
import { getSettings } from '../settings/settings-queries';
import { runExtractionJob, type ExtractionReport } from '../tables/extract-tables-run';
import pino from 'pino';
import { cliContext } from './cli-context';
import { EXIT_WITH_FAILURES } from './exit-status';
import { ChartTableError, extractorFor } from '../tables/table-service';

export interface ExtractTablesOptions {
  split?: string;
  chart?: string;
  force?: boolean;
  concurrency?: string;
  json?: boolean;
  /** Write the requests to this file (OpenAI Batch API / `vllm run-batch` input) instead of asking. */
  batchOut?: string;
  /** Read a batch output file's replies and store their tables. */
  batchIn?: string;
}

/** Without a terminal (a log, a CI job) progress is one line per this share of the charts. */
const LINE_EVERY = 0.1;

function progress(stream: NodeJS.WriteStream, quiet: boolean) {
  if (quiet) return { update: () => undefined, stop: () => undefined };
  if (stream.isTTY) {
    const bar = new SingleBar({ format: 'extracting {bar} {value}/{total} charts  {eta_formatted} left', stream }, Presets.shades_classic);
    let started = false;
    return {
      update: (done: number, total: number) => {
        if (!started) bar.start(total, 0);
        started = true;
        bar.update(done);
      },
      stop: () => started && bar.stop(),
    };
  }
  let shown = -1;
  return {
    update: (done: number, total: number) => {
      const step = total === 0 ? 0 : Math.floor(done / Math.max(1, total * LINE_EVERY));
      if (done > 0 && step <= shown) return;
      shown = step;
      stream.write(`extract-tables: ${done} of ${total} charts\n`);
    },
    stop: () => undefined,
  };
}

export function formatExtractionSummary(report: ExtractionReport): string {
  const cost = report.priced ? `$${report.cost.toFixed(4)}` : `cost unknown (${report.model} is not in the price table)`;
  const images =
    report.image_tokens === null
      ? `image tokens not estimated (no known vision encoder for ${report.model})`
      : `of which images ~${report.image_tokens} tokens${report.image_cost === null ? '' : ` ~$${report.image_cost.toFixed(4)}`}`;
  return (
    `${report.extracted} of ${report.charts} charts extracted with ${report.model}, ${report.failed.length} failed` +
    `${report.cancelled ? ' (interrupted: run again to continue)' : ''}; skipped ${report.skipped_with_table} with a table, ` +
    `${report.skipped_without_image} without an image; ${report.attempts} requests, ${report.prompt_tokens} prompt (${images}) + ${report.completion_tokens} completion tokens, ${cost}`
  );
}

/**
 * `hqa extract-tables`: reads the table of every chart in scope that has none from its image
 * with the extraction model, as an extraction job run in this process (the Charts page lists it).
 * Each table is stored as it arrives (source `extracted`, unconfirmed), so Ctrl+C (the job is
 * cancelled) or a crash (the next server start takes the job up) loses nothing.
 */
export async function runExtractTables(options: ExtractTablesOptions): Promise<number> {
  const chartId = options.chart === undefined ? undefined : Number(options.chart);
  if (chartId !== undefined && (!Number.isInteger(chartId) || chartId < 1)) {
    process.stderr.write(`error: --chart: "${options.chart}" is not a chart id\n`);
    return 1;
  }
  const concurrency = options.concurrency === undefined ? 4 : Number(options.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    process.stderr.write(`error: --concurrency: "${options.concurrency}" must be a whole number from 1 to 32\n`);
    return 1;
  }
  if (options.batchOut !== undefined && options.batchIn !== undefined) {
    process.stderr.write('error: --batch-out and --batch-in: give one of them\n');
    return 1;
  }
  if (options.batchIn !== undefined && (options.split !== undefined || chartId !== undefined || options.force)) {
    process.stderr.write('error: --batch-in stores the charts its file names; --split, --chart and --force choose what --batch-out writes\n');
    return 1;
  }
  const config = loadConfig();
  if (options.batchOut !== undefined || options.batchIn !== undefined) {
    const db = openAndMigrate(config.dbPath);
    try {
      const scope = { split: options.split, chartId, force: options.force };
      return options.batchOut !== undefined ? await writeRequests(db, scope, options.batchOut, options.json === true) : readReplies(db, options.batchIn as string, options.json === true);
    } finally {
      db.close();
    }
  }
  const db = openAndMigrate(config.dbPath);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  const shown = progress(process.stderr, options.json === true);
  try {
    const extractor = extractorFor(db, config);
    const ctx = cliContext(db, config, pino({ level: options.json === true ? 'silent' : 'warn' }, pino.destination(2)));
    const report = await runExtractionJob(ctx, { split: options.split, chartId, force: options.force }, { extractor, concurrency, signal: controller.signal, onProgress: shown.update });
    shown.stop();
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      for (const failure of report.failed) process.stderr.write(`failed: chart ${failure.chart_id} (${failure.chart}): ${failure.kind}: ${failure.reason}\n`);
      process.stdout.write(`${formatExtractionSummary(report)}\n`);
    }
    return report.failed.length > 0 || report.cancelled ? EXIT_WITH_FAILURES : 0;
  } catch (error) {
    if (!(error instanceof ChartTableError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  } finally {
    shown.stop();
    process.off('SIGINT', stop);
    db.close();
  }
}

/** `--batch-out`: the requests of the charts a live run would read, one line each; nothing is stored. */
async function writeRequests(db: Db, scope: ExtractionScope, file: string, json: boolean): Promise<number> {
  const written = await extractionBatchLines(db, scope);
  writeFileSync(file, toJsonl(written.lines));
  const next = `hqa extract-tables --batch-in OUT`;
  if (json) process.stdout.write(`${JSON.stringify({ batch_out: file, requests: written.lines.length, model: written.model, skipped_with_table: written.skipped_with_table, skipped_without_image: written.skipped_without_image, next })}\n`);
  else {
    process.stdout.write(
      `wrote ${written.lines.length} extraction requests for ${written.model} to ${file} (skipped ${written.skipped_with_table} with a table, ${written.skipped_without_image} without an image); run them with\n` +
        `  vllm run-batch -i ${file} -o OUT --model ${written.model}   (or the OpenAI Batch API)\nthen store the tables with\n  ${next}\n`,
    );
  }
  return 0;
}

/** `--batch-in`: each reply's table stored as a live one; failed lines named, the rest stored. */
function readReplies(db: Db, file: string, json: boolean): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    process.stderr.write(`error: --batch-in: ${file}: ${(error as Error).message}\n`);
    return 1;
  }
  let report;
  try {
    report = readExtractionReplies(db, { source: file, text }, getSettings(db).extraction_model);
  } catch (error) {
    // A line that is no JSON or names no request: the file is not a batch output file.
    process.stderr.write(`error: --batch-in: ${(error as Error).message}\n`);
    return 1;
  }
  if (json) process.stdout.write(`${JSON.stringify({ batch_in: file, ...report })}\n`);
  else {
    for (const failure of report.failed) process.stderr.write(`failed: ${failure.custom_id}: ${failure.reason}\n`);
    process.stdout.write(`${report.stored} of ${report.replies} replies in ${file} stored as extracted tables (unconfirmed), ${report.failed.length} failed; no repair turn in batch mode: an invalid reply fails\n`);
  }
  return report.failed.length > 0 ? EXIT_WITH_FAILURES : 0;
}
