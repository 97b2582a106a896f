import { OFFLINE_MODEL } from '../../shared/domain/generation';
import { NO_USAGE, type GenerationEngine } from './engine';
import { offlineProposals } from './offline';
import { offlineItemOffThread } from './offline-pool';

/**
 * The offline engine: rule-based proposals and template items whose answers the table engine
 * computes. It calls no model, costs nothing, and names itself `offline-rules` wherever a model
 * name appears. Seeds come from the task id, so a resumed run writes the same thing again.
 */
export function createOfflineEngine(): GenerationEngine {
  return {
    engine: 'offline',
    model: OFFLINE_MODEL,
    proposals(request) {
      const texts = offlineProposals({
        chartType: request.chartType,
        examples: request.examples.map((e) => e.text),
        count: request.count,
        seed: request.taskId,
      });
      if (texts.length === 0) {
        return Promise.resolve({ ok: false, reason: 'offline rules: the pool already holds everything the rule vocabulary can say for this chart type', usage: NO_USAGE });
      }
      return Promise.resolve({ ok: true, texts, usage: NO_USAGE });
    },
    async item(request) {
      const { chart, qa, group } = request.source;
      // Off the event loop: some questions keep the rules busy for a hundred milliseconds or more.
      const result = await offlineItemOffThread(group ? {
        charts: group.charts.map((member) => ({ table: member.table, chartType: member.chart_type, title: member.title ?? '' })),
        qa: { query: qa.query, label: qa.label },
        proposal: { id: request.proposal.id, text: request.proposal.text, chartType: request.proposal.chartType ?? chart.chart_type },
        // A group's alternatives carry their chart type (of any chart the group holds); a plain one is the question's chart's.
        alternatives: request.alternatives.map((alternative) => ({ ...alternative, chartType: alternative.chartType ?? chart.chart_type })),
        control: request.control,
        seed: request.taskId,
      } : {
        table: chart.table,
        chartType: chart.chart_type,
        title: chart.title ?? '',
        qa: { query: qa.query, label: qa.label },
        proposal: request.proposal,
        alternatives: request.alternatives,
        control: request.control,
        seed: request.taskId,
        rejectedAssumptions: request.rejectedAssumptions ?? [],
      });
      return Promise.resolve(
        result.ok ? { ok: true, draft: result.draft, proposalId: result.proposalId, usage: NO_USAGE } : { ok: false, reason: `offline rules: ${result.reason}`, usage: NO_USAGE },
      );
    },
  };
}
