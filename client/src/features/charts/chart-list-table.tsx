import { Link } from 'react-router';
import type { ChartSummary } from '@shared/api/charts';
import { useNavigableRows, useSelectedRowRef } from '../../keyboard/use-list-navigation';
import { TypeBadge } from './type-badge';
import type { ChartLinkState } from './link-state';

type ChartListTableProps = {
  charts: ChartSummary[];
  onOpen: (chart: ChartSummary) => void;
  /** Handed to the chart page so its back link returns to this page of the list. */
  linkState: ChartLinkState;
  /** With a selection, each row ends with a box to check it for a new chart group (curators); last, so the row still reads imgname first. */
  selection?: { checked: ReadonlySet<number>; onToggle: (chart: ChartSummary) => void };
};

/** The charts of one page; rows open on click or with the keyboard (j/k, arrows, Enter). */
export function ChartListTable({ charts, onOpen, linkState, selection }: ChartListTableProps) {
  const { selected, rowProps } = useNavigableRows(charts, onOpen);
  const selectedRow = useSelectedRowRef(selected);

  return (
    <table className="data-grid chart-list" data-testid="chart-list">
      <thead>
        <tr>
          <th scope="col">imgname</th>
          <th scope="col">Title</th>
          <th scope="col">Split</th>
          <th scope="col">Type</th>
          <th scope="col" className="num" title="rows × series">
            Rows×series
          </th>
          <th scope="col" className="num">
            Questions
          </th>
          <th scope="col">Image</th>
          {selection && (
            <th scope="col" title="Check charts to make a group">
              Group
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {charts.map((chart, index) => (
          <tr key={chart.id} ref={index === selected ? selectedRow : undefined} {...rowProps(index)}>
            <td className="mono">
              <Link to={`/charts/${chart.id}`} onClick={(event) => event.stopPropagation()} state={linkState}>
                {chart.imgname}
              </Link>
            </td>
            <td className="title-cell">{chart.title ?? <span className="muted">untitled</span>}</td>
            <td>{chart.split}</td>
            <td>
              <TypeBadge chart={chart} />
            </td>
            <td className="num">
              {chart.table_source === null ? (
                <span className="muted">no table (image only)</span>
              ) : (
                <>
                  {chart.rows}×{chart.series}
                  {chart.table_source === 'extracted' && !chart.table_confirmed && (
                    <span className="muted small" data-testid="table-unconfirmed">
                      {' '}
                      extracted, not confirmed
                    </span>
                  )}
                </>
              )}
            </td>
            <td className="num">{chart.qa_count}</td>
            <td>{chart.has_image ? 'yes' : chart.image_missing ? <strong>image missing</strong> : <span className="muted">no</span>}</td>
            {selection && (
              <td onClick={(event) => event.stopPropagation()}>
                <input
                  type="checkbox"
                  aria-label={`Check ${chart.imgname} for a group`}
                  checked={selection.checked.has(chart.id)}
                  onChange={() => selection.onToggle(chart)}
                />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
