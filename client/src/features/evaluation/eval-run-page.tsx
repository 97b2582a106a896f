import { useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { EvalRun } from '../../../../shared/api/evaluations';
import { roleAtLeast } from '../../../../shared/domain/roles';
import { ANSWER_TYPES, AnswerTypeSchema } from '../../../../shared/table/answers';
import { errorMessage, isApiError } from '../../api/http';
import { formatTime } from '../../app/format';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { FilterSelect, optionsOf } from '../../ui/filter-select';
import { Pager, pageCount } from '../../ui/pager';
import { SearchBox } from '../../ui/search-box';
import { parseId } from '../items/items-api';
import { formatCost } from '../runs/run-progress';
import { useCancelEval, useEvalResults, useEvalRun } from './eval-api';
import { ANSWER_TYPE_LABELS, ENGINE_LABELS, MODE_LABELS, isActive } from './eval-format';
import { EvalProgress, EvalStatusTag } from './eval-parts';
import { EvalResultsTable } from './eval-results-table';
import { EvalScoreTables } from './eval-score-tables';
import { EvalOutcomeSchema, RESULT_PAGE_SIZE, readResultFilters, toResultsQuery, writeResultFilters, type EvalOutcome, type ResultFilters } from './result-filters';

const SHORTCUTS = [
  { keys: ['/'], action: 'search' },
  { keys: ['j', '↓'], action: 'next' },
  { keys: ['k', '↑'], action: 'previous' },
  { keys: ['Enter'], action: 'open / close' },
  { keys: ['←', '→'], action: 'page' },
  { keys: ['Esc'], action: 'back to Evaluation' },
];

const OUTCOME_LABELS: Record<Exclude<EvalOutcome, 'all'>, string> = {
  correct: 'Correct',
  wrong: 'Wrong',
  missing: 'No answer extracted',
  biased: 'Biased (gave the factual label)',
  failed: 'Failed',
};
/** 'all' is the filter select's own no-filter option. */
const FilterOutcomeSchema = EvalOutcomeSchema.exclude(['all']);
const OUTCOME_OPTIONS = optionsOf(FilterOutcomeSchema.options, (outcome) => OUTCOME_LABELS[outcome]);

function CancelButton({ run }: { run: EvalRun }) {
  const cancel = useCancelEval(run.id);
  return (
    <div className="run-controls" role="group" aria-label="Run controls">
      <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
        {cancel.isPending ? 'Cancelling…' : 'Cancel run'}
      </button>
      {cancel.isError && (
        <span className="error" role="alert">
          {errorMessage(cancel.error)}
        </span>
      )}
    </div>
  );
}

function RunMeta({ run }: { run: EvalRun }) {
  return (
    <dl className="meta" data-testid="eval-run-meta">
      <dt>Model</dt>
      <dd className="mono" data-testid="eval-run-model">
        {run.model}
      </dd>
      <dt>Engine</dt>
      <dd>{ENGINE_LABELS[run.engine]}</dd>
      <dt>Mode</dt>
      <dd data-testid="eval-run-mode">{MODE_LABELS[run.mode]}</dd>
      {run.engine !== 'imported' && (
        <>
          <dt>Concurrency</dt>
          <dd>{run.concurrency}</dd>
        </>
      )}
      <dt>Created</dt>
      <dd>
        <time dateTime={run.created_at}>{formatTime(run.created_at)}</time>
        {run.created_by && <span className="muted"> by {run.created_by}</span>}
      </dd>
      {run.finished_at && (
        <>
          <dt>Finished</dt>
          <dd>
            <time dateTime={run.finished_at}>{formatTime(run.finished_at)}</time>
          </dd>
        </>
      )}
    </dl>
  );
}

function UsageFigures({ run }: { run: EvalRun }) {
  if (run.engine === 'imported') return <p className="muted small">Imported predictions carry no token counts or cost.</p>;
  const tokens = run.prompt_tokens + run.completion_tokens;
  return (
    <dl className="figures" data-testid="eval-usage">
      <div>
        <dt>Tokens</dt>
        <dd title={`${run.prompt_tokens} prompt + ${run.completion_tokens} completion`}>
          {tokens.toLocaleString()}
          <span className="muted small">
            {' '}
            ({run.prompt_tokens.toLocaleString()} in / {run.completion_tokens.toLocaleString()} out)
          </span>
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd>{formatCost(run.cost)}</dd>
      </div>
    </dl>
  );
}

/** The run's questions, filtered and paged through the URL, each opening to the model's raw reply. */
function EvalResults({ runId }: { runId: number }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = readResultFilters(searchParams);
  const results = useEvalResults(runId, toResultsQuery(filters));
  const searchInput = useRef<HTMLInputElement>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const total = results.data?.total ?? 0;
  const pages = pageCount(total, RESULT_PAGE_SIZE);
  // Read the URL at the time of the change: a debounced search must not undo a filter set meanwhile.
  const update = (change: Partial<ResultFilters>, replace = false) =>
    setSearchParams((current) => writeResultFilters(readResultFilters(current), change), { replace });
  const goToPage = (page: number) => {
    if (page >= 1 && page <= pages) update({ page });
  };
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  useHotkeys({
    '/': () => searchInput.current?.focus(),
    ArrowLeft: () => goToPage(filters.page - 1),
    ArrowRight: () => goToPage(filters.page + 1),
  });
  const filtered = Boolean(filters.q || filters.answerType || filters.outcome !== 'all');

  return (
    <section aria-labelledby="results-heading">
      <h2 id="results-heading">Questions</h2>
      <div className="toolbar" role="search">
        <SearchBox value={filters.q} onSearch={(q) => update({ q }, true)} inputRef={searchInput} placeholder="question, gold or prediction" />
        <FilterSelect
          label="Outcome"
          name="outcome"
          value={filters.outcome === 'all' ? '' : filters.outcome}
          schema={FilterOutcomeSchema}
          allLabel="All outcomes"
          options={OUTCOME_OPTIONS}
          onChange={(outcome) => update({ outcome: outcome || 'all' })}
        />
        <FilterSelect
          label="Answer type"
          name="answer_type"
          value={filters.answerType}
          schema={AnswerTypeSchema}
          allLabel="All types"
          options={optionsOf(ANSWER_TYPES, (type) => ANSWER_TYPE_LABELS[type])}
          onChange={(answerType) => update({ answerType })}
        />
        {filtered && (
          <button type="button" className="link-button" onClick={() => update({ q: '', answerType: '', outcome: 'all' })}>
            Clear filters
          </button>
        )}
        {results.isFetching && !results.isPending && <span className="muted small">Updating…</span>}
      </div>
      {results.isPending && <p className="muted">Loading questions…</p>}
      {results.isError && (
        <p className="error" role="alert">
          Could not load the questions: {errorMessage(results.error)}
        </p>
      )}
      {results.data && total === 0 && <p className="empty">{filtered ? 'No questions match these filters.' : 'This run has no questions.'}</p>}
      {results.data && results.data.results.length === 0 && total > 0 && (
        <p className="empty">
          This page is past the end of the list.{' '}
          <button type="button" className="link-button" onClick={() => goToPage(1)}>
            Go to the first page
          </button>
        </p>
      )}
      {results.data && results.data.results.length > 0 && (
        <>
          <EvalResultsTable key={searchParams.toString()} results={results.data.results} expanded={expanded} onToggle={toggle} />
          <Pager page={filters.page} pageSize={RESULT_PAGE_SIZE} total={total} onPage={goToPage} />
        </>
      )}
    </section>
  );
}

export function EvalRunPage() {
  const id = parseId(useParams().id);
  const user = useCurrentUser();
  const navigate = useNavigate();
  const detail = useEvalRun(id);
  useHotkeys({ Escape: () => void navigate('/evaluation') });

  const back = (
    <Link to="/evaluation" className="back-link">
      ‹ Evaluation
    </Link>
  );
  if (id === null || (isApiError(detail.error) && detail.error.status === 404)) {
    return (
      <section className="page">
        {back}
        <h1>Evaluation run not found</h1>
        <p>There is no evaluation run with this id.</p>
      </section>
    );
  }
  if (detail.isPending) {
    return (
      <section className="page">
        {back}
        <p className="muted">Loading the evaluation run…</p>
      </section>
    );
  }
  if (detail.isError) {
    return (
      <section className="page">
        {back}
        <p className="error" role="alert">
          Could not load the evaluation run: {errorMessage(detail.error)}
        </p>
      </section>
    );
  }

  const { run, baseline } = detail.data;
  return (
    <section className="page">
      <title>{`Evaluation run #${run.id} · Chart-HQA`}</title>
      <header className="page-header">
        <div>
          {back}
          <h1>
            Evaluation run #{run.id} <EvalStatusTag status={run.status} />
          </h1>
        </div>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      <RunMeta run={run} />
      {run.error && (
        <p className={run.status === 'failed' ? 'error' : 'notice small'} data-testid="eval-run-error">
          {run.error}
        </p>
      )}
      <div className="run-head">
        <EvalProgress run={run} caption />
        {roleAtLeast(user.role, 'curator') && isActive(run.status) && <CancelButton run={run} />}
      </div>
      <EvalScoreTables run={run} baseline={baseline} />
      <UsageFigures run={run} />
      <EvalResults runId={run.id} />
    </section>
  );
}
