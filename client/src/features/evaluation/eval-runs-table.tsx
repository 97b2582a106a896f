import { Link } from 'react-router';
import type { EvalRun } from '@shared/api/evaluations';
import { formatTime } from '../../ui/format';
import { useNavigableRows } from '../../keyboard/use-list-navigation';
import { ENGINE_LABELS, MODE_LABELS, formatScore } from './eval-format';
import { EvalProgress, EvalStatusTag } from './eval-parts';

export function evalRunPath(id: number): string {
  return `/evaluation/runs/${id}`;
}

/** Evaluation runs, newest first, live, a paused one with why; a row opens the run (click, or j/k and Enter), where a paused run is resumed. */
export function EvalRunsTable({ runs, onOpen }: { runs: EvalRun[]; onOpen: (run: EvalRun) => void }) {
  const { rowProps } = useNavigableRows(runs, onOpen);
  return (
    <table className="data-grid run-list" data-testid="eval-run-list">
      <thead>
        <tr>
          <th scope="col" className="num">
            Run
          </th>
          <th scope="col">Model</th>
          <th scope="col">Engine</th>
          <th scope="col">Mode</th>
          <th scope="col">Status</th>
          <th scope="col">Progress</th>
          <th scope="col" className="num" title="Relaxed accuracy over the questions finished so far">
            Relaxed accuracy
          </th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run, index) => (
          <tr key={run.id} data-eval-run-id={run.id} {...rowProps(index)}>
            <td className="num">
              <Link to={evalRunPath(run.id)} onClick={(event) => event.stopPropagation()}>
                #{run.id}
              </Link>
            </td>
            <td className="mono" data-testid="eval-model">
              {run.model}
            </td>
            <td className="small">{ENGINE_LABELS[run.engine]}</td>
            <td data-mode={run.mode}>{MODE_LABELS[run.mode]}</td>
            <td>
              <EvalStatusTag status={run.status} />
              {run.status === 'paused' && run.error && (
                <div className="small muted" data-testid="eval-paused-reason">
                  {run.error}
                </div>
              )}
            </td>
            <td className="progress-cell">
              <EvalProgress run={run} />
            </td>
            <td className="num" data-testid="eval-accuracy">
              {formatScore(run.score.relaxed_accuracy)}
            </td>
            <td className="small">
              <time dateTime={run.created_at}>{formatTime(run.created_at)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
