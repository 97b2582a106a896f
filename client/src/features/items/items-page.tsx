import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ITEM_ORIGINS, ITEM_STATUSES, ItemOriginSchema, ItemStatusSchema } from '../../../../shared/domain/generation';
import { errorMessage } from '../../api/http';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { ChartTypeFilter, FilterSelect, optionsOf } from '../../ui/filter-select';
import { Pager, pageCount } from '../../ui/pager';
import { ITEM_PAGE_SIZE, readItemFilters, toItemQuery, writeItemFilters, type ItemListFilters } from './item-filters';
import { ItemListTable } from './item-list-table';
import { useItems } from './items-api';

const SHORTCUTS = [
  { keys: ['j', '↓'], action: 'next' },
  { keys: ['k', '↑'], action: 'previous' },
  { keys: ['Enter'], action: 'open' },
  { keys: ['←', '→'], action: 'page' },
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
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const filters = readItemFilters(searchParams);
  const list = useItems(toItemQuery(filters));
  const total = list.data?.total ?? 0;
  const pages = pageCount(total, ITEM_PAGE_SIZE);

  const update = (change: Partial<ItemListFilters>) => setSearchParams((current) => writeItemFilters(readItemFilters(current), change));
  const goToPage = (page: number) => {
    if (page >= 1 && page <= pages) update({ page });
  };
  useHotkeys({ ArrowLeft: () => goToPage(filters.page - 1), ArrowRight: () => goToPage(filters.page + 1) });

  const filtered = Boolean(filters.status || filters.origin || filters.chartType || filters.run || filters.proposal || filters.chart);

  return (
    <section className="page">
      <title>Items · Chart-HQA</title>
      <header className="page-header">
        <h1>Items</h1>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>

      <div className="toolbar" role="search">
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
        {filters.run !== null && <ScopeChip label={`run #${filters.run}`} onClear={() => update({ run: null })} />}
        {filters.proposal !== null && <ScopeChip label={`proposal #${filters.proposal}`} onClear={() => update({ proposal: null })} />}
        {filters.chart !== null && <ScopeChip label={`chart #${filters.chart}`} onClear={() => update({ chart: null })} />}
        {filtered && (
          <button
            type="button"
            className="link-button"
            onClick={() => update({ status: '', origin: '', chartType: '', run: null, proposal: null, chart: null })}
          >
            Clear filters
          </button>
        )}
        {list.isFetching && !list.isPending && <span className="muted small">Updating…</span>}
      </div>

      {list.isPending && <p className="muted">Loading items…</p>}
      {list.isError && (
        <p className="error" role="alert">
          Could not load the items: {errorMessage(list.error)}
        </p>
      )}
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
            onOpen={(item) => void navigate(`/items/${item.id}`, { state: { listSearch: location.search } })}
          />
          <Pager page={filters.page} pageSize={ITEM_PAGE_SIZE} total={total} onPage={goToPage} />
        </>
      )}
    </section>
  );
}
