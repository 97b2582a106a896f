import { readFileSync, writeFileSync } from 'node:fs';
import type { AppContext } from '../app-context';
import { mapBatchResults, toJsonl } from '../llm/batch-lines';
import { pairPendingTasks, prepareStage, stageLines, storeFileResults, type StageKind, type StoredStage } from '../generation/batch-stage';
import { planItemTasks, planProposalTasks } from '../generation/run-planner';
import { getRun, pendingTasks, transitionRun, type RunRecord } from '../generation/run-queries';
import { getSettings } from '../settings/settings-queries';

/**
 * `hqa generate --batch-out FILE` / `--batch-in FILE`: a run's model requests through a file,
 * for `vllm run-batch -i FILE -o OUT` on a GPU cluster. `--batch-out` writes the current stage's
 * pending requests and leaves the run paused; `--batch-in OUT --run N` stores that stage's
 * results (no `llm_calls` rows and no cost: nothing went through our provider) and, with
 * `--batch-out` again, writes the next stage's. A run's stages go one file each, since Stage 2
 * asks about Stage 1's proposals.
 */

/** The stage whose requests are next: Stage 1 while it has pending tasks, then Stage 2 (planned here once Stage 1 is through). */
function currentStage(ctx: AppContext, runId: number): StageKind | null {
  const { db } = ctx;
  const run = mustGet(ctx, runId);
  planProposalTasks(db, run);
  if (pendingTasks(db, runId, 'proposals').length > 0) return 'proposals';
  planItemTasks(db, mustGet(ctx, runId));
  return pendingTasks(db, runId, 'item').length > 0 ? 'item' : null;
}

function mustGet(ctx: AppContext, runId: number): RunRecord {
  const run = getRun(ctx.db, runId);
  if (!run) throw new Error(`--run: there is no run ${runId}`);
  return run;
}

const STAGE_NAME: Record<StageKind, string> = { proposals: 'Stage 1 (proposals)', item: 'Stage 2 (items)' };

export interface FileStep {
  /** What was written, if anything. */
  written: { file: string; stage: StageKind; requests: number } | null;
  /** What was read back, if anything. */
  read: ({ file: string; stage: StageKind } & StoredStage) | null;
  /** The command to run next, or null when the run is done. */
  next: string | null;
}

function pauseFor(ctx: AppContext, runId: number, reason: string): void {
  transitionRun(ctx.db, runId, ['queued', 'running', 'paused'], 'paused', reason);
}

/**
 * The stage's requests, prepared: Stage 2's tasks paired first (`pairPendingTasks`), so the file
 * and the results read back later offer each task the same proposals.
 */
async function preparedStage(ctx: AppContext, runId: number, stage: StageKind) {
  const settings = getSettings(ctx.db);
  if (stage === 'item') await pairPendingTasks(ctx, mustGet(ctx, runId), settings);
  const run = mustGet(ctx, runId);
  return { run, settings, tasks: await prepareStage(ctx, run, stage, settings) };
}

/** Writes the run's current stage's requests to `file`; the run waits, paused, for `--batch-in`. */
export async function writeStageFile(ctx: AppContext, runId: number, file: string): Promise<FileStep['written'] & { next: string | null }> {
  const stage = currentStage(ctx, runId);
  if (!stage) {
    transitionRun(ctx.db, runId, ['queued', 'running', 'paused'], 'done');
    return { file, stage: 'item', requests: 0, next: null };
  }
  const { run, settings, tasks } = await preparedStage(ctx, runId, stage);
  // Every task of the stage ended without a request (no table, or paired with no proposal): the run is done, as no stage is left.
  if (tasks.length === 0) return writeStageFile(ctx, runId, file);
  writeFileSync(file, toJsonl(stageLines(ctx, run, tasks, settings)));
  const next = `hqa generate --run ${runId} --batch-in OUT`;
  pauseFor(ctx, runId, `waiting for the ${STAGE_NAME[stage]} results of ${file}: vllm run-batch -i ${file} -o OUT, then ${next}`);
  return { file, stage, requests: tasks.length, next };
}

/** Reads a batch output file into the run's current stage; done when no stage is left. */
export async function readStageFile(ctx: AppContext, runId: number, file: string): Promise<NonNullable<FileStep['read']>> {
  const run = mustGet(ctx, runId);
  if (run.status !== 'paused' && run.status !== 'queued') throw new Error(`--run: run ${runId} is ${run.status}; --batch-in reads into a run waiting for its file (paused)`);
  const stage = currentStage(ctx, runId);
  if (!stage) throw new Error(`--batch-in: run ${runId} has no pending requests to read results for`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--batch-in: ${file}: ${(error as Error).message}`, { cause: error });
  }
  const { tasks } = await preparedStage(ctx, runId, stage);
  const mapped = mapBatchResults(
    tasks.map((t) => t.customId),
    [{ source: file, text }],
  );
  if (mapped.missing.length === tasks.length && tasks.length > 0) {
    // Storing would fail every task as missing: the file is another stage's or another run's.
    throw new Error(`--batch-in: ${file} answers none of run ${runId}'s ${tasks.length} ${STAGE_NAME[stage]} requests (custom_id ${tasks[0]?.customId} …); ${mapped.unknown.length} results are for other requests`);
  }
  transitionRun(ctx.db, runId, ['paused', 'queued'], 'running');
  const stored = storeFileResults(ctx, tasks, mapped.results, mapped.unknown);
  return { file, stage, ...stored };
}

/** After a stage is read: done if no stage is left, else paused until the next stage's file is written. */
export function settleAfterRead(ctx: AppContext, runId: number): string | null {
  const stage = currentStage(ctx, runId);
  if (!stage) {
    transitionRun(ctx.db, runId, ['running', 'paused'], 'done');
    return null;
  }
  const next = `hqa generate --run ${runId} --batch-out FILE`;
  pauseFor(ctx, runId, `${STAGE_NAME[stage]} is next: write its requests with ${next}`);
  return next;
}
