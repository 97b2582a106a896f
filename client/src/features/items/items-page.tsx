import { useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { FlagFilterSchema, ItemSortSchema, type ItemSort } from '@shared/api/items';
import { ITEM_ORIGINS, ITEM_STATUSES, ItemOriginSchema, ItemStatusSchema } from '@shared/domain/generation';
import { roleAtLeast } from '@shared/domain/roles';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { LoadError } from '../../ui/error-messages';
import { ChartTypeFilter, FilterSelect, optionsOf } from '../../ui/filter-select';
import { PastEndNotice } from '../../ui/pager';
import { SearchBox } from '../../ui/search-box';
import { useUrlFilters } from '../../ui/use-url-filters';
import { ITEM_PAGE_SIZE, readItemFilters, toItemFilter, toItemQuery, writeItemFilters } from './item-filters';
import { ItemListTable, type ItemSelection } from '../../views/item-list-table';
import { useItems } from '../../api/items-api';
import { AssignedFilter, AssignmentNotes } from './assigned-filter';
import { BulkActions } from './bulk-actions';
import { QueuesPanel } from './queues-panel';
import { CursorPager } from './cursor-pager';
import { ReviewerFilter } from './reviewer-filter';
import { SplitFilter } from './split-filter';
import { NO_VALIDITY_FILTERS, ValidityFilters, hasValidityFilter } from './validity-filters';

const SHORTCUTS = [
  { keys: ['/'], action: 'search' },
  { keys: ['j', '↓'], action: 'next' },
  { keys: ['k', '↑'], action: 'previous' },
  { keys: ['Enter'], action: 'open' },
  { keys: ['←', '→'], action: 'page' },
];
const CURATOR_SHORTCUTS = [...SHORTCUTS, { keys: ['x'], action: 'select for bulk actions' }];
const RETIRED_OPTIONS = [
  { value: 'true', label: 'retired only' },
  { value: 'false', label: 'not retired' },
] as const;

const VerifierFilterSchema = z.enum(['true', 'false']);
const VERIFIER_OPTIONS = [
  { value: 'false', label: 'differs (mismatch)' },
  { value: 'true', label: 'matches' },
] as const;
/** Newest first is the no-choice option. */
const SORT_OPTIONS: readonly { value: ItemSort; label: string }[] = [
  { value: 'oldest', label: 'oldest first' },
  { value: 'status', label: 'by status' },
  { value: 'chart', label: 'by chart' },
];

/** A removable note that the list is narrowed to one run, proposal or chart. */
function ScopeChip({ label, onClear }: { label: string; onClear: () => void }) {
  return (
    <span className="scope-chip">
      {label}{' '}
      <button type="button" className="link-button" onClick={onClear} aria-label={`Stop filtering by ${label}`}>
        ×
      </button>
    </span>
  );
}

export function ItemsPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const user = useCurrentUser();
  const isCurator = roleAtLeast(user.role, 'curator');
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set());
  const { filters, update } = useUrlFilters(readItemFilters, writeItemFilters);
  const list = useItems(toItemQuery(filters));
  const total = list.data?.total ?? 0;
  const searchInput = useRef<HTMLInputElement>(null);
  useHotkeys({ '/': () => searchInput.current?.focus() });

  const filtered = Boolean(
    filters.q.trim() ||
      filters.status ||
      filters.origin ||
      filters.chartType ||
      filters.run ||
      filters.proposal ||
      filters.chart ||
      filters.verifier ||
      filters.reviewer ||
      filters.assigned ||
      filters.split ||
      filters.retired ||
      hasValidityFilter(filters),
  );
  const selection: ItemSelection | undefined = isCurator
    ? {
        checked,
        onChange: (ids, on) =>
          setChecked((current) => {
            const next = new Set(current);
            for (const id of ids) {
              if (on) next.add(id);
              else next.delete(id);
            }
            return next;
          }),
      }
    : undefined;

  return (
    <section className="page">
      <title>Items · Chart-HQA</title>
      <header className="page-header">
        <h1>Items</h1>
        <ShortcutHint shortcuts={isCurator ? CURATOR_SHORTCUTS : SHORTCUTS} />
      </header>

      <div className="toolbar" role="search">
        <SearchBox value={filters.q} onSearch={(q) => update({ q }, true)} inputRef={searchInput} placeholder="question, assumption, answer" />
        <FilterSelect
          label="Status"
          name="status"
          value={filters.status}
          schema={ItemStatusSchema}
          allLabel="Any status"
          options={optionsOf(ITEM_STATUSES, (status) => status.replace('_', ' '))}
          onChange={(status) => update({ status })}
        />
        <FilterSelect
          label="Origin"
          name="origin"
          value={filters.origin}
          schema={ItemOriginSchema}
          allLabel="Any origin"
          options={optionsOf(ITEM_ORIGINS)}
          onChange={(origin) => update({ origin })}
        />
        <ChartTypeFilter value={filters.chartType} onChange={(chartType) => update({ chartType })} />
        {isCurator && <SplitFilter value={filters.split} onChange={(split) => update({ split })} />}
        <FilterSelect
          label="Verifier"
          name="verifier"
          value={filters.verifier}
          schema={VerifierFilterSchema}
          allLabel="Any verdict"
          options={VERIFIER_OPTIONS}
          onChange={(verifier) => update({ verifier })}
        />
        <ValidityFilters filters={filters} update={update} />
        <ReviewerFilter value={filters.reviewer} onChange={(reviewer) => update({ reviewer })} />
        <AssignedFilter value={filters.assigned} onChange={(assigned) => update({ assigned })} isCurator={isCurator} />
        <FilterSelect
          label="Retired"
          name="retired"
          value={filters.retired}
          schema={FlagFilterSchema}
          allLabel="retired or not"
          options={RETIRED_OPTIONS}
          onChange={(retired) => update({ retired })}
        />
        <FilterSelect
          label="Sort"
          name="sort"
          value={filters.sort === 'newest' ? '' : filters.sort}
          schema={ItemSortSchema}
          allLabel="newest first"
          options={SORT_OPTIONS}
          onChange={(sort) => update({ sort: sort || 'newest' })}
        />
        {filters.run !== null && <ScopeChip label={`run #${filters.run}`} onClear={() => update({ run: null })} />}
        {filters.proposal !== null && <ScopeChip label={`proposal #${filters.proposal}`} onClear={() => update({ proposal: null })} />}
        {filters.chart !== null && <ScopeChip label={`chart #${filters.chart}`} onClear={() => update({ chart: null })} />}
        {filters.split && !isCurator && <ScopeChip label={`split ${filters.split}`} onClear={() => update({ split: '' })} />}
        {filtered && (
          <button
            type="button"
            className="link-button"
            onClick={() =>
              update({ q: '', status: '', origin: '', chartType: '', run: null, proposal: null, chart: null, verifier: '', reviewer: null, assigned: '', split: '', retired: '', ...NO_VALIDITY_FILTERS })
            }
          >
            Clear filters
          </button>
        )}
        {list.isFetching && !list.isPending && <span className="muted small">Updating…</span>}
      </div>

      {isCurator && <QueuesPanel />}
      {isCurator && (
        <BulkActions checked={checked} filter={filtered && list.data && !list.isPlaceholderData ? { filter: toItemFilter(filters), total } : null} onDone={() => setChecked(new Set())} />
      )}

      {list.isPending && <p className="muted">Loading items…</p>}
      {list.isError && <LoadError what="the items" error={list.error} />}
      {list.data && total > 0 && list.data.items.length === 0 && <PastEndNotice onFirstPage={() => update({ page: 1 })} />}
      {list.data && total === 0 && (
        <p className="empty">
          {filtered ? 'No items match these filters.' : 'No items yet. Start a run on the Runs page, or write one on a chart’s page.'}
        </p>
      )}
      {list.data && list.data.items.length > 0 && (
        <>
          <ItemListTable
            key={location.search}
            items={list.data.items}
            selection={selection}
            onOpen={(item) => void navigate(`/items/${item.id}`, { state: { listSearch: location.search } })}
          />
          <AssignmentNotes assignments={list.data.assignments} />
          <CursorPager
            page={filters.page}
            pageSize={ITEM_PAGE_SIZE}
            shown={list.data.items.length}
            total={total}
            nextCursor={list.data.next_cursor}
            prevCursor={list.data.prev_cursor}
            onTurn={(turn) => update(turn)}
          />
        </>
      )}
    </section>
  );
}
