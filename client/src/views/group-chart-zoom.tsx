import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** One chart of a group as the zoom dialog shows it. */
export type ZoomedChart = {
  position: number;
  /** "Chart 2 · Deaths by region": the dialog's heading. */
  title: string;
  /** The chart large (the edited one: its original beside its counterfactual). */
  figure: ReactNode;
  /** Its data table, beside the chart. */
  beside: ReactNode;
};

type GroupChartZoomProps = {
  charts: readonly ZoomedChart[];
  /** The position of the chart shown. */
  shown: number;
  onShow: (position: number) => void;
  onClose: () => void;
  /** `t`: the edited chart's counterfactual and the original drawn in its place (the review screen's key). */
  onFlip?: (() => void) | undefined;
};

/** The keys that move between charts in the dialog: `[` `]` and a chart's number. */
export const GROUP_ZOOM_KEYS = { key: '[ ]', action: 'in an enlarged chart of a multi-chart item: previous / next chart (its number shows that one)' } as const;

/** The position a key moves to, or null when the key is not one of the dialog's. */
export function zoomTarget(key: string, shown: number, count: number): number | null {
  if (key === '[') return shown > 1 ? shown - 1 : count;
  if (key === ']') return shown < count ? shown + 1 : 1;
  const digit = /^[1-9]$/.test(key) ? Number(key) : null;
  return digit !== null && digit <= count ? digit : null;
}

/**
 * The charts of a multi-chart item enlarged, one at a time, in a modal dialog: `[` and `]`
 * move to the previous and next chart, a digit to that chart. As in ChartZoom, the browser's
 * modal <dialog> keeps focus inside and closes on Esc, and no key pressed here reaches the
 * page: the review keys 1–3 toggle criteria outside the dialog, and pick charts inside it.
 */
export function GroupChartZoom({ charts, shown, onShow, onClose, onFlip }: GroupChartZoomProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const current = charts.find((chart) => chart.position === shown) ?? charts[0];
  if (!current) return null;

  const keys = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 't' && onFlip) {
      event.preventDefault();
      onFlip();
      return;
    }
    const target = zoomTarget(event.key, current.position, charts.length);
    if (target === null) return;
    event.preventDefault();
    onShow(target);
  };

  return (
    <dialog ref={dialog} className="chart-zoom" aria-label={current.title} onClose={onClose} onKeyDown={keys} data-testid="group-chart-zoom" data-shown={current.position}>
      <header className="chart-zoom-head">
        <h2 data-testid="group-chart-zoom-title">{current.title}</h2>
        <span className="group-zoom-nav">
          <button type="button" onClick={() => onShow(zoomTarget('[', current.position, charts.length) ?? 1)} aria-label="Previous chart">
            <kbd>[</kbd>
          </button>
          <span className="muted small">
            {current.position} of {charts.length}
          </span>
          <button type="button" onClick={() => onShow(zoomTarget(']', current.position, charts.length) ?? 1)} aria-label="Next chart">
            <kbd>]</kbd>
          </button>
        </span>
        <button type="button" onClick={() => dialog.current?.close()} autoFocus>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      <div className="chart-zoom-body">
        <div className="chart-zoom-figure">{current.figure}</div>
        <section className="chart-zoom-table" aria-label="Data table">
          {current.beside}
        </section>
      </div>
    </dialog>
  );
}
