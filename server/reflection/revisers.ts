import type { Db } from '../../db/database';
import type { FeedbackEntry } from '../../shared/api/reflection';
import { CHART_TYPE_LABELS, type ChartType } from '../../shared/domain/chart-types';
import { reviseFromFeedback } from './feedback-rules';
import { OFFLINE_MODEL } from '../../shared/domain/generation';
import { ModelReflectionOutputSchema, toRevision } from '../../shared/generation/model-output';
import type { EngineUsage } from '../generation/engine';
import { NO_USAGE } from '../generation/engine';
import { createLlmClient } from '../llm/llm-client';
import type { ModelConnection } from '../llm/provider';
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

/**
 * The offline reviser: rule-based and says so. Its revision depends on what failed and on the
 * reviewers' words (server/reflection/feedback-rules.ts), and its record quotes the feedback
 * it answered; with nothing failed and no fault named there is nothing to revise.
 */
export function createOfflineReviser(): Reviser {
  return {
    engine: 'offline',
    model: OFFLINE_MODEL,
    revise({ proposal, feedback }) {
      const revision = reviseFromFeedback(proposal, feedback);
      if (!revision) return Promise.resolve({ ok: false, reason: 'offline rules: no criterion failed and no feedback names a fault, so there is nothing to revise', usage: NO_USAGE });
      return Promise.resolve({ ok: true, text: revision.text, addressed: `Offline rule engine (${OFFLINE_MODEL}): ${revision.addressed}.`, usage: NO_USAGE });
    },
  };
}

/** The reflection role's model (`providersFor(…).reflection`), with `prompts/reflection.md`. */
export function createOpenAiReviser(options: { db: Db; connection: ModelConnection; model: string; temperature: number }): Reviser {
  const client = createLlmClient({ db: options.db, connection: options.connection, engineName: 'openai' });
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
      const { prompt_tokens, completion_tokens, cached_tokens, cost } = result.usage;
      const usage: EngineUsage = { calls: result.attempts, prompt_tokens, completion_tokens, cached_tokens, cost };
      return result.ok ? { ok: true, text: result.value.text, addressed: result.value.addressed, usage } : { ok: false, reason: result.reason, usage };
    },
  };
}
