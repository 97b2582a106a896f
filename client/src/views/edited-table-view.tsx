import { isMissingCell } from '@shared/table/cell';
import type { DataTable } from '@shared/table/model';
import type { EditOutcome } from './edit-outcome';
import { diffForDisplay, type DiffCell } from './table-diff';

type AppliedOutcome = Extract<EditOutcome, { kind: 'applied' }>;

function Tag({ kind }: { kind: 'added' | 'removed' }) {
  return <span className={`tryit-tag tryit-tag-${kind}`}>{kind}</span>;
}

function DiffCellView({ cell }: { cell: DiffCell }) {
  const align = cell.value === null && !isMissingCell(cell.raw) ? 'cell-text' : 'num';
  switch (cell.status) {
    case 'changed':
      return (
        <td className={`${align} cell-changed`} title={`was ${cell.before ?? ''}, now ${cell.raw}`}>
          <del>
            <span className="sr-only">was </span>
            {cell.before}
          </del>{' '}
          <ins>
            <span className="sr-only">now </span>
            {cell.raw}
          </ins>
        </td>
      );
    case 'removed':
      return <td className={`${align} cell-removed`}>{cell.raw && <del>{cell.raw}</del>}</td>;
    case 'added':
    case 'same':
      return <td className={isMissingCell(cell.raw) ? `${align} cell-missing` : align}>{cell.raw}</td>;
  }
}

function counted(count: number, singular: string, plural: string): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** One line saying what the edit did, so a no-op edit is obvious before reading the grid. */
function summary(edit: AppliedOutcome): string {
  const parts = [`${counted(edit.changes.length, 'cell', 'cells')} changed`];
  if (edit.added_rows.length > 0) parts.push(`${counted(edit.added_rows.length, 'row', 'rows')} added`);
  if (edit.removed_rows.length > 0) parts.push(`${counted(edit.removed_rows.length, 'row', 'rows')} removed`);
  if (edit.removed_series.length > 0) parts.push(`${counted(edit.removed_series.length, 'series', 'series')} removed`);
  return parts.join(' · ');
}

/**
 * The edited table over the original's grid: changed cells show the old text struck through
 * beside the new one, added rows and removed rows or series are marked. All text is rendered
 * as text. `chartName` names the chart of a group the edit changed ("Chart 2 · …").
 */
export function EditedTableView({ original, edit, chartName = null }: { original: DataTable; edit: AppliedOutcome; chartName?: string | null }) {
  const diff = diffForDisplay(original, edit);
  return (
    <>
      <p className="small" data-testid="tryit-edit-summary">
        {chartName !== null && `${chartName}: `}
        {summary(edit)}
      </p>
      <div className="table-scroll">
        <table className="data-grid data-table tryit-table" data-testid="tryit-table">
          <thead>
            <tr>
              <th scope="col">{diff.label_header || <span className="muted">label</span>}</th>
              {diff.columns.map((column, index) => (
                <th key={index} scope="col" className={column.removed ? 'num col-removed' : 'num'}>
                  {column.removed ? (
                    <>
                      <del>{column.name}</del> <Tag kind="removed" />
                    </>
                  ) : (
                    column.name
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {diff.rows.map((row, rowIndex) => (
              <tr key={rowIndex} className={row.status === 'kept' ? undefined : `row-${row.status}`} data-status={row.status}>
                <th scope="row">
                  {row.status === 'removed' ? <del>{row.label}</del> : row.label}
                  {row.status !== 'kept' && (
                    <>
                      {' '}
                      <Tag kind={row.status} />
                    </>
                  )}
                </th>
                {row.cells.map((cell, index) => (
                  <DiffCellView key={index} cell={cell} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
