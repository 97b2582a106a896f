import { useRef } from 'react';
import {
  PROPOSAL_ORIGINS,
  PROPOSAL_STATUSES,
  ProposalOriginSchema,
  ProposalStatusSchema,
} from '@shared/domain/generation';
import { PROPOSAL_SCOPES, ProposalScopeSchema } from '@shared/api/pool';
import { roleAtLeast } from '@shared/domain/roles';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { usePageKeys } from '../../keyboard/use-page-keys';
import { LoadError } from '../../ui/error-messages';
import { ChartTypeFilter, FilterSelect, optionsOf } from '../../ui/filter-select';
import { SearchBox } from '../../ui/search-box';
import { Pager } from '../../ui/pager';
import { useUrlFilters } from '../../ui/use-url-filters';
import { AddSeedForm } from './add-seed-form';
import { useProposals } from '../../api/pool-api';
import { PoolCounts } from './pool-counts';
import { POOL_PAGE_SIZE, readPoolFilters, SCOPE_LABELS, toPoolQuery, writePoolFilters } from './pool-filters';
import { ProposalCard } from './proposal-card';
import { ReflectionBatchPanel } from './reflection-batch-panel';
import { PoolTabs } from './pool-tabs';

const SHORTCUTS = [
  { keys: ['/'], action: 'search' },
  { keys: ['←', '→'], action: 'page' },
];

export function PoolPage() {
  const user = useCurrentUser();
  const { filters, update } = useUrlFilters(readPoolFilters, writePoolFilters);
  const list = useProposals(toPoolQuery(filters));
  const searchInput = useRef<HTMLInputElement>(null);
  const canEdit = roleAtLeast(user.role, 'curator');

  const total = list.data?.total ?? 0;
  const goToPage = usePageKeys({ page: filters.page, total, pageSize: POOL_PAGE_SIZE, onPage: (page) => update({ page }), searchInput });
  const filtered = Boolean(filters.q || filters.chartType || filters.origin || filters.status || filters.scope);

  return (
    <section className="page pool-page">
      <title>Pool · Chart-HQA</title>
      <header className="page-header">
        <h1>Pool</h1>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      <PoolTabs />
      <p className="muted page-intro">
        General counterfactual instruction proposals per chart type. Hand-written seeds start the pool; Stage 1 adds generated
        ones, and a new proposal too close to one already here (ROUGE-L) is kept as a duplicate, not made active.
      </p>

      {list.data && (
        <PoolCounts counts={list.data.counts} onPick={(chartType, status) => update({ chartType, status, origin: '', q: '' })} />
      )}

      {canEdit && <AddSeedForm key={filters.chartType} defaultType={filters.chartType} />}
      {canEdit && <ReflectionBatchPanel chartType={filters.chartType} />}

      <div className="toolbar" role="search">
        <SearchBox value={filters.q} onSearch={(q) => update({ q }, true)} inputRef={searchInput} placeholder="proposal text" />
        <ChartTypeFilter value={filters.chartType} onChange={(chartType) => update({ chartType })} />
        <FilterSelect
          label="Origin"
          name="origin"
          value={filters.origin}
          schema={ProposalOriginSchema}
          allLabel="Any origin"
          options={optionsOf(PROPOSAL_ORIGINS)}
          onChange={(origin) => update({ origin })}
        />
        <FilterSelect
          label="Scope"
          name="scope"
          value={filters.scope}
          schema={ProposalScopeSchema}
          allLabel="Any scope"
          options={optionsOf(PROPOSAL_SCOPES, (scope) => SCOPE_LABELS[scope])}
          onChange={(scope) => update({ scope })}
        />
        <FilterSelect
          label="Status"
          name="status"
          value={filters.status}
          schema={ProposalStatusSchema}
          allLabel="Any status"
          options={optionsOf(PROPOSAL_STATUSES)}
          onChange={(status) => update({ status })}
        />
        {filtered && (
          <button type="button" className="link-button" onClick={() => update({ q: '', chartType: '', origin: '', status: '', scope: '' })}>
            Clear filters
          </button>
        )}
        {list.isFetching && !list.isPending && <span className="muted small">Updating…</span>}
      </div>

      {list.isPending && <p className="muted">Loading proposals…</p>}
      {list.isError && <LoadError what="the pool" error={list.error} />}
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
