import type { ProposalScope } from '../../shared/api/pool';
import type { ChartType } from '../../shared/domain/chart-types';
import type { Engine } from '../../shared/domain/generation';
import type { HqaItemDraft } from '../../shared/generation/item-draft';
import type { Finding } from '../../shared/table/lint';
import type { QaWithChart } from '../charts/chart-queries';
import type { ProposalTarget } from './offline';
import type { Stage2Offer } from './stage-prompts';

/** Tokens and money a piece of generation cost (all zero for the offline engine). */
export interface EngineUsage {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Of `prompt_tokens`, those the endpoint served from its prompt cache. */
  cached_tokens: number;
  cost: number;
}

export const NO_USAGE: EngineUsage = { calls: 0, prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cost: 0 };

/**
 * `transport`: the endpoint, not the task, failed — it could not be reached or did not answer
 * usefully after every retry (the LLM client's `transport` kind). Runs count these in a row.
 */
export type EngineResult<T> = ({ ok: true } & T & { usage: EngineUsage }) | { ok: false; reason: string; usage: EngineUsage; transport?: boolean };

export interface ProposalRequest {
  runId: number;
  taskId: number;
  chartType: ChartType;
  examples: { id: number; text: string }[];
  count: number;
  /** 'group': proposals for questions over a chart group (the examples are group proposals); 'chart' when left out. */
  scope?: ProposalScope;
  /**
   * A sample of the run's questions of the chart type, and the pool's active proposals of it:
   * an engine that can tell which proposals change which answers (the offline rules) grows the
   * pool toward the questions no proposal serves yet. A model is not sent them.
   */
  targets?: readonly ProposalTarget[];
  pool?: readonly string[];
  signal: AbortSignal;
}

export interface ItemRequest {
  runId: number;
  taskId: number;
  source: QaWithChart;
  /**
   * `chartType`: the proposal's chart type. Over a group (`source.group`) it is the type of the
   * chart the assumption edits; left out, the question's chart's.
   */
  proposal: { id: number; text: string; chartType?: ChartType };
  /**
   * Other active proposals of the chart type, least used first (over a group: the group
   * proposals of every chart type the group holds, each with its type). An engine that can tell
   * beforehand that the task's proposal cannot change this question's answer (the offline
   * rules can) pairs the question with one of these instead; a model is held to its proposal.
   */
  alternatives: { id: number; text: string; chartType?: ChartType }[];
  /** This task is drawn to be a control: an assumption that leaves the answer unchanged is wanted, and kept. */
  control: boolean;
  /** Assumptions reviewers rejected for this QA: an engine that can avoid them (the offline rules) never writes one again. */
  rejectedAssumptions?: readonly string[];
  /** Settings `max_change_share`: an engine that checks its own edits (the offline rules) holds them to it. */
  maxChangeShare?: number;
  /**
   * A model engine: what its request offers, from the task's pairing (`pairing.ts`): the proposal
   * it was paired with, or candidates to choose from. Left out, the task's `proposal`.
   */
  offer?: Stage2Offer;
  signal: AbortSignal;
}

/**
 * A Stage 2 task's result: the item (`proposalId`, the proposal it performs when that is not the
 * task's own; `notes`, how the engine read the reply, e.g. `edit_normalised`, stored with the
 * item's lint), or the model's decline (offered candidates, it found none that can change the answer).
 */
export type ItemOutcome = { draft: HqaItemDraft; proposalId?: number; notes?: Finding[] } | { declined: string };

/**
 * What writes proposals (Stage 1) and items (Stage 2): the OpenAI-compatible model or the
 * offline rule engine. The run executor does the rest (planning, storing, verifying, counting).
 */
export interface GenerationEngine {
  readonly engine: Engine;
  /** The model name recorded with everything it makes (`offline-rules` for the offline engine). */
  readonly model: string;
  /** `declined`: no proposal was written, as expected rather than as a failure (the offline rules have nothing new to say), and why. */
  proposals(request: ProposalRequest): Promise<EngineResult<{ texts: string[]; declined?: string }>>;
  item(request: ItemRequest): Promise<EngineResult<ItemOutcome>>;
}
