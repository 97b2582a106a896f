import { useState, type KeyboardEvent } from 'react';
import type { EditedTable } from '@shared/api/tables';
import type { DataTable } from '@shared/table/model';
import { ESTIMATED_CELL_TITLE } from '../../../views/data-table-view';

/** `reading`: the stored table, whose units and estimated cells the grid shows by name (a save keeps them so). */
type GridProps = { draft: EditedTable; onChange: (draft: EditedTable) => void; reading?: DataTable | null };

const without = <T,>(list: T[], index: number) => list.filter((_, i) => i !== index);
const replaced = <T,>(list: T[], index: number, value: T) => list.map((item, i) => (i === index ? value : item));

/** A series' unit being typed: committed to the draft by Enter or by leaving the field, dropped by Escape. */
type UnitEdit = { index: number; text: string };

/**
 * The table as an editable grid: the row-label header and series names across the top, each
 * series' unit under its name, a row per category; rows and series are added and removed here,
 * each cell is its raw text (the number is parsed as an import parses it, `nan` or `-` for a
 * missing value).
 */
export function TableGrid({ draft, onChange, reading = null }: GridProps) {
  // Until the curator sets one, a series shows the unit the stored table gives its name: what a save carries.
  const units = draft.units ?? draft.series.map((name) => reading?.units?.[reading.series.indexOf(name)] ?? null);
  const [unitEdit, setUnitEdit] = useState<UnitEdit | null>(null);
  // Estimated while the cell keeps the text the extraction gave it.
  const estimated = (label: string, series: string, cell: string) => {
    const row = reading?.rows.find((candidate) => candidate.label === label);
    const at = reading ? reading.series.indexOf(series) : -1;
    return row !== undefined && at >= 0 && row.estimated?.[at] === true && row.raw[at] === cell;
  };
  const set = (patch: Partial<EditedTable>) => onChange({ ...draft, ...patch });
  // A draft that names its units keeps one per series, as the save contract wants.
  const addSeries = () =>
    set({ series: [...draft.series, ''], ...(draft.units ? { units: [...draft.units, null] } : {}), rows: draft.rows.map((row) => ({ ...row, cells: [...row.cells, ''] })) });
  const removeSeries = (index: number) =>
    set({ series: without(draft.series, index), ...(draft.units ? { units: without(draft.units, index) } : {}), rows: draft.rows.map((row) => ({ ...row, cells: without(row.cells, index) })) });
  const commitUnit = () => {
    if (unitEdit === null) return;
    setUnitEdit(null);
    const text = unitEdit.text.trim();
    if (text === (units[unitEdit.index] ?? '')) return;
    set({ units: replaced(units, unitEdit.index, text === '' ? null : text) });
  };
  // Enter commits the unit without submitting the editor's form (that saves the table); Escape drops what was typed.
  const unitKeys = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commitUnit();
    } else if (event.key === 'Escape' && unitEdit !== null) {
      event.preventDefault();
      event.stopPropagation();
      setUnitEdit(null);
    }
  };
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
                <input
                  aria-label={`Series ${index + 1} unit`}
                  className="series-unit-input"
                  placeholder="unit"
                  value={unitEdit?.index === index ? unitEdit.text : (units[index] ?? '')}
                  onChange={(e) => setUnitEdit({ index, text: e.target.value })}
                  onKeyDown={unitKeys}
                  onBlur={commitUnit}
                />
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
