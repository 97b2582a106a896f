import { Fragment } from 'react';
import { Link } from 'react-router';
import type { EvalResult } from '@shared/api/evaluations';
import { useNavigableRows, useSelectedRowRef } from '../../keyboard/use-list-navigation';
import { ANSWER_TYPE_LABELS } from './eval-format';

const COLUMNS = 6;

/** ✓ right within ChartQA's tolerance, ✗ wrong, — not scored yet. */
function CorrectMark({ correct }: { correct: boolean | null }) {
  if (correct === null) {
    return (
      <span className="verdict verdict-none" title="Not answered yet" data-testid="result-correct" data-correct="none">
        —<span className="sr-only"> not scored</span>
      </span>
    );
  }
  return correct ? (
    <span className="verdict verdict-match" title="Right (relaxed)" data-testid="result-correct" data-correct="true">
      ✓<span className="sr-only"> right</span>
    </span>
  ) : (
    <span className="verdict verdict-mismatch" title="Wrong" data-testid="result-correct" data-correct="false">
      ✗<span className="sr-only"> wrong</span>
    </span>
  );
}

/**
 * What one question got. The model's reply is untrusted text: it is rendered as text (React
 * escapes it), never as markup.
 */
function ResultDetail({ result }: { result: EvalResult }) {
  return (
    <div className="result-detail" data-testid="result-detail">
      <dl className="meta">
        <dt>Status</dt>
        <dd>{result.status}</dd>
        <dt>Answer type</dt>
        <dd>{ANSWER_TYPE_LABELS[result.answer_type]}</dd>
        <dt>Factual label</dt>
        <dd data-testid="result-original-label">
          {result.original_label}{' '}
          <span className="muted small">{result.affects_answer ? '(the assumption changes the answer)' : '(the assumption leaves the answer as it was)'}</span>
        </dd>
        {result.error !== null && (
          <>
            <dt>Error</dt>
            <dd className="error-text" data-testid="result-error">
              {result.error}
            </dd>
          </>
        )}
        <dt>Item</dt>
        <dd>
          <Link to={`/items/${result.item_id}`} data-testid="result-item-link">
            item #{result.item_id}
          </Link>{' '}
          <span className="muted small">chart {result.imgname}</span>
        </dd>
      </dl>
      <h4>Raw model output</h4>
      {result.raw === null ? (
        <p className="muted small">None recorded.</p>
      ) : (
        <pre className="code-block raw-output" data-testid="result-raw">
          {result.raw}
        </pre>
      )}
    </div>
  );
}

type EvalResultsTableProps = {
  results: EvalResult[];
  expanded: ReadonlySet<string>;
  onToggle: (id: string) => void;
};

/** One page of a run's questions; a row opens in place (click, or j/k and Enter). */
export function EvalResultsTable({ results, expanded, onToggle }: EvalResultsTableProps) {
  const { selected, rowProps } = useNavigableRows(results, (result) => onToggle(result.id));
  const selectedRow = useSelectedRowRef(selected);

  return (
    <table className="data-grid result-list" data-testid="eval-results">
      <thead>
        <tr>
          <th scope="col">Id</th>
          <th scope="col">Question</th>
          <th scope="col">Gold</th>
          <th scope="col">Prediction</th>
          <th scope="col" className="verdict-cell">
            Correct?
          </th>
          <th scope="col">Bias</th>
        </tr>
      </thead>
      <tbody>
        {results.map((result, index) => {
          const open = expanded.has(result.id);
          return (
            <Fragment key={result.id}>
              <tr ref={index === selected ? selectedRow : undefined} {...rowProps(index)} aria-expanded={open} data-result-id={result.id}>
                <td className="mono nowrap">{result.id}</td>
                <td className="question-cell">{result.question}</td>
                <td className="mono" data-testid="result-gold">
                  {result.gold}
                </td>
                <td className="mono" data-testid="result-prediction">
                  {result.prediction ?? <span className="muted">{result.status === 'answered' ? 'no answer' : '—'}</span>}
                </td>
                <td className="verdict-cell">
                  <CorrectMark correct={result.correct} />
                </td>
                <td>
                  {result.biased && (
                    <span className="bias-flag" title="The assumption changes the answer, yet the model gave the factual label" data-testid="result-biased">
                      biased
                    </span>
                  )}
                </td>
              </tr>
              {open && (
                <tr className="result-detail-row">
                  <td colSpan={COLUMNS}>
                    <ResultDetail result={result} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
