import { useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { errorMessage } from '../../api/http';
import { ChartTypeFilter, FilterSelect } from '../../ui/filter-select';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { ChartListTable } from './chart-list-table';
import { useChartFacets, useChartList } from './charts-api';
import type { ChartLinkState } from './link-state';
import { CHART_PAGE_SIZE, readFilters, toListQuery, writeFilters, type ChartListFilters } from './list-filters';
import { Pager, pageCount } from '../../ui/pager';
import { SearchBox } from '../../ui/search-box';

const SHORTCUTS = [
  { keys: ['/'], action: 'search' },
  { keys: ['j', '↓'], action: 'next' },
  { keys: ['k', '↑'], action: 'previous' },
  { keys: ['Enter'], action: 'open' },
  { keys: ['←', '→'], action: 'page' },
];

export function ChartsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const filters = readFilters(searchParams);
  const query = toListQuery(filters);
  const list = useChartList(query);
  const facets = useChartFacets();
  const searchInput = useRef<HTMLInputElement>(null);

  const total = list.data?.total ?? 0;
  const pages = pageCount(total, CHART_PAGE_SIZE);
  // Read the URL at the time of the change: a debounced search must not undo a filter set meanwhile.
  const update = (change: Partial<ChartListFilters>, replace = false) =>
    setSearchParams((current) => writeFilters(readFilters(current), change), { replace });
  const goToPage = (page: number) => {
    if (page >= 1 && page <= pages) update({ page });
  };

  useHotkeys({
    '/': () => searchInput.current?.focus(),
    ArrowLeft: () => goToPage(filters.page - 1),
    ArrowRight: () => goToPage(filters.page + 1),
  });

  const linkState: ChartLinkState = { listSearch: location.search };
  const splits = facets.data?.splits ?? [];
  const chartTypes = facets.data?.chart_types ?? [];
  const filtered = Boolean(filters.q || filters.split || filters.chartType);

  return (
    <section className="page">
      <title>Charts · Chart-HQA</title>
      <header className="page-header">
        <h1>Charts</h1>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>

      <div className="toolbar" role="search">
        <SearchBox
          value={filters.q}
          onSearch={(q) => update({ q }, true)}
          inputRef={searchInput}
          placeholder="imgname, title or table text"
        />
        <FilterSelect
          label="Split"
          name="split"
          value={filters.split}
          schema={z.string()}
          allLabel="All splits"
          options={splits.map(({ split, count }) => ({ value: split, label: `${split} (${count})` }))}
          onChange={(split) => update({ split })}
        />
        <ChartTypeFilter value={filters.chartType} counts={chartTypes} onChange={(chartType) => update({ chartType })} />
        {filtered && (
          <button type="button" className="link-button" onClick={() => update({ q: '', split: '', chartType: '' })}>
            Clear filters
          </button>
        )}
        {list.isFetching && !list.isPending && <span className="muted small">Updating…</span>}
      </div>

      {facets.isError && (
        <p className="error" role="alert">
          Could not load the filters: {errorMessage(facets.error)}
        </p>
      )}
      {list.isPending && <p className="muted">Loading charts…</p>}
      {list.isError && (
        <p className="error" role="alert">
          Could not load the charts: {errorMessage(list.error)}
        </p>
      )}
      {list.data && list.data.charts.length === 0 && total > 0 && (
        <p className="empty">
          This page is past the end of the list.{' '}
          <button type="button" className="link-button" onClick={() => goToPage(1)}>
            Go to the first page
          </button>
        </p>
      )}
      {list.data && total === 0 && (
        <p className="empty">
          {filtered
            ? 'No charts match these filters.'
            : 'No charts imported yet. Import a ChartQA split with `npm run hqa -- import <split-dir>`.'}
        </p>
      )}
      {list.data && list.data.charts.length > 0 && (
        <>
          <ChartListTable
            key={searchParams.toString()}
            charts={list.data.charts}
            linkState={linkState}
            onOpen={(chart) => void navigate(`/charts/${chart.id}`, { state: linkState })}
          />
          <Pager page={list.data.page} pageSize={list.data.page_size} total={total} onPage={goToPage} />
        </>
      )}
    </section>
  );
}
