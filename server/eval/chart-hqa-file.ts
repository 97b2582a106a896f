import { z } from 'zod';
import { QuestionRelationSchema } from '../../shared/domain/generation';
import { CHART_HQA_VERSION, ExportItemSchema } from '../../shared/export/chart-hqa';
import { scoreItems, scoreWithBaseline, type ScorableItem, type Score, type ScoreWithBaseline } from '../../shared/eval/metrics';
import { accuracyUnderRules, type RuleAccuracy } from '../../shared/eval/rule-accuracy';
import type { ReportFigure, ScoreReport } from '../../shared/eval/score-report';
import { SCORING_RULE_SOURCES, type ScoringRule } from '../../shared/eval/scoring-rules';
import { ANSWER_TYPES } from '../../shared/table/answers';
import { questionRelation } from '../language/question-relation';
import { idsWarning, parseJsonText, parseWith, readPredictionRows, readRecords, ScoreFileError, type NamedText } from './score-file-input';

/**
 * A Chart-HQA export scored as the paper scores it: relaxed accuracy, accuracy per answer type
 * and its variance, the bias rate, and, given a baseline run of the same model on the factual
 * questions, the decline rate (shared/eval/metrics.ts). One `FILE_SCORERS` entry like every
 * other format, so `hqa score`, its `--json` and the Evaluation page read one report.
 */

/** Only what scoring reads of an export, so a field it ignores cannot reject a file. */
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
type ScoreDataset = z.infer<typeof ScoreDatasetSchema>;

export interface ChartHqaFileScore {
  name: string;
  rule: ScoringRule;
  score: Score | ScoreWithBaseline;
  byRule: RuleAccuracy[];
  /** Items whose `question_relation` the file lacked and scoring decided. */
  relationDecided: number;
  unknownIds: string[];
}

export function scoreChartHqaTexts(dataset: NamedText, predictions: NamedText, rule: ScoringRule, baseline?: NamedText): ChartHqaFileScore {
  const file = parseWith(ScoreDatasetSchema, parseJsonText(dataset), dataset.name);
  const { items, decided } = toScorable(dataset.name, file.items);
  const answers = answered(predictions);
  const score = baseline === undefined ? scoreItems(items, answers.map, rule) : scoreWithBaseline(items, answers.map, answered(baseline).map, rule);
  const ids = new Set(items.map((item) => item.id));
  return {
    name: file.name,
    rule,
    score,
    byRule: accuracyUnderRules(items.map((item) => ({ prediction: answers.map.get(item.id) ?? null, gold: item.answer }))),
    relationDecided: decided,
    unknownIds: answers.ids.filter((id) => !ids.has(id)),
  };
}

/** Predictions by id; a null prediction (no extractable answer) counts as missing. */
function answered(file: NamedText): { map: Map<string, string>; ids: string[] } {
  const rows = readPredictionRows(readRecords(file), file.name);
  const map = new Map<string, string>();
  for (const [id, prediction] of rows) if (prediction !== null) map.set(id, prediction);
  return { map, ids: [...rows.keys()] };
}

/**
 * The items as scoring reads them. An item without `question_relation` (an export older than
 * the field) gets it from its question, assumption and `original.query` by the rule the
 * workbench classifies its own items with.
 */
function toScorable(file: string, items: ScoreDataset['items']): { items: ScorableItem[]; decided: number } {
  const seen = new Set<string>();
  let decided = 0;
  const scorable = items.map((item, index): ScorableItem => {
    if (seen.has(item.id)) throw new ScoreFileError(`${file}: items[${index}].id: duplicate id "${item.id}"`);
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

export function chartHqaReport(result: ChartHqaFileScore): ScoreReport {
  const { score, rule } = result;
  const { counts } = score;
  const figures: ReportFigure[] = [
    {
      key: 'relaxed_accuracy',
      label: 'Relaxed accuracy',
      value: score.relaxed_accuracy,
      unit: 'percent',
      note: `${counts.correct} of ${counts.items}; ${counts.missing} without a prediction`,
    },
    ...ANSWER_TYPES.map(
      (type): ReportFigure => ({
        key: `accuracy_${type}`,
        label: `  ${type}`,
        value: score.by_answer_type[type],
        unit: 'percent',
        note: `${counts.by_answer_type[type].correct} of ${counts.by_answer_type[type].items}`,
      }),
    ),
    { key: 'answer_type_variance', label: 'Answer-type variance', value: score.answer_type_variance, unit: 'number', note: 'population variance of the per-type accuracies' },
    {
      key: 'bias_rate',
      label: 'Bias rate',
      value: score.bias_rate,
      unit: 'percent',
      note: `${counts.biased} of ${counts.affects_answer} items whose answer the assumption changed were answered with the original label`,
    },
  ];
  if ('decline_rate' in score) {
    const over = score.decline_over;
    figures.push(
      { key: 'baseline_accuracy', label: 'Baseline accuracy (factual questions)', value: score.baseline_accuracy, unit: 'percent', note: `over ${counts.items} items` },
      {
        key: 'decline_rate',
        label: 'Decline rate',
        value: score.decline_rate,
        unit: 'percent',
        note: `over ${over.items} items: ${percentText(over.accuracy)} against the baseline's ${percentText(over.baseline_accuracy)}`,
      },
    );
  }
  figures.push({
    key: 'left_out_different',
    label: 'Left out of the decline and bias rates',
    value: score.left_out_different,
    unit: 'count',
    note: 'questions that are not the factual question under an assumption',
  });
  if (result.relationDecided > 0) {
    figures.push({
      key: 'question_relation_decided',
      label: 'question_relation decided',
      value: result.relationDecided,
      unit: 'count',
      note: 'items that lacked it, decided from question, assumption and original.query',
    });
  }
  return {
    format: 'chart-hqa',
    title: `Chart-HQA ${result.name}: ${counts.items} hypothetical questions, numbers scored under the ${rule} rule (${SCORING_RULE_SOURCES[rule]})`,
    figures,
    tables: [
      {
        title: 'Relaxed accuracy under each scoring rule',
        columns: ['Rule', 'Items', 'Correct', 'Accuracy %'],
        rows: result.byRule.map((entry) => [entry.rule, entry.items, entry.correct, entry.accuracy]),
      },
    ],
    warnings: idsWarning(result.unknownIds, 'predictions name no item of the dataset'),
  };
}

const percentText = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)}%`);
