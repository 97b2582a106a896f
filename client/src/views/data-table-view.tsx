import type { DataTable } from '@shared/table/model';
import { isMissingCell } from '@shared/table/cell';

/** Said of a value a vision model estimated from the chart's axis rather than read from a printed label. */
export const ESTIMATED_CELL_TITLE = 'Estimated from the axis, not printed on the chart: check it against the image';

function Cell({ raw, value, estimated }: { raw: string; value: number | null; estimated: boolean }) {
  if (isMissingCell(raw)) {
    return (
      <td className="num cell-missing" title="Missing value">
        <span className="sr-only">missing value: </span>
        {raw.trim() === '' ? '(empty)' : raw}
      </td>
    );
  }
  if (estimated) {
    return (
      <td className="num cell-estimated" title={ESTIMATED_CELL_TITLE} data-estimated="true">
        <span className="sr-only">estimated: </span>
        {raw}
      </td>
    );
  }
  // Text that is not a number stays left-aligned so it reads as text, not as a value.
  return <td className={value === null ? 'cell-text' : 'num'}>{raw}</td>;
}

/** A series' unit, kept apart from its name: small, after it. */
export function SeriesUnit({ unit }: { unit: string | null | undefined }) {
  if (!unit) return null;
  return (
    <span className="series-unit" data-testid="series-unit">
      {' '}
      ({unit})
    </span>
  );
}

/** A chart's data table as stored: raw cell text, missing cells marked, units after the series names, values estimated from the axis marked. */
export function DataTableView({ table }: { table: DataTable }) {
  return (
    <div className="table-scroll">
      <table className="data-grid data-table" data-testid="data-table">
        <thead>
          <tr>
            <th scope="col">{table.label_header || <span className="muted">label</span>}</th>
            {table.series.map((series, index) => (
              <th key={index} scope="col" className="num">
                {series}
                <SeriesUnit unit={table.units?.[index]} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              <th scope="row">{row.label}</th>
              {row.raw.map((raw, index) => (
                <Cell key={index} raw={raw} value={row.values[index] ?? null} estimated={row.estimated?.[index] === true} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
