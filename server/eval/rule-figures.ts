import type { Db } from '../../db/database';
import type { EvalRun } from '../../shared/api/evaluations';
import { accuracyUnderRules, type RuleAccuracy } from '../../shared/eval/rule-accuracy';
import { finishedAnswers } from './eval-queries';

/** A live run's figures are recomputed at most this often: scoring 100,000 answers three times takes about half a second. */
export const LIVE_RULE_REFRESH_MS = 5_000;
/** Runs whose figures are kept; beyond, the least recently scored is dropped. */
const KEPT_RUNS = 64;

interface Kept {
  /** What the figures were computed over: a finished run's answers never change after. */
  key: string;
  at: number;
  rules: RuleAccuracy[];
}

const kept = new WeakMap<Db, Map<number, Kept>>();

/**
 * A run's relaxed accuracy under every scoring rule, from its stored predictions, for the
 * Evaluation page to set beside its score. A finished run's are computed once; a live run's at
 * most every LIVE_RULE_REFRESH_MS (its page says "so far" either way). Over the run's first
 * condition (`mode`), the one its score is.
 */
export function runRuleAccuracies(db: Db, run: EvalRun, now = Date.now()): RuleAccuracy[] {
  const condition = run.mode;
  let runs = kept.get(db);
  if (runs === undefined) {
    runs = new Map();
    kept.set(db, runs);
  }
  const key = `${run.status}:${run.items_answered}:${run.items_failed}`;
  const live = run.status === 'queued' || run.status === 'running';
  const previous = runs.get(run.id);
  if (previous && (previous.key === key || (live && now - previous.at < LIVE_RULE_REFRESH_MS))) return previous.rules;
  const rules = accuracyUnderRules(finishedAnswers(db, run.id, condition));
  runs.delete(run.id);
  runs.set(run.id, { key, at: now, rules });
  if (runs.size > KEPT_RUNS) runs.delete(runs.keys().next().value ?? run.id);
  return rules;
}
