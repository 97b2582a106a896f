import type { UnitSpec } from 'vega-lite/types_unstable/spec/unit.js';
import type { ChartDatum } from './chart-data';

/**
 * Marks drawn outlined because an edit changed them, so that a reviewer flipping between the
 * counterfactual and the original drawn from its table sees which marks moved. The outline
 * sits on top of every other mark (a layer of its own over the same data), dark over a white
 * halo so that it shows on dark fills as on light ones.
 */

/** What to outline: the cells an edit changed and the rows it added (an EditOutcome's `changes` and `added_rows`). */
export interface ChartHighlight {
  /** Cells by row label and series name. */
  cells: readonly { row: string; series: string }[];
  /** Row labels: every mark of the row. */
  rows: readonly string[];
  /** Series names: every mark of the series (an added row of a table drawn transposed). */
  series?: readonly string[];
}

/** Said under a drawing with outlined marks. */
export const HIGHLIGHT_NOTE = 'Outlined: changed by the edit.';

export const HIGHLIGHT_INK = '#111111';
const HIGHLIGHT_STROKE_PX = 2.5;
/** The white under the outline: wider, so a band of it shows either side of the dark line. */
const HALO_STROKE_PX = 5.5;
/** A changed point's ring: well outside the point itself, so it shows beside the line through it. */
const RING_SIZE = 300;
/** How far an outline reaches past its mark's edge. */
export const OUTLINE_REACH_PX = Math.ceil(HALO_STROKE_PX / 2);
/** How far a ring reaches from its point's centre. */
export const RING_REACH_PX = Math.ceil(Math.sqrt(RING_SIZE / Math.PI) + HIGHLIGHT_STROKE_PX / 2);
/** The test Vega evaluates on each datum: chartContext marks outlined ones. */
const EDITED = 'datum.edited';

type Layer = UnitSpec<string>;

/** The highlight of the same edit on the table drawn transposed (years across the columns, a line per row). */
export function transposeHighlight(highlight: ChartHighlight): ChartHighlight {
  return {
    cells: highlight.cells.map((cell) => ({ row: cell.series, series: cell.row })),
    rows: highlight.series ?? [],
    series: highlight.rows,
  };
}

/** The chart's data with `edited` set on the marks `highlight` names; as it was without a highlight. */
export function markEdited(data: ChartDatum[], highlight: ChartHighlight | null): ChartDatum[] {
  if (highlight === null) return data;
  const cells = new Set(highlight.cells.map((cell) => cellKey(cell.row, cell.series)));
  const rows = new Set(highlight.rows);
  const series = new Set(highlight.series ?? []);
  return data.map((d) => (cells.has(cellKey(d.label, d.series)) || rows.has(d.label) || series.has(d.series) ? { ...d, edited: true } : d));
}

function cellKey(row: string, series: string): string {
  return JSON.stringify([row, series]);
}

/**
 * Outlines over bars or pie slices: every mark drawn again from the same data and shared
 * encoding (stack order included), so each lands on its mark, where a layer filtered to the
 * edited ones would stack them anew; no fill, and a stroke only where the datum is edited.
 * `mark` holds the family's own geometry (a pie's radius).
 */
export function outlineLayers(mark: { type: 'bar' | 'arc'; outerRadius?: { expr: string } }): Layer[] {
  const outline = (name: string, stroke: string, width: number): Layer => ({
    name,
    // Not read out: the marks it outlines are, once each.
    mark: { ...mark, fillOpacity: 0, stroke, strokeJoin: 'miter', aria: false },
    encoding: { strokeWidth: { condition: { test: EDITED, value: width }, value: 0 } },
  });
  return [outline('edited_halo', '#ffffff', HALO_STROKE_PX), outline('edited_outline', HIGHLIGHT_INK, HIGHLIGHT_STROKE_PX)];
}

/** Rings round edited points (lines, areas, scatters), drawn over them. */
export function ringLayer(): Layer {
  return {
    name: 'edited_outline',
    transform: [{ filter: EDITED }],
    mark: { type: 'point', filled: false, size: RING_SIZE, stroke: HIGHLIGHT_INK, strokeWidth: HIGHLIGHT_STROKE_PX, opacity: 1, aria: false },
  };
}
