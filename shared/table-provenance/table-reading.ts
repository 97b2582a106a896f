import type { DataRow, DataTable } from '../table/model';

/**
 * What an extraction read beside the numbers (units, which values were estimated, printed
 * totals, how the chart draws the table), carried from a stored table onto a curator's edit of
 * it. The editor sends cells only; a save would otherwise drop them, and an unchanged save
 * would look like a change. Carried by name, so a reordered table keeps them; a cell whose text
 * the curator changed is no longer an estimate (a person typed it), a renamed series loses its unit.
 */
export function carryReading(previous: DataTable | null, edited: DataTable): DataTable {
  if (previous === null) return edited;
  const seriesAt = new Map(previous.series.map((name, i) => [name, i]));
  const rowsByLabel = new Map(previous.rows.map((row) => [row.label, row]));
  const units = edited.series.map((name) => {
    const at = seriesAt.get(name);
    return at === undefined ? null : (previous.units?.[at] ?? null);
  });
  const rows = edited.rows.map((row): DataRow => {
    const before = rowsByLabel.get(row.label);
    if (!before) return row;
    const estimated = edited.series.map((name, i) => {
      const at = seriesAt.get(name);
      return at !== undefined && before.estimated?.[at] === true && before.raw[at] === row.raw[i];
    });
    return { ...row, ...(estimated.some(Boolean) ? { estimated } : {}), ...(before.total !== undefined ? { total: before.total } : {}) };
  });
  return { ...edited, rows, ...(units.some((unit) => unit !== null) ? { units } : {}), ...(previous.drawn ? { drawn: previous.drawn } : {}) };
}
