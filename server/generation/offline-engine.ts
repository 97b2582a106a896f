import { OFFLINE_MODEL } from '../../shared/domain/generation';
import { NO_USAGE, type GenerationEngine } from './engine';
import { offlineItem, offlineProposals } from './offline';

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
    item(request) {
      const { chart, qa } = request.source;
      const result = offlineItem({
        table: chart.table,
        chartType: chart.chart_type,
        title: chart.title ?? '',
        qa: { query: qa.query, label: qa.label },
        proposal: request.proposal,
        seed: request.taskId,
      });
      return Promise.resolve(result.ok ? { ok: true, draft: result.draft, usage: NO_USAGE } : { ok: false, reason: `offline rules: ${result.reason}`, usage: NO_USAGE });
    },
  };
}
