import { Link } from 'react-router';
import { LoadError } from '../../ui/error-messages';
import { useUnsolvedQuestions } from './eval-api';
import { evalRunPath } from './eval-runs-table';

/**
 * Past the paper: the questions no compared model answers. Either the benchmark's hardest
 * questions or wrong gold answers — each links to its item, for a second review.
 */
export function UnsolvedQuestions() {
  const unsolved = useUnsolvedQuestions();
  if (unsolved.isPending) return <p className="muted">Loading the unsolved questions…</p>;
  if (unsolved.isError) return <LoadError what="the unsolved questions" error={unsolved.error} />;
  const { models, compared, total, questions } = unsolved.data;
  if (models.length === 0) return null;
  return (
    <section aria-labelledby="unsolved-heading" data-testid="unsolved">
      <h3 id="unsolved-heading">Questions no model answers</h3>
      <p className="muted small">
        <span data-testid="unsolved-total">{total}</span> of {compared} questions asked in every model’s latest hypothetical run were answered wrong by all{' '}
        {models.length} models: the hardest questions, or gold answers worth a second review.
        {total > questions.length && ` The first ${questions.length} are listed.`}
      </p>
      {questions.length > 0 && (
        <div className="table-scroll">
          <table className="data-grid" data-testid="unsolved-table">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Question</th>
                <th scope="col">Gold</th>
                {models.map((m) => (
                  <th scope="col" key={m.run_id}>
                    <Link to={evalRunPath(m.run_id)} className="mono">
                      {m.model}
                    </Link>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {questions.map((q) => (
                <tr key={q.id} data-result-id={q.id}>
                  <td className="mono">
                    <Link to={`/items/${q.item_id}`}>{q.id}</Link>
                  </td>
                  <td>{q.question}</td>
                  <td className="mono">{q.gold}</td>
                  {q.predictions.map((prediction, index) => (
                    <td className="mono" key={models[index]?.run_id ?? index}>
                      {prediction ?? <span className="muted">—</span>}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
