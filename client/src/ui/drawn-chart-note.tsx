import { DRAWN_CHART_NOTE } from '@shared/chart-spec/drawing-style';

/** Under every chart drawn from its table (never under an original image), so no one takes its colours or style for the original's. */
export function DrawnChartNote() {
  return (
    <p className="muted small drawn-chart-note" data-testid="drawn-chart-note">
      {DRAWN_CHART_NOTE}
    </p>
  );
}
