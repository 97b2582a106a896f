import { readFileSync, statSync } from 'node:fs';
import { openAndMigrate, type Db } from '../../db/database';
import { ScoreFileFormatSchema, type ScoreFileFormat, type ScoreReport } from '../../shared/eval/score-report';
import { DEFAULT_SCORING_RULE, ScoringRuleSchema } from '../../shared/eval/scoring-rules';
import { loadConfig } from '../config';
import { providersFor } from '../llm/model-roles';
import { getSettings } from '../settings/settings-queries';
import { scoreFile, type ScoreDeps } from '../eval/file-scorers';
import { formatScoreReport } from '../eval/format-report';
import { readMultiChartQaDirectory } from '../eval/multichartqa-file';
import { ScoreFileError, type NamedText } from '../eval/score-file-input';
import { scoreProgress } from '../eval/score-progress';

export interface ScoreFileCommandOptions {
  /** Default chart-hqa. */
  format?: string;
  dataset: string;
  predictions: string;
  /** Chart-HQA only: the same model's predictions on the factual questions, for the decline rate. */
  baseline?: string;
  rule?: string;
  json?: boolean;
}

function readNamed(file: string, what: string): NamedText {
  try {
    return { name: file, text: readFileSync(file, 'utf8') };
  } catch (error) {
    throw new ScoreFileError(`${file}: cannot read the ${what} file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function readDataset(format: ScoreFileFormat, file: string): NamedText {
  // MultiChartQA ships one QA file per chart group: a folder of groups is one dataset.
  if (format === 'multichartqa' && statSync(file, { throwIfNoEntry: false })?.isDirectory()) return readMultiChartQaDirectory(file);
  return readNamed(file, 'dataset');
}

/** The database and model roles, opened only when a scorer asks (a judge-based format). */
function lazyDeps(onProgress: ScoreDeps['onProgress']): ScoreDeps {
  let db: Db | undefined;
  const openDb = () => (db ??= openAndMigrate(loadConfig().dbPath));
  return { db: openDb, providers: () => providersFor(getSettings(openDb()), loadConfig()), ...(onProgress ? { onProgress } : {}) };
}

/** Scores one file in a seed-benchmark format; throws ScoreFileError on bad input or options. */
export async function scoreFileCommand(options: ScoreFileCommandOptions, onProgress?: ScoreDeps['onProgress']): Promise<ScoreReport> {
  const format = ScoreFileFormatSchema.safeParse(options.format ?? 'chart-hqa');
  if (!format.success) throw new ScoreFileError(`--format: expected ${ScoreFileFormatSchema.options.join(', ')}; got "${options.format ?? ''}"`);
  const rule = ScoringRuleSchema.safeParse(options.rule ?? DEFAULT_SCORING_RULE);
  if (!rule.success) throw new ScoreFileError(`--rule: expected ${ScoringRuleSchema.options.join(', ')}; got "${options.rule ?? ''}"`);
  const input = {
    dataset: readDataset(format.data, options.dataset),
    predictions: readNamed(options.predictions, 'predictions'),
    rule: rule.data,
    ...(options.baseline === undefined ? {} : { baseline: readNamed(options.baseline, 'baseline') }),
  };
  return scoreFile(format.data, input, lazyDeps(onProgress));
}

/** `hqa score --format <fmt>`: prints the report (text, or JSON with --json); 1 with one line naming the file and field on bad input. */
export async function runScoreFile(options: ScoreFileCommandOptions): Promise<number> {
  // The judge's progress goes to stderr: stdout holds only the report.
  const progress = scoreProgress();
  try {
    const report = await scoreFileCommand(options, progress.onProgress);
    progress.stop();
    process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatScoreReport(report));
    return 0;
  } catch (error) {
    progress.stop();
    if (!(error instanceof ScoreFileError)) throw error;
    if (options.json) process.stdout.write(`${JSON.stringify({ error: { message: error.message } })}\n`);
    else process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
}
