import type { RuleAccuracy } from '@shared/eval/rule-accuracy';
import { DEFAULT_SCORING_RULE, type ScoringRule } from '@shared/eval/scoring-rules';
import { formatScore } from './eval-format';
import { AccuracyHead } from './eval-score-tables';

const RULE_LABELS: Record<ScoringRule, { name: string; how: string }> = {
  chartqa: { name: 'ChartQA (pix2struct)', how: 'within 5% of the gold' },
  'qwen-vl': { name: 'Qwen-VL / InternVL', how: 'within 5% of the prediction' },
  chartbench: { name: 'ChartBench', how: 'within 5% of the prediction, the gold’s % ignored, a 0 reply right for a gold ≤ 0.05' },
};

/**
 * The run's relaxed accuracy under each scoring rule in the wild, so it can be set beside a
 * figure published under the same rule (docs/scoring-rules.md says where they differ).
 */
export function EvalRuleTable({ rules, live }: { rules: readonly RuleAccuracy[]; live: boolean }) {
  return (
    <section aria-labelledby="rules-heading">
      <h2 id="rules-heading">
        Under each scoring rule{live && <span className="muted small"> (so far)</span>}
      </h2>
      <table className="data-grid stats-table" data-testid="eval-rule-scores">
        <AccuracyHead label="Scoring rule" />
        <tbody>
          {rules.map((entry) => (
            <tr key={entry.rule} data-rule={entry.rule}>
              <th scope="row">
                {RULE_LABELS[entry.rule].name}
                {entry.rule === DEFAULT_SCORING_RULE && <span className="muted small"> (reference)</span>}
                <div className="muted small">{RULE_LABELS[entry.rule].how}</div>
              </th>
              <td className="num" data-testid="rule-accuracy">
                {formatScore(entry.accuracy)}
              </td>
              <td className="num">
                {entry.correct} / {entry.items}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Recomputed from the stored predictions. Published ChartQA figures use the reference rule; Qwen-VL’s and InternVL’s scripts, and ChartBench’s, score with their own.
      </p>
    </section>
  );
}
