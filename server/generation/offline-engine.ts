import type { ChartType } from '../../shared/domain/chart-types';
import { OFFLINE_MODEL } from '../../shared/domain/generation';
import type { QaWithChart } from '../charts/chart-queries';
import { NO_USAGE, type GenerationEngine } from './engine';
import { offlineProposals, type OfflineJob } from './offline';
import { offlineItemOffThread, offlineProposalsOffThread } from './offline-pool';

type JobProposal = { id: number; text: string; chartType?: ChartType };

/**
 * The offline rules' input for a question and its proposals: over a group, every chart in order
 * and each proposal with the type of chart it edits (the question's chart's when left out).
 * The offline engine's items and a model task's pairing (`pairing.ts`) both search with it.
 */
export function offlineJobOf(input: { source: QaWithChart; proposal: JobProposal; alternatives: readonly JobProposal[]; control: boolean; seed: number; rejectedAssumptions?: readonly string[]; maxChangeShare?: number }): OfflineJob {
  const { chart, qa, group } = input.source;
  const typed = (proposal: JobProposal) => ({ id: proposal.id, text: proposal.text, chartType: proposal.chartType ?? chart.chart_type });
  if (group) {
    return {
      charts: group.charts.map((member) => ({ table: member.table, chartType: member.chart_type, title: member.title ?? '' })),
      qa: { query: qa.query, label: qa.label },
      proposal: typed(input.proposal),
      alternatives: input.alternatives.map(typed),
      control: input.control,
      seed: input.seed,
      maxChangeShare: input.maxChangeShare,
    };
  }
  return {
    table: chart.table,
    chartType: chart.chart_type,
    title: chart.title ?? '',
    qa: { query: qa.query, label: qa.label },
    proposal: { id: input.proposal.id, text: input.proposal.text },
    alternatives: input.alternatives.map(({ id, text }) => ({ id, text })),
    control: input.control,
    seed: input.seed,
    rejectedAssumptions: input.rejectedAssumptions ?? [],
    maxChangeShare: input.maxChangeShare,
  };
}

/**
 * The offline engine: rule-based proposals and template items whose answers the table engine
 * computes. It calls no model, costs nothing, and names itself `offline-rules` wherever a model
 * name appears. Seeds come from the task id, so a resumed run writes the same thing again.
 */
export function createOfflineEngine(): GenerationEngine {
  return {
    engine: 'offline',
    model: OFFLINE_MODEL,
    async proposals(request) {
      const input = { chartType: request.chartType, examples: request.examples.map((e) => e.text), count: request.count, seed: request.taskId };
      // With questions to grow the pool for, the rules try each candidate on them: off the event loop.
      const texts = request.targets?.length ? await offlineProposalsOffThread({ ...input, targets: request.targets, pool: request.pool ?? [] }) : offlineProposals(input);
      if (texts.length === 0) {
        // Nothing new to say is an expected outcome of the rules, not a failure of the task.
        return { ok: true, texts: [], declined: 'offline rules: the pool already holds everything the rule vocabulary can say for this chart type', usage: NO_USAGE };
      }
      return { ok: true, texts, usage: NO_USAGE };
    },
    async item(request) {
      // Off the event loop: some questions keep the rules busy for a hundred milliseconds or more.
      const result = await offlineItemOffThread(offlineJobOf({ source: request.source, proposal: request.proposal, alternatives: request.alternatives, control: request.control, seed: request.taskId, rejectedAssumptions: request.rejectedAssumptions ?? [], maxChangeShare: request.maxChangeShare }));
      // The rules finding no item for a question (none can be programmed, no operation moves its
      // answer) is an expected refusal, as a model's decline is: the task ends declined, not failed.
      return result.ok ? { ok: true, draft: result.draft, proposalId: result.proposalId, usage: NO_USAGE } : { ok: true, declined: `offline rules: ${result.reason}`, usage: NO_USAGE };
    },
  };
}
