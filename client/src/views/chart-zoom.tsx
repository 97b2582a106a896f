import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

type ChartZoomProps = {
  /** Names the chart: the button's "Enlarge …" and the dialog's heading. */
  title: string;
  /** The chart, drawn small in place or large in the dialog. */
  chart: (zoomed: boolean) => ReactNode;
  /** Shown beside the enlarged chart: the data it was drawn from. */
  beside: ReactNode;
  testId: string;
};

/**
 * A chart that enlarges on click: a modal dialog with the chart large and its table beside.
 * The browser's modal <dialog> keeps focus inside and closes on Esc; focus goes back to the
 * chart that opened it. Keys pressed in the dialog stay there, so a page's shortcuts (Esc
 * back to the list, the review keys) do not fire behind it.
 */
export function ChartZoom({ title, chart, beside, testId }: ChartZoomProps) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);

  const closed = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  const keepKeys = (event: KeyboardEvent) => event.stopPropagation();

  return (
    <>
      <button ref={trigger} type="button" className="chart-zoom-trigger" aria-label={`Enlarge ${title}`} onClick={() => setOpen(true)} data-testid={`${testId}-enlarge`}>
        {chart(false)}
      </button>
      {open && (
        <dialog ref={dialog} className="chart-zoom" aria-label={title} onClose={closed} onKeyDown={keepKeys} data-testid={`${testId}-zoom`}>
          <header className="chart-zoom-head">
            <h2>{title}</h2>
            <button type="button" onClick={() => dialog.current?.close()} autoFocus>
              Close <kbd>Esc</kbd>
            </button>
          </header>
          <div className="chart-zoom-body">
            <div className="chart-zoom-figure">{chart(true)}</div>
            <section className="chart-zoom-table" aria-label="Data table">
              {beside}
            </section>
          </div>
        </dialog>
      )}
    </>
  );
}
