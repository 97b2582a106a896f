import { describe, expect, it } from 'vitest';
import { CHART_TYPES } from '../../../shared/domain/chart-types';
import { ProposalBatchSchema } from '../../../shared/generation/item-draft';
import { DEFAULT_ROUGE_THRESHOLD, rougeLF } from '../../../shared/generation/similarity';
import { demoCharts } from '../../demo/demo-charts';
import { offlineProposals } from './offline-proposals';
import { PROPOSAL_TEMPLATES } from './proposal-vocabulary';

/** Every row and series label of a demo split, by chart type: what a general proposal must not name. */
function entityLabels(): Map<string, Set<string>> {
  const labels = new Map<string, Set<string>>();
  for (const chart of demoCharts({ charts: 120, seed: 11 })) {
    const set = labels.get(chart.type) ?? new Set<string>();
    for (const label of [...chart.table.rows.map((row) => row.label), ...chart.table.series]) {
      if (label.length >= 4 && !/^\d+$/.test(label)) set.add(label.toLowerCase());
    }
    labels.set(chart.type, set);
  }
  return labels;
}

describe('offlineProposals', () => {
  const labels = entityLabels();

  it.each(CHART_TYPES)('writes general, distinct proposals for %s that fit the Stage 1 schema', (chartType) => {
    expect(PROPOSAL_TEMPLATES[chartType].length).toBeGreaterThanOrEqual(6);
    const proposals = offlineProposals({ chartType, examples: [], count: 8, seed: 1 });
    expect(proposals).toHaveLength(8);
    expect(ProposalBatchSchema.safeParse({ proposals }).success).toBe(true);
    for (const text of proposals) {
      expect(text).not.toMatch(/[{}"]/);
      for (const label of labels.get(chartType) ?? []) expect(text.toLowerCase()).not.toContain(` ${label} `);
    }
    for (const [i, a] of proposals.entries()) {
      for (const b of proposals.slice(i + 1)) expect(rougeLF(a, b)).toBeLessThan(DEFAULT_ROUGE_THRESHOLD);
    }
  });

  it.each(CHART_TYPES)('is deterministic for a seed and varies with it (%s)', (chartType) => {
    const a = offlineProposals({ chartType, examples: [], count: 6, seed: 42 });
    expect(offlineProposals({ chartType, examples: [], count: 6, seed: 42 })).toEqual(a);
    expect(offlineProposals({ chartType, examples: [], count: 6, seed: 43 })).not.toEqual(a);
  });

  it.each(CHART_TYPES)('never returns a near-copy of an example (%s)', (chartType) => {
    const examples = offlineProposals({ chartType, examples: [], count: 10, seed: 5 });
    const fresh = offlineProposals({ chartType, examples, count: 10, seed: 5 });
    expect(fresh.length).toBeGreaterThan(0);
    for (const text of fresh) {
      for (const example of examples) expect(rougeLF(text, example)).toBeLessThan(DEFAULT_ROUGE_THRESHOLD);
    }
  });

  it.each(CHART_TYPES)('lets a pool grow by dozens before near-duplicates dominate (%s)', (chartType) => {
    // As Stage 1 runs: each batch sees a sample of the pool and the pool keeps what is not a near-duplicate.
    const pool: string[] = [];
    let offered = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const batch = offlineProposals({ chartType, examples: pool.slice(-4), count: 8, seed });
      offered += batch.length;
      for (const text of batch) {
        if (!pool.some((other) => rougeLF(text, other) >= DEFAULT_ROUGE_THRESHOLD)) pool.push(text);
      }
    }
    expect(offered).toBe(96);
    expect(pool.length).toBeGreaterThanOrEqual(30);
  });
});
