import type { EditedTable } from '@shared/api/tables';
import type { DataTable } from '@shared/table/model';
import { ESTIMATED_CELL_TITLE, SeriesUnit } from '../../../views/data-table-view';

/** `reading`: the stored table, whose units and estimated cells the grid shows by name (a save keeps them so). */
type GridProps = { draft: EditedTable; onChange: (draft: EditedTable) => void; reading?: DataTable | null };

const without = <T,>(list: T[], index: number) => list.filter((_, i) => i !== index);
const replaced = <T,>(list: T[], index: number, value: T) => list.map((item, i) => (i === index ? value : item));

/**
 * The table as an editable grid: the row-label header and series names across the top, a row
 * per category; rows and series are added and removed here, each cell is its raw text (the
 * number is parsed as an import parses it, `nan` or `-` for a missing value).
 */
export function TableGrid({ draft, onChange, reading = null }: GridProps) {
  const unitOf = (name: string) => reading?.units?.[reading.series.indexOf(name)] ?? null;
  // Estimated while the cell keeps the text the extraction gave it.
  const estimated = (label: string, series: string, cell: string) => {
    const row = reading?.rows.find((candidate) => candidate.label === label);
    const at = reading ? reading.series.indexOf(series) : -1;
    return row !== undefined && at >= 0 && row.estimated?.[at] === true && row.raw[at] === cell;
  };
  const set = (patch: Partial<EditedTable>) => onChange({ ...draft, ...patch });
  const addSeries = () => set({ series: [...draft.series, ''], rows: draft.rows.map((row) => ({ ...row, cells: [...row.cells, ''] })) });
  const removeSeries = (index: number) => set({ series: without(draft.series, index), rows: draft.rows.map((row) => ({ ...row, cells: without(row.cells, index) })) });
  const addRow = () => set({ rows: [...draft.rows, { label: '', cells: draft.series.map(() => '') }] });
  const rowLabel = (index: number) => draft.rows[index]?.label || `row ${index + 1}`;

  return (
    <div className="table-grid" data-testid="table-grid">
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">
              <input aria-label="Row label header" value={draft.label_header} onChange={(e) => set({ label_header: e.target.value })} />
            </th>
            {draft.series.map((name, index) => (
              <th scope="col" key={index}>
                <input aria-label={`Series ${index + 1} name`} value={name} onChange={(e) => set({ series: replaced(draft.series, index, e.target.value) })} />
                <SeriesUnit unit={unitOf(name)} />
                <button type="button" className="link" disabled={draft.series.length === 1} onClick={() => removeSeries(index)} aria-label={`Remove series ${index + 1}`}>
                  ×
                </button>
              </th>
            ))}
            <th scope="col">
              <button type="button" onClick={addSeries}>
                Add series
              </button>
            </th>
          </tr>
        </thead>
        <tbody>
          {draft.rows.map((row, r) => (
            <tr key={r}>
              <th scope="row">
                <input aria-label={`Row ${r + 1} label`} value={row.label} onChange={(e) => set({ rows: replaced(draft.rows, r, { ...row, label: e.target.value }) })} />
              </th>
              {row.cells.map((cell, c) => (
                <td key={c} {...(estimated(row.label, draft.series[c] ?? '', cell) ? { className: 'cell-estimated', title: ESTIMATED_CELL_TITLE, 'data-estimated': 'true' } : {})}>
                  <input
                    aria-label={`${rowLabel(r)}, ${draft.series[c] || `series ${c + 1}`}`}
                    value={cell}
                    onChange={(e) => set({ rows: replaced(draft.rows, r, { ...row, cells: replaced(row.cells, c, e.target.value) }) })}
                  />
                </td>
              ))}
              <td>
                <button type="button" className="link" disabled={draft.rows.length === 1} onClick={() => set({ rows: without(draft.rows, r) })} aria-label={`Remove row ${r + 1}`}>
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={addRow}>
        Add row
      </button>
    </div>
  );
}
