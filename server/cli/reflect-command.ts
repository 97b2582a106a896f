import pino from 'pino';
import { openAndMigrate } from '../../db/database';
import { ReflectionBatchRequestSchema, type ReflectionBatch } from '../../shared/api/reflection';
import { roleAtLeast } from '../../shared/domain/roles';
import { loadConfig } from '../config';
import { ReflectionBatches } from '../reflection/reflection-batches';
import { FeedbackLoop } from '../reflection/reflection-service';
import { findAccountByName } from '../users/user-queries';
import { cliContext } from './cli-context';
import { EXIT_WITH_FAILURES } from './exit-status';

export interface ReflectCommandOptions {
  /** The curator (or admin) the batch is started by, as the Pool page's button records its user. */
  user: string;
  chartType?: string;
  json?: boolean;
}


/** The batch as the Pool page reports it, in lines. */
export function formatBatch(batch: ReflectionBatch): string {
  const lines = [
    `reflection batch ${batch.id} ${batch.status}: ${batch.done} of ${batch.total} proposals, ${batch.revised} revised, ${batch.failed} failed, ` +
      `${batch.done - batch.revised - batch.failed} revised into a proposal the pool held`,
  ];
  for (const error of batch.errors) lines.push(`  proposal ${error.proposal_id}: ${error.error}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `hqa reflect`: the Pool page's "reflect on all with new feedback", in this process — the
 * server's reflection job kind (durable, listed on the page) over every active proposal with
 * decisions it has not reflected on. Ctrl+C stops it here; the next server start resumes it.
 */
export async function runReflect(options: ReflectCommandOptions): Promise<number> {
  const request = ReflectionBatchRequestSchema.safeParse({ chart_type: options.chartType });
  if (!request.success) {
    process.stderr.write(`error: --chart-type: ${request.error.issues[0]?.message ?? 'invalid'}\n`);
    return 1;
  }
  const config = loadConfig();
  const db = openAndMigrate(config.dbPath);
  try {
    const account = findAccountByName(db, options.user);
    if (!account || account.disabled_at !== null || !roleAtLeast(account.role, 'curator')) {
      process.stderr.write(`error: --user: ${account ? `${options.user} is ${account.disabled_at !== null ? 'disabled' : `a ${account.role}`}; a batch is started by a curator or an admin` : `no user ${options.user}`}\n`);
      return 1;
    }
    const ctx = cliContext(db, config, pino({ level: options.json === true ? 'silent' : 'warn' }, pino.destination(2)), (event, payload) => {
      if (event !== 'reflection.progressed' || options.json === true) return;
      const { batch } = payload as { batch: ReflectionBatch };
      process.stderr.write(`reflection batch ${batch.id}: ${batch.done} of ${batch.total} proposals\n`);
    });
    const batches = new ReflectionBatches(ctx, new FeedbackLoop(ctx));
    const stop = () => void batches.shutdown();
    process.once('SIGINT', stop);
    try {
      const started = batches.start(request.data.chart_type, account.id);
      // A batch with nothing to reflect on is done as it is made.
      if (started.status === 'running') await batches.run(started.id);
      const batch = batches.get(started.id);
      process.stdout.write(options.json === true ? `${JSON.stringify({ batch })}\n` : formatBatch(batch));
      if (batch.status !== 'done') return 1;
      return batch.failed > 0 ? EXIT_WITH_FAILURES : 0;
    } finally {
      process.off('SIGINT', stop);
    }
  } finally {
    db.close();
  }
}
