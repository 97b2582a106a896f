import type { DataTable } from '@shared/table/model';
import { isMissingCell } from '@shared/table/cell';

function Cell({ raw, value }: { raw: string; value: number | null }) {
  if (isMissingCell(raw)) {
    return (
      <td className="num cell-missing" title="Missing value">
        <span className="sr-only">missing value: </span>
        {raw.trim() === '' ? '(empty)' : raw}
      </td>
    );
  }
  // Text that is not a number stays left-aligned so it reads as text, not as a value.
  return <td className={value === null ? 'cell-text' : 'num'}>{raw}</td>;
}

/** A chart's data table exactly as imported: raw cell text, missing cells marked. */
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
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              <th scope="row">{row.label}</th>
              {row.raw.map((raw, index) => (
                <Cell key={index} raw={raw} value={row.values[index] ?? null} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
