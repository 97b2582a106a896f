import { SingleBar, Presets } from 'cli-progress';
import { pino } from 'pino';
import { openAndMigrate } from '../../db/database';
import { RunConfigSchema, type GenerateReport, type Run } from '../../shared/api/runs';
import type { AppContext } from '../app-context';
import { loadConfig } from '../config';
import { engineFactory } from '../generation/engine-factory';
import { closeOfflinePool } from '../generation/offline-pool';
import { RunExecutor } from '../generation/run-executor';
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

export function toReport(run: Run): GenerateReport {
  return {
    run_id: run.id,
    status: run.status,
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
    engine: options.engine ?? (config.openaiApiKey ? 'openai' : 'offline'),
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
    const flag = `--${String(issue?.path[0] ?? 'option').replace(/_/g, '-')}`;
    throw new Error(`${flag}: ${issue?.message ?? 'invalid'}`);
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
    const run = executor.createRun(parsed.data, null);
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
