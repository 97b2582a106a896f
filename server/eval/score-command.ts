import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { QuestionRelationSchema } from '../../shared/domain/generation';
import { CHART_HQA_VERSION, ExportItemSchema } from '../../shared/export/chart-hqa';
import { scoreItems, scoreWithBaseline, type ScorableItem, type Score, type ScoreWithBaseline } from '../../shared/eval/metrics';
import { accuracyUnderRules, type RuleAccuracy } from '../../shared/eval/rule-accuracy';
import { DEFAULT_SCORING_RULE, SCORING_RULE_SOURCES, SCORING_RULES, ScoringRuleSchema, type ScoringRule } from '../../shared/eval/scoring-rules';
import { questionRelation } from '../language/question-relation';

export interface ScoreCommandOptions {
  dataset: string;
  predictions: string;
  baseline?: string;
  json?: boolean;
  /** A scoring rule's name (`SCORING_RULES`); default chartqa. */
  rule?: string;
}

/**
 * Every figure under the chosen rule, and the relaxed accuracy under each rule beside it;
 * `question_relation_decided` (present only when some were) counts the items whose relation the
 * file lacked and scoring decided.
 */
export type RuledScore = (Score | ScoreWithBaseline) & { rule: ScoringRule; by_rule: RuleAccuracy[]; question_relation_decided?: number };

/** Only what scoring reads of a `chart-hqa` export, so a field it ignores cannot reject a file. */
const ScoreDatasetSchema = z.object({
  name: z.string(),
  version: z.literal(CHART_HQA_VERSION),
  items: z.array(
    ExportItemSchema.pick({ id: true, question: true, assumption: true, answer: true, answer_type: true, affects_answer: true, original: true }).extend({
      // Exports made before items were classified lack it: decided here from the item's texts.
      question_relation: QuestionRelationSchema.optional(),
    }),
  ),
});

/** `hqa eval` output. A null prediction (the model gave no extractable answer) counts as missing. */
const PredictionsSchema = z.array(z.object({ id: z.string(), prediction: z.string().nullable(), raw: z.unknown().optional() }));

type ScoreOutput = RuledScore | { error: { message: string } };

/** Bad input, with the file and the field it names already in the message. */
class ScoreInputError extends Error {}

/**
 * `hqa score`: scores a predictions file on a Chart-HQA export and, given a baseline run of the
 * original factual questions, the decline rate. Returns the output and the exit status.
 */
export function scorePredictionFiles(options: ScoreCommandOptions): { output: ScoreOutput; status: number } {
  try {
    const rule = scoringRule(options.rule);
    const dataset = readJson(options.dataset, ScoreDatasetSchema, '');
    const { items, decided } = toScorable(options.dataset, dataset.items);
    const predictions = readPredictions(options.predictions);
    const score = options.baseline === undefined ? scoreItems(items, predictions, rule) : scoreWithBaseline(items, predictions, readPredictions(options.baseline), rule);
    const byRule = accuracyUnderRules(items.map((item) => ({ prediction: predictions.get(item.id) ?? null, gold: item.answer })));
    return { output: { ...score, rule, by_rule: byRule, ...(decided > 0 ? { question_relation_decided: decided } : {}) }, status: 0 };
  } catch (error) {
    if (error instanceof ScoreInputError) return { output: { error: { message: error.message } }, status: 1 };
    throw error;
  }
}

function scoringRule(name: string | undefined): ScoringRule {
  if (name === undefined) return DEFAULT_SCORING_RULE;
  const parsed = ScoringRuleSchema.safeParse(name);
  if (!parsed.success) throw new ScoreInputError(`--rule: "${name}" is not a scoring rule; use one of ${SCORING_RULES.join(', ')}`);
  return parsed.data;
}

/**
 * The items as scoring reads them. An item without `question_relation` (an export older than
 * the field) gets it from its question, assumption and `original.query` by the rule the
 * workbench classifies its own items with; `decided` counts those items.
 */
function toScorable(file: string, items: z.infer<typeof ScoreDatasetSchema>['items']): { items: ScorableItem[]; decided: number } {
  const seen = new Set<string>();
  let decided = 0;
  const scorable = items.map((item, index): ScorableItem => {
    if (seen.has(item.id)) throw new ScoreInputError(`${file}: items[${index}].id: duplicate id "${item.id}"`);
    seen.add(item.id);
    if (item.question_relation === undefined) decided++;
    return {
      id: item.id,
      answer: item.answer,
      answer_type: item.answer_type,
      affects_answer: item.affects_answer,
      original_label: item.original.label,
      question_relation: item.question_relation ?? questionRelation(item.original.query, item.question, item.assumption),
    };
  });
  return { items: scorable, decided };
}

function readPredictions(file: string): Map<string, string> {
  const rows = readJson(file, PredictionsSchema, 'predictions');
  const predictions = new Map<string, string>();
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    if (seen.has(row.id)) throw new ScoreInputError(`${file}: predictions[${index}].id: duplicate id "${row.id}"`);
    seen.add(row.id);
    if (row.prediction !== null) predictions.set(row.id, row.prediction);
  });
  return predictions;
}

/** Reads and validates a JSON file; `root` names the top level in field paths (`predictions[3].id`). */
function readJson<T>(file: string, schema: z.ZodType<T>, root: string): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScoreInputError(`${file}: cannot read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ScoreInputError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const reasons = parsed.error.issues.slice(0, 3).map((issue) => `${fieldPath(root, issue.path)}: ${issue.message}`);
  const more = parsed.error.issues.length > 3 ? ` (and ${parsed.error.issues.length - 3} more)` : '';
  throw new ScoreInputError(`${file}: ${reasons.join('; ')}${more}`);
}

function fieldPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || '(top level)';
}

export function runScore(options: ScoreCommandOptions): number {
  const { output, status } = scorePredictionFiles(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(output)}\n`);
  } else if ('error' in output) {
    process.stderr.write(`error: ${output.error.message}\n`);
  } else {
    process.stdout.write(formatScore(output));
  }
  return status;
}

const pct = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)}%`);

function formatScore(score: RuledScore): string {
  const { counts } = score;
  const lines = [
    `scoring rule  ${score.rule}: ${SCORING_RULE_SOURCES[score.rule]}`,
    `relaxed accuracy  ${pct(score.relaxed_accuracy)}  (${counts.correct}/${counts.items}; ${counts.missing} without a prediction)`,
    `  under the other rules  ${score.by_rule
      .filter((entry) => entry.rule !== score.rule)
      .map((entry) => `${entry.rule} ${pct(entry.accuracy)} (${entry.correct}/${entry.items})`)
      .join('  ')}`,
    ...(['integer', 'decimal', 'boolean', 'text'] as const).map(
      (type) => `  ${type.padEnd(8)} ${pct(score.by_answer_type[type])}  (${counts.by_answer_type[type].correct}/${counts.by_answer_type[type].items})`,
    ),
    `answer-type variance  ${score.answer_type_variance === null ? 'n/a' : score.answer_type_variance.toFixed(2)}`,
    `bias rate  ${pct(score.bias_rate)}  (${counts.biased}/${counts.affects_answer} items whose answer the assumption changed)`,
  ];
  if ('decline_rate' in score) {
    const over = score.decline_over;
    lines.push(
      `baseline accuracy (factual questions)  ${pct(score.baseline_accuracy)}`,
      `decline rate  ${pct(score.decline_rate)}  (over ${over.items} items: ${pct(over.accuracy)} against the baseline's ${pct(over.baseline_accuracy)})`,
    );
  }
  lines.push(`${score.left_out_different} questions that are not the factual question under an assumption were left out of the decline and bias rates`);
  if (score.question_relation_decided !== undefined) {
    lines.push(`question_relation decided for ${score.question_relation_decided} items that lacked it (from question, assumption and original.query)`);
  }
  if (counts.unknown_predictions > 0) lines.push(`warning: ${counts.unknown_predictions} predictions name no item of the dataset`);
  return `${lines.join('\n')}\n`;
}
