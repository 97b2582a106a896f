import { Link } from 'react-router';
import type { z } from 'zod';
import type { EvalRun, EvalRunDetailResponseSchema } from '@shared/api/evaluations';
import { ANSWER_TYPES } from '@shared/table/answers';
import { ANSWER_TYPE_LABELS, MODE_LABELS, formatScore, formatVariance, isUnfinished } from './eval-format';
import { evalRunPath } from './eval-runs-table';

type Baseline = z.infer<typeof EvalRunDetailResponseSchema>['baseline'];

/** The head of a table of accuracies: what the rows are, the accuracy, and what it was taken over. */
export function AccuracyHead({ label }: { label: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{label}</th>
        <th scope="col" className="num">
          Accuracy
        </th>
        <th scope="col" className="num">
          Correct / items
        </th>
      </tr>
    </thead>
  );
}

/** "5 / 8", the counts a share was taken over. */
const ratio = (part: number, whole: number) => `${part} / ${whole}`;

/** What the decline rate is measured against, or why there is none. */
function DeclineRow({ run, baseline }: { run: EvalRun; baseline: Baseline }) {
  if (run.mode === 'original') {
    return (
      <tr>
        <th scope="row">Decline rate</th>
        <td colSpan={2} className="small" data-testid="score-decline">
          This run is the factual baseline (Acc<sub>QA</sub>): {run.model}’s hypothetical runs are measured against it.
        </td>
      </tr>
    );
  }
  if (baseline === null) {
    return (
      <tr>
        <th scope="row">Decline rate</th>
        <td colSpan={2} className="small" data-testid="score-decline">
          <span className="muted">
            No finished factual run for <span className="mono">{run.model}</span> yet: a run in mode “{MODE_LABELS.original}” gives the decline rate.
          </span>
        </td>
      </tr>
    );
  }
  return (
    <tr>
      <th scope="row">Decline rate</th>
      <td className="num" data-testid="score-decline">
        {formatScore(baseline.decline_rate)}
      </td>
      <td className="small">
        against <Link to={evalRunPath(baseline.run_id)}>run #{baseline.run_id}</Link> (factual accuracy {formatScore(baseline.qa_accuracy)})
      </td>
    </tr>
  );
}

/** The run's score as the paper reports it, each share beside what it was taken over. */
export function EvalScoreTables({ run, baseline }: { run: EvalRun; baseline: Baseline }) {
  const { score } = run;
  const { counts } = score;
  return (
    <div className="stats-columns">
      <section aria-labelledby="score-heading">
        <h2 id="score-heading">Score{isUnfinished(run.status) && <span className="muted small"> (so far)</span>}</h2>
        <table className="data-grid stats-table eval-score" data-testid="eval-score">
          <tbody>
            <tr>
              <th scope="row">Relaxed accuracy</th>
              <td className="num" data-testid="score-accuracy">
                {formatScore(score.relaxed_accuracy)}
              </td>
              <td className="num small">{ratio(counts.correct, counts.items)} correct</td>
            </tr>
            <DeclineRow run={run} baseline={baseline} />
            <tr>
              <th scope="row" title="Answer-changing questions answered with the factual label instead">
                Bias rate
              </th>
              <td className="num" data-testid="score-bias">
                {formatScore(score.bias_rate)}
              </td>
              <td className="num small">{ratio(counts.biased, counts.affects_answer)} biased</td>
            </tr>
            <tr>
              <th scope="row" title="Counted in accuracy, not in the decline and bias rates">
                Left out
              </th>
              <td className="num" data-testid="score-left-out">
                {score.left_out_different}
              </td>
              <td className="small">questions that are not the factual question under an assumption</td>
            </tr>
            <tr>
              <th scope="row" title="Population variance of the per-type accuracies (percent²)">
                Answer-type variance
              </th>
              <td className="num" data-testid="score-variance">
                {formatVariance(score.answer_type_variance)}
              </td>
              <td />
            </tr>
            <tr>
              <th scope="row">Predictions</th>
              <td className="num">{counts.predicted}</td>
              <td className="num small">
                {counts.missing} without an answer
                {counts.unknown_predictions > 0 && `, ${counts.unknown_predictions} for unknown ids (ignored)`}
              </td>
            </tr>
          </tbody>
        </table>
      </section>
      <section aria-labelledby="by-type-heading">
        <h2 id="by-type-heading">By answer type</h2>
        <table className="data-grid stats-table" data-testid="eval-score-by-type">
          <AccuracyHead label="Answer type" />
          <tbody>
            {ANSWER_TYPES.map((type) => (
              <tr key={type} data-answer-type={type}>
                <th scope="row">{ANSWER_TYPE_LABELS[type]}</th>
                <td className="num">{formatScore(score.by_answer_type[type])}</td>
                <td className="num">{ratio(counts.by_answer_type[type].correct, counts.by_answer_type[type].items)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
