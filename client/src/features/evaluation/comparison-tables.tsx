import { Link } from 'react-router';
import type { EvalComparisonRow } from '@shared/api/evaluations';
import { ANSWER_TYPES } from '@shared/table/answers';
import { ANSWER_TYPE_LABELS, formatScore, formatVariance } from './eval-format';
import { evalRunPath } from './eval-runs-table';

/** A score that links to the run it came from, or a dash when the model has no such run. */
function RunScore({ value, runId }: { value: number | null; runId: number | null }) {
  const text = formatScore(value);
  return runId === null || value === null ? <>{text}</> : <Link to={evalRunPath(runId)}>{text}</Link>;
}

/** What the "Left out" column counts, said where it is shown. */
const LEFT_OUT_TITLE = 'Questions that are not the factual question under an assumption: counted in accuracy, left out of the decline and bias rates';

/**
 * The paper's Table 3 (plus the bias rate, the questions those rates left out, and the no-image
 * control): one row per model.
 */
export function AccuracyTable({ rows }: { rows: EvalComparisonRow[] }) {
  return (
    <table className="data-grid comparison-table" data-testid="comparison-accuracy">
      <caption className="sr-only">Accuracy and decline rate per model</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col" className="num" title="Relaxed accuracy on the factual questions (Acc_QA)">
            ChartQA (factual)
          </th>
          <th scope="col" className="num" title="Relaxed accuracy on the hypothetical questions (Acc_HQA)">
            Chart-HQA
          </th>
          <th scope="col" className="num" title="|Acc_QA − Acc_HQA| / Acc_QA, over the questions that are the factual question under an assumption">
            Decline rate
          </th>
          <th scope="col" className="num" title="Share of answer-changing questions answered with the factual label">
            Bias rate
          </th>
          <th scope="col" className="num" title={LEFT_OUT_TITLE}>
            Left out
          </th>
          <th scope="col" className="num" title="The hypothetical questions without the chart">
            No image
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.model} data-model={row.model}>
            <th scope="row" className="mono">
              {row.model} <span className="muted small">({row.items} items)</span>
            </th>
            <td className="num" data-col="qa">
              <RunScore value={row.qa_accuracy} runId={row.original_run_id} />
            </td>
            <td className="num" data-col="hqa">
              <RunScore value={row.hqa_accuracy} runId={row.hqa_run_id} />
            </td>
            <td className="num" data-col="decline">
              {formatScore(row.decline_rate)}
            </td>
            <td className="num" data-col="bias">
              {formatScore(row.bias_rate)}
            </td>
            <td className="num" data-col="left-out" title={LEFT_OUT_TITLE}>
              {row.left_out_different}
            </td>
            <td className="num" data-col="no-image">
              <RunScore value={row.no_image_accuracy} runId={row.no_image_run_id} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The paper's Table 4: accuracy per answer type on the hypothetical questions, and its spread. */
export function AnswerTypeTable({ rows }: { rows: EvalComparisonRow[] }) {
  return (
    <table className="data-grid comparison-table" data-testid="comparison-answer-types">
      <caption className="sr-only">Accuracy per answer type per model</caption>
      <AnswerTypeHead varianceTitle="Population variance of the per-type accuracies (percent²)" />
      <tbody>
        {rows.map((row) => (
          <tr key={row.model} data-model={row.model}>
            <th scope="row" className="mono">
              {row.model}
            </th>
            {ANSWER_TYPES.map((type) => (
              <td key={type} className="num" data-col={type}>
                {formatScore(row.by_answer_type[type])}
              </td>
            ))}
            <td className="num" data-col="variance">
              {formatVariance(row.answer_type_variance)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The head of a Table 4 layout (model, one column per answer type, variance), here and beside published figures. */
export function AnswerTypeHead({ varianceTitle }: { varianceTitle: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">Model</th>
        {ANSWER_TYPES.map((type) => (
          <th key={type} scope="col" className="num">
            {ANSWER_TYPE_LABELS[type]}
          </th>
        ))}
        <th scope="col" className="num" title={varianceTitle}>
          Variance
        </th>
      </tr>
    </thead>
  );
}

/** What the factual baseline's figures mean: without it, its 100% bias rate reads as a finding. */
export function FactualBaselineNote() {
  return (
    <p className="muted small" data-testid="factual-baseline-note">
      The factual baseline answers every hypothetical question with its factual label, as a model that ignores the assumption would. So its Chart-HQA
      accuracy is the share of items whose answer the assumption does not change (controls), its bias rate is 100% by construction on the items whose answer
      changes, and its decline rate against its own factual run shows how far a model that ignores the assumption falls. Left out: questions that are not the
      factual question under an assumption; accuracy counts them, the decline and bias rates do not.
    </p>
  );
}
