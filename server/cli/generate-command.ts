import { SingleBar, Presets } from 'cli-progress';
import { pino } from 'pino';
import { openAndMigrate } from '../../db/database';
import { RunConfigSchema, type GenerateReport, type Run, type RunConfig } from '../../shared/api/runs';
import type { AppContext } from '../app-context';
import { cliContext } from './cli-context';
import { loadConfig } from '../config';
import { DomainError } from '../domain-error';
import { engineFactory } from '../generation/engine-factory';
import { RunExecutor } from '../generation/run-executor';
import { hasModelEndpoint } from '../llm/model-roles';
import { getRun, publicRun } from '../generation/run-queries';
import { ownerGone } from '../jobs/job-owner';
import { ensureSeedProposals } from '../pool/pool-service';
import { readStageFile, settleAfterRead, writeStageFile } from './generate-batch-file';

export interface GenerateOptions {
  engine?: string;
  stage?: string;
  chartType?: string;
  split?: string;
  items?: string;
  order?: string;
  proposalBatches?: string;
  concurrency?: string;
  model?: string;
  budgetTokens?: string;
  budgetCost?: string;
  weightToGaps?: boolean;
  /** Only factual QAs of charts whose type is confirmed. */
  confirmedTypesOnly?: boolean;
  /** Each stage's requests as one OpenAI Batch API batch. */
  batch?: boolean;
  /** Write the current stage's requests to this file (for `vllm run-batch`) and stop. */
  batchOut?: string;
  /** Read a batch output file into the run's current stage (with `--run`). */
  batchIn?: string;
  /** Milliseconds between polls of a batch (default HQA_BATCH_POLL_MS). */
  batchPoll?: string;
  /** Continue this run instead of starting one: a paused run, one a killed process left, one waiting for `--batch-in`. */
  run?: string;
  json?: boolean;
}

const num = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** The command-line flag of a run configuration field: `budget_cost` → `--budget-cost`. */
const flagOf = (field: string) => `--${field.replace(/_/g, '-')}`;

/** The executor's refusal of a configuration, naming the flag where the API names the field. */
function createRun(executor: RunExecutor, config: RunConfig, viaFile: boolean): Run {
  try {
    return executor.createRun(config, null, viaFile);
  } catch (error) {
    if (error instanceof DomainError && error.field) throw new Error(`${flagOf(error.field)}: ${error.message}`, { cause: error });
    throw error;
  }
}

/** `--run N`: the executor's refusal names the flag. */
function continueRun(executor: RunExecutor, id: number): Promise<void> {
  try {
    return executor.continueRun(id);
  } catch (error) {
    if (error instanceof DomainError) throw new Error(`--run: ${error.message}`, { cause: error });
    throw error;
  }
}

/** `--batch-out` / `--batch-in`: one stage through a file (`generate-batch-file.ts`); exits 2 when a line failed. */
async function byFile(ctx: AppContext, id: number, options: GenerateOptions): Promise<number> {
  const read = options.batchIn === undefined ? null : await readStageFile(ctx, id, options.batchIn);
  let next = read ? settleAfterRead(ctx, id) : null;
  const written = options.batchOut !== undefined && (read === null || next !== null) ? await writeStageFile(ctx, id, options.batchOut) : null;
  if (written) next = written.next;
  const run = getRun(ctx.db, id);
  if (!run) throw new Error(`run ${id} disappeared`);
  const report = { ...toReport(publicRun(run)), written: written && { file: written.file, stage: written.stage, requests: written.requests }, read, next };
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    if (read) {
      for (const line of read.failed) process.stderr.write(`error: ${line.custom_id}: ${line.error}\n`);
      for (const customId of read.unknown) process.stderr.write(`error: ${customId}: in ${read.file} but not one of run ${id}'s requests\n`);
      process.stdout.write(
        `read ${read.stored - read.failed.length} results of ${read.stored} from ${read.file} (${read.failed.length} failed; ${read.prompt_tokens + read.completion_tokens} tokens, no cost: not through our provider): ` +
          `run ${id} has ${run.proposals_created} proposals, ${run.items_created} items, ${run.items_failed} failed, ${run.items_declined} declined\n`,
      );
    }
    if (written && written.requests > 0) {
      process.stdout.write(`wrote ${written.requests} ${written.stage === 'proposals' ? 'Stage 1 (proposal)' : 'Stage 2 (item)'} requests of run ${id} to ${written.file}; run them with\n  vllm run-batch -i ${written.file} -o OUT --model ${run.model}\nthen read the results back with\n  ${written.next}\n`);
    } else if (next) process.stdout.write(`next: ${next}\n`);
    else process.stdout.write(`run ${id} ${run.status}\n`);
  }
  return read && (read.failed.length > 0 || read.unknown.length > 0) ? 2 : 0;
}

export function toReport(run: Run): GenerateReport {
  return {
    run_id: run.id,
    status: run.status,
    stop_reason: run.stop_reason,
    proposals_created: run.proposals_created,
    items_created: run.items_created,
    items_failed: run.items_failed,
    items_declined: run.items_declined,
    llm_calls: run.llm_calls,
    prompt_tokens: run.prompt_tokens,
    completion_tokens: run.completion_tokens,
    cached_tokens: run.cached_tokens,
    cost: Math.round(run.cost * 1e6) / 1e6,
  };
}

function wholeNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}: a whole number, at least 1 (got ${value})`);
  return n;
}

function checkBatchFlags(options: GenerateOptions): void {
  if (options.batch && (options.batchOut !== undefined || options.batchIn !== undefined)) throw new Error('--batch: sends the requests to the Batch API itself; --batch-out/--batch-in go through a file instead: give one way');
  if (options.batchIn !== undefined && options.run === undefined) throw new Error('--batch-in: give --run N, the run whose requests --batch-out wrote');
  if ((options.batch || options.batchOut !== undefined) && options.engine === 'offline') throw new Error('--engine: the offline engine calls no model; --batch and --batch-out are for the openai engine');
}

/** `hqa generate`: starts a run in this process with the same executor the server uses, and waits for its end. */
export async function runGenerate(options: GenerateOptions): Promise<number> {
  checkBatchFlags(options);
  const runId = wholeNumber('--run', options.run);
  const pollMs = wholeNumber('--batch-poll', options.batchPoll);
  const loaded = loadConfig();
  const config = pollMs === undefined ? loaded : { ...loaded, batchPollMs: pollMs };
  const parsed = RunConfigSchema.safeParse({
    // A file of requests is for a model (vllm run-batch), whether or not this machine has an endpoint.
    engine: options.engine ?? (hasModelEndpoint(config) || options.batchOut !== undefined ? 'openai' : 'offline'),
    stage: options.stage,
    chart_type: options.chartType,
    split: options.split,
    items: num(options.items),
    order: options.order,
    proposal_batches: num(options.proposalBatches),
    concurrency: num(options.concurrency),
    model: options.model,
    budget_tokens: num(options.budgetTokens) ?? null,
    budget_cost: num(options.budgetCost) ?? null,
    weight_to_gaps: options.weightToGaps ?? false,
    confirmed_types_only: options.confirmedTypesOnly ?? false,
    batch: options.batch ?? false,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${flagOf(String(issue?.path[0] ?? 'option'))}: ${issue?.message ?? 'invalid'}`);
  }
  const db = openAndMigrate(config.dbPath);
  const logger = pino({ level: options.json ? 'silent' : 'warn' }, pino.destination(2));
  const bar = !options.json && process.stderr.isTTY ? new SingleBar({ format: 'run {bar} {value}/{total} tasks  {failed} failed  {eta_formatted} left', stream: process.stderr }, Presets.shades_classic) : null;
  let barStarted = false;
  let lastBatchLine = '';
  const ctx: AppContext = cliContext(db, config, logger, (event, payload) => {
    if (event !== 'run.progressed') return;
    const { run } = payload as { run: Run };
    // A batch waits for hours with no task finishing: each change of its step is a line.
    if (run.batch_progress && !options.json) {
      const { state, total, completed, failed } = run.batch_progress;
      const line = `run ${run.id}: batch ${state.replace('_', ' ')} ${completed + failed} of ${total} (${failed} failed)`;
      if (line !== lastBatchLine) process.stderr.write(`${line}\n`);
      lastBatchLine = line;
    }
    // The total grows while the run plans (Stage 2's tasks come after Stage 1's): the bar starts
    // once it is fixed, so it never goes backwards.
    if (!bar || !run.plan_complete) return;
    if (!barStarted) {
      bar.start(run.tasks_total, 0, { failed: 0 });
      barStarted = true;
    }
    bar.setTotal(run.tasks_total);
    bar.update(run.tasks_done + run.tasks_failed, { failed: run.tasks_failed });
  });
  let stop: (() => void) | undefined;
  try {
    ensureSeedProposals(db);
    const executor = new RunExecutor(ctx, engineFactory(ctx));
    const id = runId ?? createRun(executor, parsed.data, options.batchOut !== undefined).id;
    if (options.batchOut !== undefined || options.batchIn !== undefined) return await byFile(ctx, id, options);
    stop = () => void executor.shutdown();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const busy = runId === undefined ? null : getRun(db, runId);
    if (busy && busy.status === 'running' && !ownerGone(busy)) {
      // Another live process runs it: continuing here would do nothing and say nothing.
      process.stderr.write(`error: --run: run ${runId} is running in process ${busy.owner_pid ?? '?'} on ${busy.owner_host ?? '?'}; wait for it, or pause it first\n`);
      return 1;
    }
    await (runId === undefined ? executor.start(id) : continueRun(executor, id));
    bar?.stop();
    const finished = getRun(db, id);
    if (!finished) throw new Error(`run ${id} disappeared`);
    const report = toReport(publicRun(finished));
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      if (runId !== undefined) process.stderr.write(`continued run ${id}\n`);
      process.stdout.write(
        `run ${report.run_id} ${report.status}${finished.stop_reason ? ` (${finished.stop_reason})` : ''}: ${report.proposals_created} proposals, ` +
          `${report.items_created} items, ${report.items_failed} failed, ${report.items_declined} declined, ${report.llm_calls} LLM calls, ` +
          `${report.prompt_tokens + report.completion_tokens} tokens, $${report.cost.toFixed(4)} (model ${finished.model})\n`,
      );
    }
    return finished.status === 'done' ? 0 : 1;
  } finally {
    bar?.stop();
    // Another command may run in this process next (the tests run the CLI in-process).
    if (stop) {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    db.close();
  }
}
