import { isYesReply, scoreJudgementPairs, type JudgementPair, type PairScore } from '../../shared/eval/chartbench-metrics';
import { roundTo } from '../../shared/eval/metrics';
import type { ReportTable, ScoreReport } from '../../shared/eval/score-report';
import { PairsRecordSchema, type PairsRecord } from '../../shared/export/pairs-record';
import { chartBenchQueryId } from './chartbench-file';
import { idsWarning, parseWith, readPredictionRows, readRecords, ScoreFileError, type NamedText } from './score-file-input';

/**
 * A `hqa export --format pairs` file scored as ChartBench scores its judgement pairs (Acc+, Acc,
 * CoR; a reply is "yes" when it contains "yes"), against predictions with one id per assertion,
 * ChartBench's scheme: `<record id>#0` the true assertion, `<record id>#1` the false one. Beside
 * ChartBench's figures: how often the false assertion that states the original factual answer
 * was accepted — a model answering from the unedited chart.
 */

interface ScoredPair {
  record: PairsRecord;
  pair: JudgementPair;
}

function readPairs(file: NamedText): { pairs: PairsRecord[]; queryIds: Set<string> } {
  const pairs: PairsRecord[] = [];
  const queryIds = new Set<string>();
  for (const located of readRecords(file)) {
    const record = parseWith(PairsRecordSchema, located.value, located.where);
    const yes = chartBenchQueryId(record.id, 0);
    if (queryIds.has(yes)) throw new ScoreFileError(`${located.where}: id: duplicate record id ${record.id}`);
    queryIds.add(yes).add(chartBenchQueryId(record.id, 1));
    pairs.push(record);
  }
  return { pairs, queryIds };
}

export interface PairsFileScore {
  overall: PairScore;
  byChartType: Map<string, PairScore>;
  byAnswerType: Map<string, PairScore>;
  byFalseValue: Map<string, PairScore>;
  /** Pairs whose false assertion states the original factual answer, and how many of those it was answered yes. */
  originalProbes: { pairs: number; acceptedOriginal: number };
  warnings: string[];
}

export function scorePairsTexts(dataset: NamedText, predictions: NamedText): PairsFileScore {
  const { pairs, queryIds } = readPairs(dataset);
  const replies = readPredictionRows(readRecords(predictions), predictions.name);
  const unasked: string[] = [];
  const reply = (id: string): string | null => {
    if (!replies.has(id)) unasked.push(id);
    return replies.get(id) ?? null;
  };
  const scored: ScoredPair[] = pairs.map((record) => ({ record, pair: { yesReply: reply(chartBenchQueryId(record.id, 0)), noReply: reply(chartBenchQueryId(record.id, 1)) } }));
  // scoreJudgementPairs breaks down by its `group` key: each breakdown here is one pass with it set.
  const by = (key: (record: PairsRecord) => string) => scoreJudgementPairs(scored.map(({ record, pair }) => ({ ...pair, group: key(record) }))).by.group;
  const probes = scored.filter(({ record }) => record.false_value_source === 'original_label');
  const unknown = [...replies.keys()].filter((id) => !queryIds.has(id));
  return {
    overall: scoreJudgementPairs(scored.map(({ pair }) => pair)).overall,
    byChartType: by((record) => record.type.image),
    byAnswerType: by((record) => record.answer_type),
    byFalseValue: by((record) => record.false_value_source),
    originalProbes: { pairs: probes.length, acceptedOriginal: probes.filter(({ pair }) => pair.noReply !== null && isYesReply(pair.noReply)).length },
    warnings: [
      ...idsWarning(unknown, `predictions in ${predictions.name} name no assertion of ${dataset.name} (ids are <record id>#0 for the true assertion, #1 for the false one)`),
      ...idsWarning(unasked, `assertions of ${dataset.name} have no prediction (counted wrong)`),
    ],
  };
}

const pct = (value: number | null) => (value === null ? null : roundTo(value));

function table(title: string, column: string, scores: Map<string, PairScore>): ReportTable {
  return {
    title,
    columns: [column, 'Pairs', 'Acc+', 'Acc', 'CoR', 'Wrong way round'],
    rows: [...scores].map(([key, s]) => [key, s.pairs, pct(s.accPlus), pct(s.acc), pct(s.cor), s.reversed]),
  };
}

export function pairsReport(score: PairsFileScore): ScoreReport {
  const { overall, originalProbes } = score;
  return {
    format: 'pairs',
    title: `Chart-HQA judgement pairs: ${overall.pairs} pairs from hypothetical items, scored as ChartBench scores (Acc+)`,
    figures: [
      { label: 'Acc+', value: pct(overall.accPlus), unit: 'percent', note: `${overall.bothRight} of ${overall.pairs} pairs with both assertions right` },
      { label: 'Acc', value: pct(overall.acc), unit: 'percent', note: `${overall.assertionsRight} of ${overall.pairs * 2} assertions` },
      { label: 'CoR', value: pct(overall.cor), unit: 'percent', note: `${overall.confused} of ${overall.pairs} pairs answered alike (confused)` },
      {
        label: 'Original answer accepted',
        value: pct(originalProbes.pairs === 0 ? null : (originalProbes.acceptedOriginal / originalProbes.pairs) * 100),
        unit: 'percent',
        note: `${originalProbes.acceptedOriginal} of ${originalProbes.pairs} false assertions stating the unedited chart's answer were answered yes`,
      },
      { label: 'Pairs answered the wrong way round', value: overall.reversed, unit: 'count', note: 'no to the true assertion and yes to the false one' },
      { label: 'Pairs with a reply missing', value: overall.missing, unit: 'count' },
    ],
    tables: [
      table('By answer type', 'Answer type', score.byAnswerType),
      table('By chart type', 'Chart type', score.byChartType),
      table("By the false value's source", 'False value', score.byFalseValue),
    ],
    warnings: score.warnings,
  };
}
