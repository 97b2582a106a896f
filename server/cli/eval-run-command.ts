import pino from 'pino';
import { openAndMigrate } from '../../db/database';
import { StartEvalRequestSchema, type EvalRun } from '../../shared/api/evaluations';
import { loadConfig } from '../config';
import { DomainError } from '../domain-error';
import { EvalExecutor } from '../eval/eval-executor';
import { cliContext } from './cli-context';

export interface EvalRunCommandOptions {
  engine: string;
  model?: string;
  /** A comma-separated list of conditions (`shared/eval/conditions.ts`). */
  conditions: string;
  concurrency: string;
  limit?: string;
  batch?: boolean;
  json?: boolean;
}

const percent = (value: number | null) => (value === null ? '–' : `${value.toFixed(1)}%`);

/** The run as the Evaluation page shows it, in lines: per condition its accuracy, then the gaps. */
export function formatEvalRun(run: EvalRun): string {
  const lines = [
    `evaluation run ${run.id} ${run.status}${run.error ? ` (${run.error})` : ''}: ${run.model}, ${run.items_answered} answered, ${run.items_failed} failed, ${run.items_skipped} skipped, ` +
      `${run.prompt_tokens + run.completion_tokens} tokens, $${run.cost.toFixed(4)}`,
  ];
  for (const condition of run.conditions) {
    lines.push(`  ${condition.condition}: ${percent(condition.score.relaxed_accuracy)} relaxed accuracy over ${condition.items_total} questions${condition.items_skipped > 0 ? ` (${condition.items_skipped} skipped)` : ''}`);
  }
  for (const gap of run.gaps) lines.push(`  ${gap.label}: ${gap.points === null ? '–' : `${gap.points > 0 ? '+' : ''}${gap.points.toFixed(1)} points`}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `hqa eval-run`: the Evaluation page's run, in this process — the server's evaluation job kind
 * (durable, listed on the page) over this database's accepted items. Ctrl+C stops it here and
 * leaves it to the next server start, which takes it up where it was.
 */
export async function runEvalRun(options: EvalRunCommandOptions): Promise<number> {
  const parsed = StartEvalRequestSchema.safeParse({
    engine: options.engine,
    model: options.model,
    conditions: options.conditions.split(',').map((condition) => condition.trim()),
    concurrency: Number(options.concurrency),
    limit: options.limit === undefined ? undefined : Number(options.limit),
    batch: options.batch === true,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    process.stderr.write(`error: --${String(issue?.path[0] ?? 'option')}: ${issue?.message ?? 'invalid'}\n`);
    return 1;
  }
  const config = loadConfig();
  const db = openAndMigrate(config.dbPath);
  let shownTenth = -1;
  const ctx = cliContext(db, config, pino({ level: options.json === true ? 'silent' : 'warn' }, pino.destination(2)), (event, payload) => {
    if (event !== 'eval.progressed' || options.json === true) return;
    const { run } = payload as { run: EvalRun };
    const finished = run.items_answered + run.items_failed;
    // One line per tenth of the run: a log, not a screen.
    const tenth = Math.floor((finished * 10) / Math.max(1, run.items_total));
    if (tenth === shownTenth) return;
    shownTenth = tenth;
    process.stderr.write(`evaluation run ${run.id}: ${finished} of ${run.items_total} questions\n`);
  });
  const executor = new EvalExecutor(ctx);
  const stop = () => void executor.shutdown();
  process.once('SIGINT', stop);
  try {
    const created = executor.createRun(parsed.data, null);
    await executor.start(created.id);
    const run = executor.get(created.id);
    process.stdout.write(options.json === true ? `${JSON.stringify({ run })}\n` : formatEvalRun(run));
    return run.status === 'done' ? 0 : 1;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    process.stderr.write(`error: ${error.field ? `--${error.field}: ` : ''}${error.message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', stop);
    db.close();
  }
}
