import type { Db } from '../../db/database';
import type { ScoreFileFormat, ScoreReport } from '../../shared/eval/score-report';
import type { ScoringRule } from '../../shared/eval/scoring-rules';
import type { Providers } from '../llm/model-roles';
import { chartHqaReport, scoreChartHqaTexts } from './chart-hqa-file';
import { chartBenchReport, scoreChartBenchTexts } from './chartbench-file';
import { multiChartQaReport, scoreMultiChartQaTexts } from './multichartqa-file';
import { pairsReport, scorePairsTexts } from './pairs-file';
import { scoreCharxiv } from './score-charxiv';
import { ScoreFileError, type NamedText } from './score-file-input';

/**
 * One scorer per seed-benchmark format, all answering the same ScoreReport, so `hqa score
 * --format …` and POST /api/eval/score-file need no code per format. A bad file throws
 * ScoreFileError naming the file and the field or record.
 */

export interface ScoreFileInput {
  dataset: NamedText;
  predictions: NamedText;
  rule: ScoringRule;
  /** The same model's predictions on the original factual questions (Chart-HQA's decline rate); other formats refuse it. */
  baseline?: NamedText;
}

/**
 * What a judge-based scorer needs, opened on first use: the CLI makes no database for a format
 * scored by rules alone.
 */
export interface ScoreDeps {
  db: () => Db;
  /** The roles from the current settings and the environment; a judge asks `.judge`. */
  providers: () => Providers;
  /** Called as a judge-based scorer settles each answer (graded, cached, failed), with how many of `total` are. */
  onProgress?: (done: number, total: number) => void;
}

export interface FileScorer {
  /** One line for `--help` and the page: what the dataset and predictions files are. */
  describe: string;
  score(input: ScoreFileInput, deps: ScoreDeps): Promise<ScoreReport>;
}

export const FILE_SCORERS: Record<ScoreFileFormat, FileScorer> = {
  'chart-hqa': {
    describe: 'Chart-HQA: dataset = hqa export (chart-hqa JSON); predictions = hqa eval output [{ id, prediction, raw }]; --baseline = the same model on the original factual questions (hqa eval --original), for the decline rate',
    score: ({ dataset, predictions, rule, baseline }) => Promise.resolve(chartHqaReport(scoreChartHqaTexts(dataset, predictions, rule, baseline))),
  },
  chartbench: {
    describe: 'ChartBench: dataset = its JSONL (test.jsonl); predictions = [{ id: "<record id>#<conversation index>", prediction }] or its result JSONL (conversation[].answer)',
    score: ({ dataset, predictions, rule }) => Promise.resolve(chartBenchReport(scoreChartBenchTexts(dataset, predictions, rule))),
  },
  multichartqa: {
    describe: 'MultiChartQA: dataset = a group\'s chart-path_and_question-answer_pair.json (or several, concatenated by the CLI); predictions = [{ id: "<question id>", prediction }]',
    score: ({ dataset, predictions }) => Promise.resolve(multiChartQaReport(scoreMultiChartQaTexts(dataset, predictions))),
  },
  charxiv: {
    describe: 'CharXiv (LLM judge, the judge_model setting): dataset = descriptive_val.json or reasoning_val.json; predictions = [{ id: "<figure_id>:<template>" (descriptive) or "<figure_id>" (reasoning), prediction }] or CharXiv\'s gen-<model>-<mode>_val.json',
    score: (input, deps) => scoreCharxiv(input, deps),
  },
  pairs: {
    describe: 'Chart-HQA judgement pairs: dataset = hqa export --format pairs (JSONL); predictions = [{ id: "<record id>#0" (true assertion) or "<record id>#1" (false), prediction }]',
    score: ({ dataset, predictions }) => Promise.resolve(pairsReport(scorePairsTexts(dataset, predictions))),
  },
};

/** Scores a file in its format; the one way the CLI and the score-file route both score. */
export function scoreFile(format: ScoreFileFormat, input: ScoreFileInput, deps: ScoreDeps): Promise<ScoreReport> {
  if (input.baseline !== undefined && format !== 'chart-hqa') throw new ScoreFileError(`baseline: only a chart-hqa dataset has a decline rate, not ${format}`);
  return FILE_SCORERS[format].score(input, deps);
}
