import { FACTUAL_BASELINE_MODEL } from '../../shared/api/evaluations';
import { OFFLINE_MODEL } from '../../shared/domain/generation';
import type { Settings } from '../../shared/settings';
import type { Config } from '../config';
import type { Endpoint, ModelConnection } from './provider';

/**
 * Which model each role asks, through which endpoint, and what answers instead when there is
 * no endpoint. The one place the key, base URL and model are resolved: the environment gives
 * the endpoint (`OPENAI_API_KEY`, `OPENAI_BASE_URL`), the admin settings the model, temperature,
 * timeout, retries and prices. A run may still name its own model (a generation run's `model`,
 * an evaluation run's); the role's model is the default it overrides.
 */

export const MODEL_ROLES = ['generation', 'reflection', 'evaluation', 'judge', 'extraction', 'chart_type'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** Relaxed ChartQA matching (`judgePrediction` in shared/eval/metrics.ts): the judge without a model. */
export const RULE_JUDGE = 'relaxed-match';

/** No vision model to read a chart's table from its image: a curator types it in (server/tables/). */
export const CURATOR_TABLE_ENTRY = 'curator-entry';

/** No vision model to tell a chart's type from its image: the type stays unconfirmed for curators' triage (server/chart-types/). */
export const CURATOR_TYPE_TRIAGE = 'curator-triage';

/**
 * What answers for a role without a model, each named so records and reports say it was rules:
 * the offline engine, the offline rule reviser, the factual baseline (the factual label as the
 * answer), the relaxed-match rule judge.
 */
export const STAND_INS: Record<ModelRole, string> = {
  generation: OFFLINE_MODEL,
  reflection: OFFLINE_MODEL,
  evaluation: FACTUAL_BASELINE_MODEL,
  judge: RULE_JUDGE,
  extraction: CURATOR_TABLE_ENTRY,
  chart_type: CURATOR_TYPE_TRIAGE,
};

/** Vision calls over big charts are slow; this is per attempt. */
export const EVAL_TIMEOUT_MS = 120_000;
/** An evaluation question is asked at most this often (the first try and its retries). */
export const EVAL_MAX_ATTEMPTS = 5;

export interface RoleProvider {
  role: ModelRole;
  /** Null without `OPENAI_API_KEY`: the stand-in answers, and a run that asks for the model is refused. */
  connection: ModelConnection | null;
  /** Asked unless a run names its own; null where every run must name one (evaluation). */
  model: string | null;
  temperature: number;
  standIn: string;
}

export type Providers = Record<ModelRole, RoleProvider>;

/** The part of the server's configuration that says where the models are. */
export type ModelEnv = Pick<Config, 'openaiApiKey' | 'openaiBaseUrl'>;

function endpointFrom(env: ModelEnv): Endpoint | null {
  if (!env.openaiApiKey) return null;
  return { apiKey: env.openaiApiKey, ...(env.openaiBaseUrl ? { baseURL: env.openaiBaseUrl } : {}) };
}

/** Whether the roles ask models: the default engine of a generation run, what the server reports it uses. */
export function hasModelEndpoint(env: ModelEnv): boolean {
  return endpointFrom(env) !== null;
}

/**
 * Every role resolved from a settings snapshot and the environment. Generation, reflection and
 * judging use the settings' timeout and retries; evaluation, whose vision calls are slower, its
 * own (`EVAL_TIMEOUT_MS`, `EVAL_MAX_ATTEMPTS`) and temperature 0, as scoring wants; the judge
 * reads at temperature 0 too, with the `judge_model` setting; extraction (a chart's table read
 * from its image) at temperature 0 with the `extraction_model` setting and evaluation's longer
 * vision timeout; chart_type (which type an image shows, one small call per chart) asks the same
 * vision model, the one the admin configured, the same way.
 */
export function providersFor(settings: Settings, env: ModelEnv): Providers {
  const endpoint = endpointFrom(env);
  const connect = (timeoutMs: number, maxRetries: number): ModelConnection | null =>
    endpoint ? { ...endpoint, timeoutMs, maxRetries, prices: settings.price_table } : null;
  const fromSettings = connect(settings.request_timeout_ms, settings.max_retries);
  return {
    generation: { role: 'generation', connection: fromSettings, model: settings.generation_model, temperature: settings.temperature, standIn: STAND_INS.generation },
    reflection: { role: 'reflection', connection: fromSettings, model: settings.generation_model, temperature: settings.temperature, standIn: STAND_INS.reflection },
    evaluation: { role: 'evaluation', connection: connect(EVAL_TIMEOUT_MS, EVAL_MAX_ATTEMPTS - 1), model: null, temperature: 0, standIn: STAND_INS.evaluation },
    judge: { role: 'judge', connection: fromSettings, model: settings.judge_model, temperature: 0, standIn: STAND_INS.judge },
    extraction: { role: 'extraction', connection: connect(EVAL_TIMEOUT_MS, settings.max_retries), model: settings.extraction_model, temperature: 0, standIn: STAND_INS.extraction },
    chart_type: { role: 'chart_type', connection: connect(EVAL_TIMEOUT_MS, settings.max_retries), model: settings.extraction_model, temperature: 0, standIn: STAND_INS.chart_type },
  };
}
