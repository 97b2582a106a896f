import type { Db } from '../../db/database';
import type { ScoreFileFormat, ScoreReport } from '../../shared/eval/score-report';
import type { ScoringRule } from '../../shared/eval/scoring-rules';
import type { Providers } from '../llm/model-roles';
import { chartBenchReport, scoreChartBenchTexts } from './chartbench-file';
import { multiChartQaReport, scoreMultiChartQaTexts } from './multichartqa-file';
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
}

/**
 * What a judge-based scorer needs, opened on first use: the CLI makes no database for a format
 * scored by rules alone.
 */
export interface ScoreDeps {
  db: () => Db;
  /** The roles from the current settings and the environment; a judge asks `.judge`. */
  providers: () => Providers;
}

export interface FileScorer {
  /** One line for `--help` and the page: what the dataset and predictions files are. */
  describe: string;
  score(input: ScoreFileInput, deps: ScoreDeps): Promise<ScoreReport>;
}

/** Until a format's scorer lands, asking for it says so instead of scoring nothing. */
function notAvailableYet(format: ScoreFileFormat): FileScorer {
  return {
    describe: `${format} (not available yet)`,
    score: () => Promise.reject(new ScoreFileError(`--format ${format}: scoring this format is not available yet`)),
  };
}

export const FILE_SCORERS: Record<ScoreFileFormat, FileScorer> = {
  chartbench: {
    describe: 'ChartBench: dataset = its JSONL (test.jsonl); predictions = [{ id: "<record id>#<conversation index>", prediction }] or its result JSONL (conversation[].answer)',
    score: ({ dataset, predictions, rule }) => Promise.resolve(chartBenchReport(scoreChartBenchTexts(dataset, predictions, rule))),
  },
  multichartqa: {
    describe: 'MultiChartQA: dataset = a group\'s chart-path_and_question-answer_pair.json (or several, concatenated by the CLI); predictions = [{ id: "<question id>", prediction }]',
    score: ({ dataset, predictions }) => Promise.resolve(multiChartQaReport(scoreMultiChartQaTexts(dataset, predictions))),
  },
  charxiv: notAvailableYet('charxiv'),
  pairs: notAvailableYet('pairs'),
};
