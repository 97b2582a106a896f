import { useEffect, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { useSearchParams } from 'react-router';
import { CHART_TYPES, CHART_TYPE_LABELS, ChartTypeSchema } from '../../../../shared/domain/chart-types';
import {
  PROPOSAL_ORIGINS,
  PROPOSAL_STATUSES,
  ProposalOriginSchema,
  ProposalStatusSchema,
} from '../../../../shared/domain/generation';
import { roleAtLeast } from '../../../../shared/domain/roles';
import { errorMessage } from '../../api/http';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { Field } from '../../ui/field';
import { Pager, pageCount } from '../charts/pager';
import { AddSeedForm } from './add-seed-form';
import { useProposals } from './pool-api';
import { PoolCounts } from './pool-counts';
import { POOL_PAGE_SIZE, readPoolFilters, toPoolQuery, writePoolFilters, type PoolFilters } from './pool-filters';
import { ProposalCard } from './proposal-card';

const SEARCH_DEBOUNCE_MS = 250;
const SHORTCUTS = [
  { keys: ['/'], action: 'search' },
  { keys: ['←', '→'], action: 'page' },
];

/** Proposal text search: reports after a pause in typing, at once on Enter. */
function PoolSearch({ value, onSearch, inputRef }: { value: string; onSearch: (q: string) => void; inputRef: Ref<HTMLInputElement> }) {
  const [draft, setDraft] = useState(value);
  const [lastValue, setLastValue] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  if (value !== lastValue) {
    setLastValue(value);
    setDraft(value);
  }
  const commit = (text: string) => {
    window.clearTimeout(timer.current);
    if (text.trim() !== value.trim()) onSearch(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === 'Escape') {
      commit(event.currentTarget.value);
      event.currentTarget.blur();
    }
  };
  return (
    <Field label="Search" inline className="search-field">
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          type="search"
          name="q"
          placeholder="proposal text"
          autoComplete="off"
          value={draft}
          onChange={(event) => {
            const text = event.target.value;
            setDraft(text);
            window.clearTimeout(timer.current);
            timer.current = window.setTimeout(() => commit(text), SEARCH_DEBOUNCE_MS);
          }}
          onKeyDown={onKeyDown}
        />
      )}
    </Field>
  );
}

export function PoolPage() {
  const user = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = readPoolFilters(searchParams);
  const list = useProposals(toPoolQuery(filters));
  const searchInput = useRef<HTMLInputElement>(null);
  const canEdit = roleAtLeast(user.role, 'curator');

  const total = list.data?.total ?? 0;
  const pages = pageCount(total, POOL_PAGE_SIZE);
  const update = (change: Partial<PoolFilters>, replace = false) =>
    setSearchParams((current) => writePoolFilters(readPoolFilters(current), change), { replace });
  const goToPage = (page: number) => {
    if (page >= 1 && page <= pages) update({ page });
  };
  useHotkeys({
    '/': () => searchInput.current?.focus(),
    ArrowLeft: () => goToPage(filters.page - 1),
    ArrowRight: () => goToPage(filters.page + 1),
  });
  const filtered = Boolean(filters.q || filters.chartType || filters.origin || filters.status);

  return (
    <section className="page pool-page">
      <title>Pool · Chart-HQA</title>
      <header className="page-header">
        <h1>Pool</h1>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      <p className="muted page-intro">
        General counterfactual instruction proposals per chart type. Hand-written seeds start the pool; Stage 1 adds generated
        ones, and a new proposal too close to one already here (ROUGE-L) is kept as a duplicate, not made active.
      </p>

      {list.data && (
        <PoolCounts counts={list.data.counts} onPick={(chartType, status) => update({ chartType, status, origin: '', q: '' })} />
      )}

      {canEdit && <AddSeedForm key={filters.chartType} defaultType={filters.chartType} />}

      <div className="toolbar" role="search">
        <PoolSearch value={filters.q} onSearch={(q) => update({ q }, true)} inputRef={searchInput} />
        <Field label="Chart type" inline>
          {(control) => (
            <select
              {...control}
              name="type"
              value={filters.chartType}
              onChange={(event) => {
                const type = ChartTypeSchema.safeParse(event.target.value);
                update({ chartType: type.success ? type.data : '' });
              }}
            >
              <option value="">All types</option>
              {CHART_TYPES.map((type) => (
                <option key={type} value={type}>
                  {CHART_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Origin" inline>
          {(control) => (
            <select
              {...control}
              name="origin"
              value={filters.origin}
              onChange={(event) => {
                const origin = ProposalOriginSchema.safeParse(event.target.value);
                update({ origin: origin.success ? origin.data : '' });
              }}
            >
              <option value="">Any origin</option>
              {PROPOSAL_ORIGINS.map((origin) => (
                <option key={origin} value={origin}>
                  {origin}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Status" inline>
          {(control) => (
            <select
              {...control}
              name="status"
              value={filters.status}
              onChange={(event) => {
                const status = ProposalStatusSchema.safeParse(event.target.value);
                update({ status: status.success ? status.data : '' });
              }}
            >
              <option value="">Any status</option>
              {PROPOSAL_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          )}
        </Field>
        {filtered && (
          <button type="button" className="link-button" onClick={() => update({ q: '', chartType: '', origin: '', status: '' })}>
            Clear filters
          </button>
        )}
        {list.isFetching && !list.isPending && <span className="muted small">Updating…</span>}
      </div>

      {list.isPending && <p className="muted">Loading proposals…</p>}
      {list.isError && (
        <p className="error" role="alert">
          Could not load the pool: {errorMessage(list.error)}
        </p>
      )}
      {list.data && total === 0 && <p className="empty">{filtered ? 'No proposals match these filters.' : 'The pool is empty.'}</p>}
      {list.data && list.data.proposals.length > 0 && (
        <>
          <div className="proposal-list" data-testid="proposal-list">
            {list.data.proposals.map((proposal) => (
              <ProposalCard key={proposal.id} proposal={proposal} canEdit={canEdit} />
            ))}
          </div>
          <Pager page={filters.page} pageSize={POOL_PAGE_SIZE} total={total} onPage={goToPage} />
        </>
      )}
    </section>
  );
}
