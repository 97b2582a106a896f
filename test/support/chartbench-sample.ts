import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SEED_BENCHMARKS } from './paths';

/** The real ChartBench sample (600 records of test_mini.jsonl) and predictions made up for it. */
export const CHARTBENCH_SAMPLE = resolve(SEED_BENCHMARKS, 'chartbench/test_mini.first600.DERIVED.jsonl');

export interface ChartBenchSampleRecord {
  id: number;
  type: { chart: string; image: string; task: string; QA: 'Acc+' | 'GPT-acc' };
  conversation: { label: string; query: string }[];
}

export function readChartBenchSample(): ChartBenchSampleRecord[] {
  return readFileSync(CHARTBENCH_SAMPLE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ChartBenchSampleRecord);
}

/** How a made-up model answers a judgement pair: right, "yes" to both, "no" to both, or the wrong way round. */
export type PairStrategy = 'right' | 'yes' | 'no' | 'reversed';

const REPLY: Record<PairStrategy, [string, string]> = {
  right: ['Yes', 'No'],
  yes: ['Yes.', 'yes'],
  no: ['No', 'no.'],
  reversed: ['No', 'Yes'],
};

/**
 * A numeric answer `factor` times the gold (keeping a `%`), so the relaxed rule's 5 % decides; a
 * gold that is no number (the sample has "16.599M") is answered exactly.
 */
export function scaledAnswer(label: string, factor: number): string {
  const percent = label.endsWith('%');
  const gold = Number(label.replace(/%$/, ''));
  if (label.trim() === '' || !Number.isFinite(gold)) return label;
  const value = gold * factor;
  return `${Number(value.toFixed(4))}${percent ? '%' : ''}`;
}

/**
 * `hqa eval` rows (`<record id>#<index>`) for the sample: each pair answered by `pairStrategy(record)`,
 * each NQA question by its gold times `nqaFactor(record)`.
 */
export function chartBenchPredictions(
  records: readonly ChartBenchSampleRecord[],
  pairStrategy: (record: ChartBenchSampleRecord) => PairStrategy,
  nqaFactor: (record: ChartBenchSampleRecord) => number,
): { id: string; prediction: string }[] {
  return records.flatMap((record) => {
    if (record.type.QA === 'GPT-acc') return [{ id: `${record.id}#0`, prediction: scaledAnswer(record.conversation[0]?.label ?? '', nqaFactor(record)) }];
    const [yes, no] = REPLY[pairStrategy(record)];
    // The sample lists the Yes assertion first; the rows follow the conversation order.
    return [
      { id: `${record.id}#0`, prediction: record.conversation[0]?.label === 'Yes' ? yes : no },
      { id: `${record.id}#1`, prediction: record.conversation[1]?.label === 'Yes' ? yes : no },
    ];
  });
}
