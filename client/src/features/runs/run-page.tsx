import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Run, RunDecline, RunError } from '@shared/api/runs';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { roleAtLeast } from '@shared/domain/roles';
import { formatTime } from '../../ui/format';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { ActionError, LoadError } from '../../ui/error-messages';
import { Pager } from '../../ui/pager';
import { BackLink, RecordPage } from '../../ui/record-page';
import { BatchStep } from '../../views/batch-step';
import { ItemListTable } from '../../views/item-list-table';
import { useItems } from '../../api/items-api';
import { parseId } from '../../ui/parse-id';
import { EngineTag, RunDates, RunProgressBar, RunStatusTag, UsageFigures } from '../../views/run-parts';
import { QA_ORDER_LABELS, formatCost, formatDuration, isFinished, runTiming } from '../../views/run-progress';
import { useRun, useRunAction, type RunAction } from '../../api/runs-api';
import { useNow } from '../../ui/use-now';

const SHORTCUTS = [{ keys: ['Esc'], action: 'back to the runs' }];
const RUN_ITEMS_PAGE_SIZE = 25;

function RunControls({ run }: { run: Run }) {
  const action = useRunAction(run.id);
  const button = (name: RunAction, label: string, enabled: boolean) => (
    <button type="button" onClick={() => action.mutate(name)} disabled={!enabled || action.isPending}>
      {label}
    </button>
  );
  return (
    <div className="run-controls" role="group" aria-label="Run controls">
      {button('pause', 'Pause', run.status === 'running' || run.status === 'queued')}
      {button('resume', 'Resume', run.status === 'paused')}
      {button('cancel', 'Cancel run', !isFinished(run))}
      {action.isError && <ActionError error={action.error} />}
    </div>
  );
}

function RunFigures({ run }: { run: Run }) {
  const now = useNow(run.status === 'running');
  const { elapsedSeconds, etaSeconds } = runTiming(run, now);
  return (
    <dl className="figures" data-testid="run-figures">
      <div>
        <dt>Proposals created</dt>
        <dd data-testid="proposals-created">{run.proposals_created}</dd>
      </div>
      <div>
        <dt>Items created</dt>
        <dd data-testid="items-created">{run.items_created}</dd>
      </div>
      <div>
        <dt>Items failed</dt>
        <dd className={run.items_failed > 0 ? 'error-text' : undefined} data-testid="items-failed">
          {run.items_failed}
        </dd>
      </div>
      <div>
        <dt title="Stage 2 tasks that ended without an item and without failing: no proposal can change the question’s answer (the server sent no request, or the offline rules found none), or the model declined the proposals listed">
          No item possible
        </dt>
        <dd data-testid="items-declined">{run.items_declined}</dd>
      </div>
      <div>
        <dt>LLM calls</dt>
        <dd>{run.engine === 'offline' ? <span title="The offline engine calls no LLM">{run.llm_calls} (offline)</span> : run.llm_calls}</dd>
      </div>
      <UsageFigures run={run} />
      <div>
        <dt>Elapsed</dt>
        <dd>{elapsedSeconds === null ? <span className="muted">not started</span> : formatDuration(elapsedSeconds)}</dd>
      </div>
      <div>
        <dt>ETA</dt>
        <dd data-testid="run-eta">
          {etaSeconds !== null ? `about ${formatDuration(etaSeconds)}` : <span className="muted">{isFinished(run) ? 'finished' : '—'}</span>}
        </dd>
      </div>
    </dl>
  );
}

function RunConfigView({ run }: { run: Run }) {
  const { config } = run;
  return (
    <dl className="meta run-config">
      <dt>Engine</dt>
      <dd>
        <EngineTag run={run} />
      </dd>
      <dt>Stage</dt>
      <dd>{run.stage}</dd>
      <dt>Chart type</dt>
      <dd>{config.chart_type ? CHART_TYPE_LABELS[config.chart_type] : 'all types'}</dd>
      <dt>Split</dt>
      <dd>{config.split ?? 'all splits'}</dd>
      <dt>Items</dt>
      <dd>
        {config.items} {config.only_new_qas ? '(only QAs without items)' : ''} {config.confirmed_types_only ? '(only charts whose type is confirmed)' : ''}
      </dd>
      <dt>Which QAs</dt>
      <dd>{QA_ORDER_LABELS[config.order]}</dd>
      <dt>Proposal batches</dt>
      <dd>{config.proposal_batches} per type</dd>
      <dt>Concurrency</dt>
      <dd>{config.batch ? 'one batch per stage (OpenAI Batch API)' : config.concurrency}</dd>
      {config.temperature !== undefined && (
        <>
          <dt>Temperature</dt>
          <dd>{config.temperature}</dd>
        </>
      )}
      <dt>Budget</dt>
      <dd>
        {config.budget_tokens === null && config.budget_cost === null
          ? 'none'
          : [config.budget_tokens !== null ? `${config.budget_tokens.toLocaleString()} tokens` : null, config.budget_cost !== null ? formatCost(config.budget_cost) : null]
              .filter(Boolean)
              .join(' or ')}
      </dd>
      <dt>Pool round</dt>
      <dd>{run.pool_round}</dd>
      <RunDates createdAt={run.created_at} finishedAt={run.finished_at} />
    </dl>
  );
}

function RunErrors({ errors }: { errors: RunError[] }) {
  if (errors.length === 0) return <p className="muted">No failed tasks.</p>;
  return (
    <table className="data-grid run-errors" data-testid="run-errors">
      <thead>
        <tr>
          <th scope="col">Task</th>
          <th scope="col">Kind</th>
          <th scope="col">About</th>
          <th scope="col">Reason</th>
          <th scope="col">When</th>
        </tr>
      </thead>
      <tbody>
        {errors.map((error) => (
          <tr key={error.task_id}>
            <td className="num">{error.task_id}</td>
            <td>{error.kind}</td>
            <td className="small">
              {error.qa_id !== null && <>QA {error.qa_id} </>}
              {error.chart_type ?? ''}
            </td>
            <td className="reason-cell">{error.error}</td>
            <td className="small">
              <time dateTime={error.updated_at}>{formatTime(error.updated_at)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const DECLINED_BY: Record<RunDecline['declined_by'], string> = {
  model: 'the model',
  server: 'the server (no request sent)',
  rules: 'the offline rules',
};

/**
 * Expected refusals are not failures: a task whose question no proposal can change (or, Stage 1,
 * for which the rules have nothing new) ends with why, never retried, and is shown apart from errors.
 */
function RunDeclines({ declines }: { declines: RunDecline[] }) {
  return (
    <table className="data-grid run-declines" data-testid="run-declines">
      <thead>
        <tr>
          <th scope="col">Task</th>
          <th scope="col">About</th>
          <th scope="col">Found by</th>
          <th scope="col">Outcome</th>
          <th scope="col">When</th>
        </tr>
      </thead>
      <tbody>
        {declines.map((decline) => (
          <tr key={decline.task_id} data-testid="run-decline">
            <td className="num">{decline.task_id}</td>
            <td className="small">
              {decline.qa_id !== null && <>QA {decline.qa_id} </>}
              {decline.chart_type ?? ''}
            </td>
            <td>{DECLINED_BY[decline.declined_by]}</td>
            <td className="reason-cell">
              {decline.kind === 'item' ? 'no item possible' : 'no new proposal possible'}: {decline.reason}
            </td>
            <td className="small">
              <time dateTime={decline.updated_at}>{formatTime(decline.updated_at)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RunItems({ runId }: { runId: number }) {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const items = useItems({ run_id: runId, page, page_size: RUN_ITEMS_PAGE_SIZE });
  if (items.isPending) return <p className="muted">Loading items…</p>;
  if (items.isError) return <LoadError what="the run’s items" error={items.error} />;
  if (items.data.total === 0) return <p className="empty">No items yet.</p>;
  return (
    <>
      <ItemListTable key={page} items={items.data.items} onOpen={(item) => void navigate(`/items/${item.id}`)} />
      <Pager page={page} pageSize={RUN_ITEMS_PAGE_SIZE} total={items.data.total} onPage={setPage} />
    </>
  );
}

function RunView({ run, errors, declines, back }: { run: Run; errors: RunError[]; declines: RunDecline[]; back: ReactNode }) {
  const user = useCurrentUser();
  return (
    <section className="page run-page">
      <title>{`Run #${run.id} · Chart-HQA`}</title>
      <header className="page-header">
        <div>
          {back}
          <h1>
            Run #{run.id} <RunStatusTag status={run.status} />
          </h1>
        </div>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      {run.engine === 'offline' && (
        <p className="notice small" data-testid="offline-note">
          This run uses the offline engine (<code>{run.model}</code>): rule-based templates whose answers the table engine computes. No
          LLM is called.
        </p>
      )}
      {run.stop_reason && (
        <p className={run.status === 'failed' ? 'error' : 'notice small'} data-testid="stop-reason">
          {run.status === 'paused' ? 'Paused' : 'Stopped'}: {run.stop_reason}
        </p>
      )}

      <div className="run-head">
        <RunProgressBar run={run} />
        {run.batch_progress && <BatchStep progress={run.batch_progress} testId="run-batch-progress" />}
        {roleAtLeast(user.role, 'curator') && <RunControls run={run} />}
      </div>
      <RunFigures run={run} />

      <div className="run-columns">
        <section aria-labelledby="run-errors-heading">
          <h2 id="run-errors-heading">Errors ({errors.length})</h2>
          <RunErrors errors={errors} />
        </section>
        <section aria-labelledby="run-config-heading">
          <h2 id="run-config-heading">Configuration</h2>
          <RunConfigView run={run} />
        </section>
      </div>

      {declines.length > 0 && (
        <section aria-labelledby="run-declines-heading">
          <h2 id="run-declines-heading">No item possible ({run.items_declined})</h2>
          <p className="muted small">Expected refusals, not failures: no proposal can change these questions’ answers. They are not retried.</p>
          <RunDeclines declines={declines} />
        </section>
      )}

      <section aria-labelledby="run-items-heading">
        <h2 id="run-items-heading">
          Items <Link to={`/items?run=${run.id}`} className="small">open in Items</Link>
        </h2>
        <RunItems runId={run.id} />
      </section>
    </section>
  );
}

export function RunPage() {
  const id = parseId(useParams().id);
  const navigate = useNavigate();
  const detail = useRun(id);
  useHotkeys({ Escape: () => void navigate('/runs') });

  const back = <BackLink to="/runs">Runs</BackLink>;
  return (
    <RecordPage noun="run" id={id} query={detail} back={back} loading="Loading run…">
      {({ run, errors, declines }) => <RunView run={run} errors={errors} declines={declines} back={back} />}
    </RecordPage>
  );
}
