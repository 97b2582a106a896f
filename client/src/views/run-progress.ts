import { FINISHED_RUN_STATUSES, OFFLINE_MODEL, type Engine } from '@shared/domain/generation';
import type { QaOrder, Run } from '@shared/api/runs';

export interface RunTiming {
  /** Seconds since the run started (to its end, once finished); null before it starts. */
  elapsedSeconds: number | null;
  /** Seconds left at the rate so far; null when it cannot be told (not running, nothing finished yet). */
  etaSeconds: number | null;
}

function parseTime(iso: string | null): number | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Elapsed time and an ETA from the rate so far (finished tasks per elapsed second). A paused
 * stretch counts as elapsed time, so the ETA right after a resume is on the long side.
 */
export function runTiming(run: Run, nowMs: number): RunTiming {
  const total = run.tasks_total;
  // While the run still plans, its total will grow: a rate over it would promise too early an end.
  const finished = run.tasks_done + run.tasks_failed;
  const started = parseTime(run.started_at);
  const ended = parseTime(run.finished_at) ?? nowMs;
  const elapsedSeconds = started === null ? null : Math.max(0, (ended - started) / 1000);
  const remaining = Math.max(0, total - finished);
  let etaSeconds: number | null = null;
  if (run.status === 'running' && run.plan_complete && elapsedSeconds !== null && elapsedSeconds > 0 && finished > 0) {
    etaSeconds = remaining / (finished / elapsedSeconds);
  }
  return { elapsedSeconds, etaSeconds };
}

export function isFinished(run: Pick<Run, 'status'>): boolean {
  return FINISHED_RUN_STATUSES.includes(run.status);
}

/** "1 h 02 min", "3 min 05 s", "12 s". */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
}

/** Money in the price table's currency (USD), with enough places for small per-call costs. */
export function formatCost(cost: number): string {
  return `$${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

/** The engine as people should read it: the offline engine is rules, never an LLM. */
export function engineLabel(engine: Engine, model: string): string {
  return engine === 'offline' ? `${OFFLINE_MODEL} (rule-based, no LLM)` : `${model} (LLM)`;
}

/** How a run picks its factual QAs, as the form and the run page say it. */
export const QA_ORDER_LABELS: Record<QaOrder, string> = {
  stratified: 'Spread over chart types and charts',
  id: 'Lowest QA ids first',
};
