import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ChartGroupSourceSchema } from '@shared/domain/benchmark-fields';
import type { ChartGroupSummary } from '@shared/api/chart-groups';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useNavigableRows, useSelectedRowRef } from '../../keyboard/use-list-navigation';
import { LoadError } from '../../ui/error-messages';
import { FilterSelect } from '../../ui/filter-select';
import { Pager } from '../../ui/pager';
import { BackLink } from '../../ui/record-page';
import { useChartGroups } from './chart-groups-api';

const PAGE_SIZE = 25;
const SHORTCUTS = [
  { keys: ['j', '↓'], action: 'next' },
  { keys: ['k', '↑'], action: 'previous' },
  { keys: ['Enter'], action: 'open' },
];

const SOURCE_LABELS = { curator: 'curator', multichartqa: 'MultiChartQA' } as const;

function GroupRows({ groups, onOpen }: { groups: ChartGroupSummary[]; onOpen: (group: ChartGroupSummary) => void }) {
  const { selected, rowProps } = useNavigableRows(groups, onOpen);
  const selectedRow = useSelectedRowRef(selected);
  return (
    <table className="data-grid" data-testid="chart-group-list">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Split</th>
          <th scope="col">Source</th>
          <th scope="col">Charts, in order</th>
          <th scope="col" className="num">
            Questions
          </th>
          <th scope="col" className="num">
            Items
          </th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group, index) => (
          <tr key={group.id} ref={index === selected ? selectedRow : undefined} {...rowProps(index)}>
            <td>
              <Link to={`/charts/groups/${group.id}`} onClick={(event) => event.stopPropagation()}>
                {group.name}
              </Link>
            </td>
            <td>{group.split}</td>
            <td>{SOURCE_LABELS[group.source]}</td>
            <td className="mono small">{group.members.map((m) => `${m.position}. ${m.imgname}`).join('  ')}</td>
            <td className="num">{group.question_count}</td>
            <td className="num">{group.item_count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Chart groups: MultiChartQA's and curators' (made from checked charts on the Charts list). */
export function ChartGroupsPage() {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [source, setSource] = useState<'' | 'curator' | 'multichartqa'>('');
  const list = useChartGroups({ page, page_size: PAGE_SIZE, ...(source ? { source } : {}) });
  const total = list.data?.total ?? 0;
  return (
    <section className="page">
      <title>Chart groups · Chart-HQA</title>
      <header className="page-header">
        <div>
          <BackLink to="/charts">Charts</BackLink>
          <h1>Chart groups</h1>
        </div>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      <p className="muted">
        A group is 2–4 charts one question relates (“the first chart”, “the second chart”). Make one from the charts you check on the{' '}
        <Link to="/charts">Charts</Link> list; MultiChartQA imports bring their own.
      </p>
      <div className="toolbar">
        <FilterSelect
          label="Source"
          name="source"
          value={source}
          schema={ChartGroupSourceSchema}
          allLabel="All sources"
          options={[
            { value: 'curator', label: 'curator' },
            { value: 'multichartqa', label: 'MultiChartQA' },
          ]}
          onChange={(value) => {
            setSource(value);
            setPage(1);
          }}
        />
      </div>
      {list.isPending && <p className="muted">Loading groups…</p>}
      {list.isError && <LoadError what="the chart groups" error={list.error} />}
      {list.data && total === 0 && <p className="empty">No chart groups yet.</p>}
      {list.data && list.data.groups.length > 0 && (
        <>
          <GroupRows key={`${page}-${source}`} groups={list.data.groups} onOpen={(group) => void navigate(`/charts/groups/${group.id}`)} />
          <Pager page={list.data.page} pageSize={list.data.page_size} total={total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
