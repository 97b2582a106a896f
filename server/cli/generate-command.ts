import { SingleBar, Presets } from 'cli-progress';
import { pino } from 'pino';
import { openAndMigrate } from '../../db/database';
import { RunConfigSchema, type GenerateReport, type Run, type RunConfig } from '../../shared/api/runs';
import type { AppContext } from '../app-context';
import { loadConfig } from '../config';
import { HttpError } from '../http/http-error';
import { engineFactory } from '../generation/engine-factory';
import { closeOfflinePool } from '../generation/offline-pool';
import { RunExecutor } from '../generation/run-executor';
import { hasModelEndpoint } from '../llm/model-roles';
import { getRun, publicRun } from '../generation/run-queries';
import { ensureSeedProposals } from '../pool/pool-service';

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
  json?: boolean;
}

const num = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** The command-line flag of a run configuration field: `budget_cost` → `--budget-cost`. */
const flagOf = (field: string) => `--${field.replace(/_/g, '-')}`;

/** The executor's refusal of a configuration, naming the flag where the API names the field. */
function createRun(executor: RunExecutor, config: RunConfig): Run {
  try {
    return executor.createRun(config, null);
  } catch (error) {
    if (error instanceof HttpError && error.field) throw new Error(`${flagOf(error.field)}: ${error.message}`, { cause: error });
    throw error;
  }
}

export function toReport(run: Run): GenerateReport {
  return {
    run_id: run.id,
    status: run.status,
    stop_reason: run.stop_reason,
    proposals_created: run.proposals_created,
    items_created: run.items_created,
    items_failed: run.items_failed,
    llm_calls: run.llm_calls,
    prompt_tokens: run.prompt_tokens,
    completion_tokens: run.completion_tokens,
    cost: Math.round(run.cost * 1e6) / 1e6,
  };
}

/** `hqa generate`: starts a run in this process with the same executor the server uses, and waits for its end. */
export async function runGenerate(options: GenerateOptions): Promise<number> {
  const config = loadConfig();
  const parsed = RunConfigSchema.safeParse({
    engine: options.engine ?? (hasModelEndpoint(config) ? 'openai' : 'offline'),
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
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${flagOf(String(issue?.path[0] ?? 'option'))}: ${issue?.message ?? 'invalid'}`);
  }
  const db = openAndMigrate(config.dbPath);
  const logger = pino({ level: options.json ? 'silent' : 'warn' }, pino.destination(2));
  const bar = !options.json && process.stderr.isTTY ? new SingleBar({ format: 'run {bar} {value}/{total} tasks  {failed} failed  {eta_formatted} left', stream: process.stderr }, Presets.shades_classic) : null;
  let barStarted = false;
  const ctx: AppContext = {
    db,
    config,
    logger,
    publishTo: () => undefined,
    // No sockets in a CLI process.
    disconnectSockets: () => undefined,
    publish: (event, payload) => {
      if (event !== 'run.progressed' || !bar) return;
      const { run } = payload as { run: Run };
      if (!barStarted) {
        bar.start(run.tasks_total, 0, { failed: 0 });
        barStarted = true;
      }
      bar.setTotal(run.tasks_total);
      bar.update(run.tasks_done + run.tasks_failed, { failed: run.tasks_failed });
    },
  };
  try {
    ensureSeedProposals(db);
    const executor = new RunExecutor(ctx, engineFactory(ctx));
    const run = createRun(executor, parsed.data);
    const stop = () => void executor.shutdown();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await executor.start(run.id);
    bar?.stop();
    const finished = getRun(db, run.id);
    if (!finished) throw new Error(`run ${run.id} disappeared`);
    const report = toReport(publicRun(finished));
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      process.stdout.write(
        `run ${report.run_id} ${report.status}${finished.stop_reason ? ` (${finished.stop_reason})` : ''}: ${report.proposals_created} proposals, ` +
          `${report.items_created} items, ${report.items_failed} failed, ${report.llm_calls} LLM calls, ` +
          `${report.prompt_tokens + report.completion_tokens} tokens, $${report.cost.toFixed(4)} (model ${finished.model})\n`,
      );
    }
    return finished.status === 'done' ? 0 : 1;
  } finally {
    bar?.stop();
    await closeOfflinePool();
    db.close();
  }
}
