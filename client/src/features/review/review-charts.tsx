import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { ItemGroup } from '@shared/api/item-group';
import type { ReviewTask } from '@shared/api/review';
import { DrawnChartNote } from '../../ui/drawn-chart-note';
import type { EditOutcome } from '../../views/edit-outcome';
import { CounterfactualFlip, ItemDataTable, OriginalImage } from '../../views/item-charts';
import { editedPosition, ItemGroupCharts } from '../../views/item-group-charts';
import { Key } from './review-form';

/**
 * How the review screen shows an item's charts: whether the counterfactual's place shows the
 * original table drawn the same way (`t`), and whether the charts are enlarged (`z`; for an item
 * over a chart group, the position of the chart enlarged).
 */
export type ChartsView = { showOriginal: boolean; zoomed: number | null };

type ReviewChartsProps = {
  task: ReviewTask;
  group: ItemGroup | null;
  outcome: EditOutcome;
  view: ChartsView;
  onFlip: () => void;
  onZoom: (zoomed: number | null) => void;
};

/** Where `z` opens the enlarged charts: the chart the assumption edits (a group's), else the one chart. */
export function zoomTargetOf(group: ItemGroup | null, outcome: EditOutcome): number {
  return group ? (editedPosition(group, outcome) ?? 1) : 1;
}

/**
 * The item's charts on the review screen: the original image, and beside it the counterfactual
 * or, flipped with `t`, the original table drawn in its place (same renderer, so what changes is
 * the edit). A click or `z` enlarges both, with the data table; `t` flips there too.
 */
export function ReviewCharts({ task, group, outcome, view, onFlip, onZoom }: ReviewChartsProps) {
  if (group) {
    return (
      <ItemGroupCharts
        itemId={task.item.id}
        group={group}
        outcome={outcome}
        showOriginal={view.showOriginal}
        onFlip={onFlip}
        zoomed={view.zoomed}
        onZoomChange={onZoom}
      />
    );
  }
  const { chart } = task;
  const itemId = task.item.id;
  const name = chart.title ?? chart.imgname;
  const applied = outcome.kind === 'applied';
  const showOriginal = view.showOriginal && applied;
  return (
    <>
      <div className="review-charts" data-testid="item-charts" data-counterfactual={applied ? 'drawn' : 'none'}>
        <figure className="review-chart review-chart-image">
          <figcaption>Original chart</figcaption>
          <button type="button" className="chart-zoom-trigger" aria-label={`Enlarge Original chart: ${name}`} onClick={() => onZoom(1)} data-testid="original-chart-enlarge">
            <OriginalImage chart={chart} zoomed={false} />
          </button>
          {!chart.has_image && <DrawnChartNote />}
        </figure>
        <figure className="review-chart review-chart-flip">
          <FlipCaption applied={applied} showOriginal={showOriginal} onFlip={onFlip} />
          {applied ? (
            <button
              type="button"
              className="chart-zoom-trigger"
              aria-label={showOriginal ? `Enlarge the original table drawn: ${name}` : `Enlarge Counterfactual chart: ${name}`}
              onClick={() => onZoom(1)}
              data-testid="counterfactual-enlarge"
            >
              <CounterfactualFlip itemId={itemId} chart={chart} outcome={outcome} showOriginal={showOriginal} zoomed={false} />
            </button>
          ) : (
            <CounterfactualFlip itemId={itemId} chart={chart} outcome={outcome} showOriginal={false} zoomed={false} />
          )}
        </figure>
      </div>
      {view.zoomed !== null && (
        <ChartsZoom title={`Charts of item #${itemId}: ${name}`} onFlip={onFlip} onClose={() => onZoom(null)}>
          <div className="review-charts review-charts-zoomed">
            <figure className="review-chart">
              <figcaption>Original chart</figcaption>
              <OriginalImage chart={chart} zoomed />
              {!chart.has_image && <DrawnChartNote />}
            </figure>
            <figure className="review-chart">
              <FlipCaption applied={applied} showOriginal={showOriginal} onFlip={onFlip} />
              <CounterfactualFlip itemId={itemId} chart={chart} outcome={outcome} showOriginal={showOriginal} zoomed />
            </figure>
          </div>
          <ItemDataTable chart={chart} outcome={outcome} />
        </ChartsZoom>
      )}
    </>
  );
}

function FlipCaption({ applied, showOriginal, onFlip }: { applied: boolean; showOriginal: boolean; onFlip: () => void }) {
  return (
    <figcaption className="flip-caption">
      <span data-testid="flip-caption">{showOriginal ? 'Original, drawn from its table' : 'Counterfactual chart (edit applied)'}</span>
      {applied && (
        <button type="button" className="link-button flip-button" aria-pressed={showOriginal} onClick={onFlip}>
          {showOriginal ? 'show counterfactual' : 'show original'} <Key name="flip" />
        </button>
      )}
    </figcaption>
  );
}

/**
 * The charts enlarged in a modal dialog, the data table under them. As in ChartZoom, the
 * browser's modal <dialog> keeps focus inside and closes on Esc, and keys pressed here do not
 * reach the page behind; `t` flips the counterfactual, `z` closes like Esc. Focus goes back to
 * where it was when the dialog opened.
 */
function ChartsZoom({ title, onFlip, onClose, children }: { title: string; onFlip: () => void; onClose: () => void; children: React.ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const closed = () => {
    onClose();
    if (opener.current instanceof HTMLElement) opener.current.focus();
  };
  const keys = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 't') {
      event.preventDefault();
      onFlip();
    } else if (event.key === 'z') {
      event.preventDefault();
      dialog.current?.close();
    }
  };
  return (
    <dialog ref={dialog} className="chart-zoom review-charts-zoom" aria-label={title} onClose={closed} onKeyDown={keys} data-testid="charts-zoom">
      <header className="chart-zoom-head">
        <h2>{title}</h2>
        <button type="button" onClick={() => dialog.current?.close()} autoFocus>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      <div className="review-charts-zoom-body">{children}</div>
    </dialog>
  );
}
