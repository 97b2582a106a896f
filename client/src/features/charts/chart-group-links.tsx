import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { chartGroupsApi } from '@shared/api/chart-groups';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** As many groups as one page of the list gives: a split's groups are read in one request. */
const GROUPS_READ = 200;

/**
 * The chart groups a chart belongs to, each linked to its group page, with the chart's place in
 * it ("chart 2 of 3"): questions over a group are stored on its first chart, so the other
 * charts would otherwise not show that they are part of one. Nothing when it is in none.
 */
export function ChartGroupLinks({ chartId, split }: { chartId: number; split: string }) {
  const query = { split, page: 1, page_size: GROUPS_READ };
  const groups = useQuery({ queryKey: [...queryKeys.charts.groupLinks(chartId), split], queryFn: () => call(chartGroupsApi.list, { query }) });
  if (!groups.data) return null;
  const memberships = groups.data.groups.flatMap((group) => {
    const member = group.members.find((candidate) => candidate.chart_id === chartId);
    return member ? [{ group, position: member.position }] : [];
  });
  const unread = groups.data.total > groups.data.groups.length;
  if (memberships.length === 0 && !unread) return null;
  return (
    <>
      <dt>Groups</dt>
      <dd data-testid="chart-groups">
        {memberships.length === 0 ? (
          <span className="muted">none among the split’s first {GROUPS_READ}</span>
        ) : (
          <ul className="group-chart-links">
            {memberships.map(({ group, position }) => (
              <li key={group.id}>
                <Link to={`/charts/groups/${group.id}`}>{group.name}</Link>{' '}
                <span className="muted small">
                  (chart {position} of {group.members.length})
                </span>
              </li>
            ))}
          </ul>
        )}
        {unread && memberships.length > 0 && <span className="muted small"> (of the split’s first {GROUPS_READ} groups)</span>}
      </dd>
    </>
  );
}
