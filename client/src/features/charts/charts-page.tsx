import { useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { ChartTypeFilter, FilterSelect } from '../../ui/filter-select';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { usePageKeys } from '../../keyboard/use-page-keys';
import { LoadError } from '../../ui/error-messages';
import { ChartListTable } from './chart-list-table';
import { useChartFacets, useChartList } from '../../api/charts-api';
import type { ChartLinkState } from './link-state';
import { CHART_PAGE_SIZE, readFilters, toListQuery, writeFilters } from './list-filters';
import { Pager, PastEndNotice } from '../../ui/pager';
import { SearchBox } from '../../ui/search-box';
import { useUrlFilters } from '../../ui/use-url-filters';
import { roleAtLeast } from '@shared/domain/roles';
import { useSession } from '../../auth/session';
import { ExtractTablesControl } from '../../views/extract-tables-control';
import type { ChartSummary } from '@shared/api/charts';
import { NewGroupBar } from './new-group-bar';

const SHORTCUTS = [
  { keys: ['/'], action: 'search' },
  { keys: ['j', '↓'], action: 'next' },
  { keys: ['k', '↑'], action: 'previous' },
  { keys: ['Enter'], action: 'open' },
  { keys: ['←', '→'], action: 'page' },
];

export function ChartsPage() {
  const { filters, searchParams, update } = useUrlFilters(readFilters, writeFilters);
  const location = useLocation();
  const navigate = useNavigate();
  const query = toListQuery(filters);
  const list = useChartList(query);
  const facets = useChartFacets();
  // Read softly: when a session ends underneath the page, this renders once more before login takes over.
  const role = useSession().data?.role;
  const curator = role !== undefined && roleAtLeast(role, 'curator');
  // Checked charts for a new group, in the order checked; kept across pages and filters.
  const [checked, setChecked] = useState<ChartSummary[]>([]);
  const toggleChecked = (chart: ChartSummary) =>
    setChecked((current) => (current.some((c) => c.id === chart.id) ? current.filter((c) => c.id !== chart.id) : [...current, chart]));
  const searchInput = useRef<HTMLInputElement>(null);

  const total = list.data?.total ?? 0;
  const goToPage = usePageKeys({ page: filters.page, total, pageSize: CHART_PAGE_SIZE, onPage: (page) => update({ page }), searchInput });

  const linkState: ChartLinkState = { listSearch: location.search };
  const splits = facets.data?.splits ?? [];
  const chartTypes = facets.data?.chart_types ?? [];
  const filtered = Boolean(filters.q || filters.split || filters.chartType);

  return (
    <section className="page">
      <title>Charts · Chart-HQA</title>
      <header className="page-header">
        <div>
          <h1>Charts</h1>
          <Link to="/charts/groups" className="small">
            Chart groups
          </Link>
          {curator && (
            <>
              {' · '}
              <Link to="/charts/types" className="small">
                Chart types to triage
              </Link>
            </>
          )}
        </div>
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
      {/* The search text is not part of a job's scope: it covers the split and chart type shown. */}
      {curator && <ExtractTablesControl target={{ split: filters.split || undefined, chart_type: filters.chartType || undefined }} />}

      {/* Shown once a chart is checked: the list's boxes are how a group starts. */}
      {curator && checked.length > 0 && <NewGroupBar checked={checked} onReorder={setChecked} onClear={() => setChecked([])} />}

      {facets.isError && <LoadError what="the filters" error={facets.error} />}
      {list.isPending && <p className="muted">Loading charts…</p>}
      {list.isError && <LoadError what="the charts" error={list.error} />}
      {list.data && list.data.charts.length === 0 && total > 0 && <PastEndNotice onFirstPage={() => goToPage(1)} />}
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
            {...(curator ? { selection: { checked: new Set(checked.map((c) => c.id)), onToggle: toggleChecked } } : {})}
            onOpen={(chart) => void navigate(`/charts/${chart.id}`, { state: linkState })}
          />
          <Pager page={list.data.page} pageSize={list.data.page_size} total={total} onPage={goToPage} />
        </>
      )}
    </section>
  );
}
