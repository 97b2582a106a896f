import type { EvalRun } from '@shared/api/evaluations';
import { MODE_LABELS, formatScore, isUnfinished } from './eval-format';

/** Percentage points with their sign: a gap reads as which side is ahead. */
function formatPoints(points: number | null): string {
  if (points === null) return '—';
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points).toFixed(2)} pts`;
}

/**
 * A run over several conditions: each condition's accuracy (its questions skipped apart), and
 * the gaps the paper reads from them (`shared/eval/conditions.ts`): imagining vs seeing, memory,
 * and the drawing-style controls. A run of one condition has its score above and no gap.
 */
export function ConditionTables({ run }: { run: EvalRun }) {
  if (run.conditions.length < 2) return null;
  return (
    <div className="stats-columns">
      <section aria-labelledby="conditions-heading">
        <h2 id="conditions-heading">Conditions{isUnfinished(run.status) && <span className="muted small"> (so far)</span>}</h2>
        <table className="data-grid stats-table" data-testid="eval-conditions">
          <thead>
            <tr>
              <th scope="col">Condition</th>
              <th scope="col" className="num">
                Accuracy
              </th>
              <th scope="col" className="num">
                Correct / items
              </th>
              <th scope="col" className="num">
                Skipped
              </th>
            </tr>
          </thead>
          <tbody>
            {run.conditions.map(({ condition, score, items_total: total, items_skipped: skipped }) => (
              <tr key={condition} data-condition={condition}>
                <th scope="row">{MODE_LABELS[condition]}</th>
                <td className="num" data-testid={`condition-accuracy-${condition}`}>
                  {formatScore(score.relaxed_accuracy)}
                </td>
                <td className="num small">
                  {score.counts.correct} / {score.counts.items}
                  {score.counts.items < total && <span className="muted"> of {total}</span>}
                </td>
                <td className="num small" title={skipped > 0 ? 'its edit cannot be drawn: the reason is in each question' : undefined}>
                  {skipped}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {run.gaps.length > 0 && (
        <section aria-labelledby="gaps-heading">
          <h2 id="gaps-heading">Gaps</h2>
          <table className="data-grid stats-table" data-testid="eval-gaps">
            <thead>
              <tr>
                <th scope="col">Gap</th>
                <th scope="col" className="num">
                  Accuracy difference
                </th>
                <th scope="col">Between</th>
              </tr>
            </thead>
            <tbody>
              {run.gaps.map((gap) => (
                <tr key={gap.id} data-gap={gap.id}>
                  <th scope="row">{gap.label}</th>
                  <td className="num" data-testid={`gap-${gap.id}`}>
                    {formatPoints(gap.points)}
                  </td>
                  <td className="small">
                    {MODE_LABELS[gap.minuend]} − {MODE_LABELS[gap.subtrahend]}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
