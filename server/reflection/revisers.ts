import type { Db } from '../../db/database';
import type { FeedbackEntry } from '../../shared/api/reflection';
import { CHART_TYPE_LABELS, type ChartType } from '../../shared/domain/chart-types';
import { OFFLINE_MODEL } from '../../shared/domain/generation';
import type { Criterion } from '../../shared/domain/review';
import { ModelReflectionOutputSchema, toRevision } from '../../shared/generation/model-output';
import type { Settings } from '../../shared/settings';
import type { EngineUsage } from '../generation/engine';
import { NO_USAGE } from '../generation/engine';
import { createLlmClient } from '../llm/llm-client';
import { chartTypeDescription, loadTemplate } from '../llm/templates';

export interface RevisionRequest {
  proposal: { id: number; text: string; chart_type: ChartType };
  feedback: FeedbackEntry[];
  decided: number;
  accepted: number;
  /** A batch being stopped (server shutdown): the call ends, and the batch asks again on resume. */
  signal?: AbortSignal;
}

export type RevisionResult = { ok: true; text: string; addressed: string; usage: EngineUsage } | { ok: false; reason: string; usage: EngineUsage };

export interface Reviser {
  engine: 'offline' | 'openai';
  model: string;
  revise(request: RevisionRequest): Promise<RevisionResult>;
}

/** The clause the offline reviser adds for each failed criterion: the reviewers' recurring constraint, as a rule. */
const CONSTRAINTS: Record<Criterion, Record<'general' | 'share', string>> = {
  layout: {
    general: 'keeping every named category on the chart and every value within its axis',
    share: 'taking the change from the other parts so the shares still sum to 100',
  },
  correctness: {
    general: 'stating the exact new value so the answer can be computed from the chart',
    share: 'stating the exact new share so the answer can be computed from the chart',
  },
  rationality: {
    general: 'keeping the change plausible for what the chart measures and asking one unambiguous question',
    share: 'keeping the change plausible for what the chart measures and asking one unambiguous question',
  },
};

const SHARE_TYPES: readonly ChartType[] = ['pie', 'stacked_bar'];

/**
 * The offline reviser: rule-based and says so. It finds the criterion reviewers failed most
 * often and appends that criterion's constraint to the proposal; with no failures there is
 * nothing to revise.
 */
export function createOfflineReviser(): Reviser {
  return {
    engine: 'offline',
    model: OFFLINE_MODEL,
    revise({ proposal, feedback }) {
      const tally = new Map<Criterion, number>();
      for (const entry of feedback) for (const criterion of entry.failed) tally.set(criterion, (tally.get(criterion) ?? 0) + 1);
      const top = [...tally.entries()].sort((a, b) => b[1] - a[1])[0];
      if (!top) return Promise.resolve({ ok: false, reason: 'offline rules: no criterion failed, so there is nothing to revise', usage: NO_USAGE });
      const [criterion, count] = top;
      const clause = CONSTRAINTS[criterion][SHARE_TYPES.includes(proposal.chart_type) ? 'share' : 'general'];
      const base = proposal.text.trim().replace(/[.!?]+$/, '');
      const text = base.toLowerCase().includes(clause.slice(0, 30).toLowerCase()) ? `${base}.` : `${base}, ${clause}.`;
      return Promise.resolve({
        ok: true,
        text: text.length > 400 ? `${text.slice(0, 397)}...` : text,
        addressed: `Offline rule engine (offline-rules): ${criterion} failed in ${count} of ${feedback.length} reviews; added its constraint.`,
        usage: NO_USAGE,
      });
    },
  };
}

export function createOpenAiReviser(options: { db: Db; apiKey: string; baseURL?: string; model: string; temperature: number; settings: Settings }): Reviser {
  const client = createLlmClient({
    db: options.db,
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    settings: options.settings,
    engineName: 'openai',
  });
  const template = loadTemplate('reflection');
  return {
    engine: 'openai',
    model: options.model,
    async revise({ proposal, feedback, decided, accepted, signal }) {
      const messages = template.render({
        chart_type: proposal.chart_type,
        chart_type_label: CHART_TYPE_LABELS[proposal.chart_type],
        chart_type_description: chartTypeDescription(proposal.chart_type),
        proposal: proposal.text,
        decided,
        accepted,
        feedback: feedback.map((f) => ({
          question: f.question,
          decision: f.decision,
          failed: f.failed.length ? f.failed.join(', ') : 'none',
          notes: f.notes,
          comment: f.comment,
          correction: f.correction,
        })),
      });
      const result = await client.complete({
        purpose: 'reflection',
        template: { name: template.name, hash: template.hash },
        messages,
        wireSchema: ModelReflectionOutputSchema,
        schemaName: 'proposal_revision',
        convert: toRevision,
        model: options.model,
        temperature: options.temperature,
        ...(signal ? { signal } : {}),
      });
      const usage: EngineUsage = { calls: result.attempts, prompt_tokens: result.usage.prompt_tokens, completion_tokens: result.usage.completion_tokens, cost: result.usage.cost };
      return result.ok ? { ok: true, text: result.value.text, addressed: result.value.addressed, usage } : { ok: false, reason: result.reason, usage };
    },
  };
}
