import { useRef, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { endpointUrl } from '@shared/api/endpoint';
import { evalApi, EvalModeSchema, type EvalMode, type EvalRun } from '@shared/api/evaluations';
import { roleAtLeast } from '@shared/domain/roles';
import { ANSWER_TYPES, AnswerTypeSchema } from '@shared/table/answers';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { usePageKeys } from '../../keyboard/use-page-keys';
import { ActionError, LoadError } from '../../ui/error-messages';
import { FilterSelect, optionsOf } from '../../ui/filter-select';
import { Pager, PastEndNotice } from '../../ui/pager';
import { BackLink, RecordPage } from '../../ui/record-page';
import { SearchBox } from '../../ui/search-box';
import { useUrlFilters } from '../../ui/use-url-filters';
import { parseId } from '../../ui/parse-id';
import { RunDates, UsageFigures } from '../../views/run-parts';
import { EvalBreakdownTables } from './eval-breakdown';
import { useEvalResults, useEvalRun, useEvalRunAction, type EvalRunAction, type EvalRunDetailResponse } from './eval-api';
import { ANSWER_TYPE_LABELS, ENGINE_LABELS, MODE_LABELS, isUnfinished } from './eval-format';
import { EvalProgress, EvalStatusTag } from './eval-parts';
import { EvalResultsTable } from './eval-results-table';
import { EvalRuleTable } from './eval-rule-table';
import { EvalScoreTables } from './eval-score-tables';
import { ConditionTables } from './condition-tables';
import { EvalOutcomeSchema, RESULT_PAGE_SIZE, readResultFilters, toResultsQuery, writeResultFilters, type EvalOutcome } from './result-filters';

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
  skipped: 'Skipped (cannot be drawn)',
};
/** 'all' is the filter select's own no-filter option. */
const FilterOutcomeSchema = EvalOutcomeSchema.exclude(['all']);
const OUTCOME_OPTIONS = optionsOf(FilterOutcomeSchema.options, (outcome) => OUTCOME_LABELS[outcome]);

/** As a generation run's controls: Resume for a paused run (a full disk), Cancel for any unfinished one. */
function RunControls({ run }: { run: EvalRun }) {
  const action = useEvalRunAction(run.id);
  const pending = (name: EvalRunAction) => action.isPending && action.variables === name;
  return (
    <div className="run-controls" role="group" aria-label="Run controls">
      {run.status === 'paused' && (
        <button type="button" onClick={() => action.mutate('resume')} disabled={action.isPending} data-testid="eval-resume">
          {pending('resume') ? 'Resuming…' : 'Resume'}
        </button>
      )}
      <button type="button" onClick={() => action.mutate('cancel')} disabled={action.isPending}>
        {pending('cancel') ? 'Cancelling…' : 'Cancel run'}
      </button>
      {action.isError && <ActionError error={action.error} />}
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
      <RunDates createdAt={run.created_at} createdBy={run.created_by} finishedAt={run.finished_at} />
    </dl>
  );
}

function EvalUsage({ run }: { run: EvalRun }) {
  if (run.engine === 'imported') return <p className="muted small">Imported predictions carry no token counts or cost.</p>;
  return (
    <dl className="figures" data-testid="eval-usage">
      <UsageFigures run={run} />
    </dl>
  );
}

/** The run's questions, filtered and paged through the URL, each opening to the model's raw reply. */
function EvalResults({ runId, conditions }: { runId: number; conditions: readonly EvalMode[] }) {
  const { filters, searchParams, update } = useUrlFilters(readResultFilters, writeResultFilters);
  const results = useEvalResults(runId, toResultsQuery(filters));
  const searchInput = useRef<HTMLInputElement>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const total = results.data?.total ?? 0;
  const goToPage = usePageKeys({ page: filters.page, total, pageSize: RESULT_PAGE_SIZE, onPage: (page) => update({ page }), searchInput });
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const filtered = Boolean(filters.q || filters.answerType || filters.outcome !== 'all');

  return (
    <section aria-labelledby="results-heading">
      <h2 id="results-heading">Questions</h2>
      <div className="toolbar" role="search">
        <SearchBox value={filters.q} onSearch={(q) => update({ q }, true)} inputRef={searchInput} placeholder="question, gold or prediction" />
        {conditions.length > 1 && (
          <FilterSelect
            label="Condition"
            name="condition"
            value={filters.condition}
            schema={EvalModeSchema}
            allLabel={`${MODE_LABELS[conditions[0] ?? 'hqa']} (first)`}
            options={optionsOf(conditions, (condition) => MODE_LABELS[condition])}
            onChange={(condition) => update({ condition })}
          />
        )}
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
      {results.isError && <LoadError what="the questions" error={results.error} />}
      {results.data && total === 0 && <p className="empty">{filtered ? 'No questions match these filters.' : 'This run has no questions.'}</p>}
      {results.data && results.data.results.length === 0 && total > 0 && <PastEndNotice onFirstPage={() => goToPage(1)} />}
      {results.data && results.data.results.length > 0 && (
        <>
          <EvalResultsTable key={searchParams.toString()} results={results.data.results} expanded={expanded} onToggle={toggle} />
          <Pager page={filters.page} pageSize={RESULT_PAGE_SIZE} total={total} onPage={goToPage} />
        </>
      )}
    </section>
  );
}

function EvalRunView({ run, baseline, breakdown, rules, back }: EvalRunDetailResponse & { back: ReactNode }) {
  const user = useCurrentUser();
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
          {run.status === 'paused' ? `Paused: ${run.error}` : run.error}
        </p>
      )}
      <div className="run-head">
        <EvalProgress run={run} caption />
        {roleAtLeast(user.role, 'curator') && isUnfinished(run.status) && <RunControls run={run} />}
      </div>
      <EvalScoreTables run={run} baseline={baseline} />
      <ConditionTables run={run} />
      <EvalRuleTable rules={rules} live={isUnfinished(run.status)} />
      <EvalBreakdownTables breakdown={breakdown} />
      <EvalUsage run={run} />
      <p className="muted small">
        <a href={endpointUrl(evalApi.predictions, { params: { id: run.id } })} download data-testid="eval-predictions-download">
          Download the predictions
        </a>{' '}
        as <code>hqa eval</code> writes them (<code>[{'{'}id, prediction, raw{'}'}]</code>), to score with <code>hqa score</code> or another tool.
      </p>
      <EvalResults runId={run.id} conditions={run.conditions.map((c) => c.condition)} />
    </section>
  );
}

export function EvalRunPage() {
  const id = parseId(useParams().id);
  const navigate = useNavigate();
  const detail = useEvalRun(id);
  useHotkeys({ Escape: () => void navigate('/evaluation') });

  const back = <BackLink to="/evaluation">Evaluation</BackLink>;
  return (
    <RecordPage noun="evaluation run" id={id} query={detail} back={back} loading="Loading the evaluation run…">
      {(data) => <EvalRunView {...data} back={back} />}
    </RecordPage>
  );
}
