import type { EvalBreakdown } from '@shared/api/evaluations';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { formatScore } from './eval-format';
import { AccuracyHead } from './eval-score-tables';

type Slice = EvalBreakdown['answer_kept'];

function SliceRow({ label, slice, testId }: { label: string; slice: Slice; testId: string }) {
  return (
    <tr data-testid={testId}>
      <th scope="row">{label}</th>
      <td className="num">{formatScore(slice.accuracy)}</td>
      <td className="num">
        {slice.correct} / {slice.items}
      </td>
    </tr>
  );
}

/**
 * Where the model fails, past the paper's tables: per chart type, and split by whether the
 * assumption changes the factual answer — a model that ignores the assumption scores only on
 * the questions whose answer it keeps.
 */
export function EvalBreakdownTables({ breakdown }: { breakdown: EvalBreakdown }) {
  return (
    <section aria-labelledby="breakdown-heading" data-testid="eval-breakdown">
      <h2 id="breakdown-heading">Where it fails</h2>
      <table className="data-grid stats-table">
        <AccuracyHead label="Questions" />
        <tbody>
          <SliceRow label="The assumption changes the answer" slice={breakdown.answer_changed} testId="breakdown-changed" />
          <SliceRow label="The assumption keeps the answer" slice={breakdown.answer_kept} testId="breakdown-kept" />
        </tbody>
        <tbody>
          <tr>
            <th scope="rowgroup" colSpan={3} className="muted small">
              By chart type
            </th>
          </tr>
          {breakdown.by_chart_type.map((row) => (
            <SliceRow key={row.chart_type} label={CHART_TYPE_LABELS[row.chart_type]} slice={row} testId={`breakdown-${row.chart_type}`} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
