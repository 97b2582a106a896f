import { Link } from 'react-router';
import type { Run } from '@shared/api/runs';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { formatTime } from '../../ui/format';
import { useNavigableRows } from '../../keyboard/use-list-navigation';
import { BatchStep } from '../../views/batch-step';
import { EngineTag, RunProgressBar, RunStatusTag } from '../../views/run-parts';
import { formatCost, isFinished } from '../../views/run-progress';

/** Runs, newest first, each with its live status and progress; rows open the run's view. */
export function RunListTable({ runs, onOpen }: { runs: Run[]; onOpen: (run: Run) => void }) {
  const { rowProps } = useNavigableRows(runs, onOpen);
  return (
    <table className="data-grid run-list" data-testid="run-list">
      <thead>
        <tr>
          <th scope="col" className="num">
            Run
          </th>
          <th scope="col">Status</th>
          <th scope="col">Engine</th>
          <th scope="col">Stage</th>
          <th scope="col">Scope</th>
          <th scope="col">Progress</th>
          <th scope="col" className="num">
            Proposals
          </th>
          <th scope="col" className="num">
            Items
          </th>
          <th scope="col" className="num">
            Tokens
          </th>
          <th scope="col" className="num">
            Cost
          </th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run, index) => (
          <tr key={run.id} data-run-id={run.id} {...rowProps(index)}>
            <td className="num">
              <Link to={`/runs/${run.id}`} onClick={(event) => event.stopPropagation()}>
                #{run.id}
              </Link>
            </td>
            <td>
              <RunStatusTag status={run.status} />
            </td>
            <td>
              <EngineTag run={run} />
            </td>
            <td>{run.stage}</td>
            <td className="small">
              {run.config.chart_type ? CHART_TYPE_LABELS[run.config.chart_type] : 'all types'}
              {run.config.split ? ` · ${run.config.split}` : ''}
            </td>
            <td className="progress-cell">
              <RunProgressBar run={run} compact />
              <span className="small muted">{run.plan_complete || isFinished(run) ? `${run.tasks_done + run.tasks_failed}/${run.tasks_total}` : 'planning'}</span>
              {run.batch_progress && (run.status === 'running' || run.status === 'paused') && <BatchStep progress={run.batch_progress} testId="run-row-batch-progress" />}
            </td>
            <td className="num">{run.proposals_created}</td>
            <td className="num">
              {run.items_created}
              {run.items_failed > 0 && <span className="error-text"> ({run.items_failed} failed)</span>}
              {run.items_declined > 0 && <span className="muted"> ({run.items_declined} no item possible)</span>}
            </td>
            <td className="num">{(run.prompt_tokens + run.completion_tokens).toLocaleString()}</td>
            <td className="num">{formatCost(run.cost)}</td>
            <td className="small">
              <time dateTime={run.created_at}>{formatTime(run.created_at)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
