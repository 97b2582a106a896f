import { useState } from 'react';
import { chartsApi } from '@shared/api/charts';
import { endpointUrl } from '@shared/api/endpoint';
import type { ReviewTask } from '@shared/api/review';
import { DrawnChartNote } from '../ui/drawn-chart-note';
import { ChartZoom } from './chart-zoom';
import { ComparedChart } from './compared-chart';
import { DataTableView } from './data-table-view';
import type { EditOutcome } from './edit-outcome';
import { EditedTableView } from './edited-table-view';

/** What drawing an item's charts takes of its chart (a review task's chart, or a chart's detail). */
export type ItemChart = ReviewTask['chart'];

/** Where a chart's original image is fetched from (the review screen preloads the next item's). */
export function originalImageUrl(chart: Pick<ItemChart, 'id' | 'chart_type'>): string {
  // Keyed by type as well: a chart drawn from its table is drawn anew when its type changes.
  return endpointUrl(chartsApi.image, { params: { id: chart.id }, query: { v: chart.chart_type } });
}

/** A chart's stored image (or the one the server draws from its table). */
export function OriginalImage({ chart, zoomed }: { chart: ItemChart; zoomed: boolean }) {
  const src = originalImageUrl(chart);
  const [failed, setFailed] = useState(false);
  return failed ? (
    <p className="error" role="alert">
      The image could not be loaded.
    </p>
  ) : (
    <img
      src={src}
      alt={`Original chart: ${chart.title ?? chart.imgname}`}
      onError={() => setFailed(true)}
      data-testid={zoomed ? 'zoomed-original-image' : 'review-original-image'}
    />
  );
}

/** The chart redrawn from its edited table, or why there is none. */
export function Counterfactual({ itemId, chart, outcome, zoomed }: { itemId: number; chart: ItemChart; outcome: EditOutcome; zoomed: boolean }) {
  if (outcome.kind === 'none') return <p className="muted small chart-note">No edit: the assumption is not written as table operations, so there is no counterfactual chart.</p>;
  if (outcome.kind === 'invalid') {
    return (
      <p className="error small" data-testid="counterfactual-error">
        The edit does not apply to this table: {outcome.message}
      </p>
    );
  }
  return (
    <ComparedChart
      itemId={itemId}
      chart={chart}
      edit={outcome}
      drawn="counterfactual"
      label={`Counterfactual chart: ${chart.title ?? chart.imgname} with the item's edit applied`}
      testId={zoomed ? 'zoomed-counterfactual-chart' : 'counterfactual-chart'}
    />
  );
}

/**
 * The original table drawn as the counterfactual is (same renderer, style, type, value axis and
 * outlined cells), for comparing the two in place: what differs between them is the edit, not
 * the drawing.
 */
export function DrawnOriginal({ itemId, chart, outcome, zoomed }: { itemId: number; chart: ItemChart; outcome: Extract<EditOutcome, { kind: 'applied' }>; zoomed: boolean }) {
  return (
    <ComparedChart
      itemId={itemId}
      chart={chart}
      edit={outcome}
      drawn="original"
      label={`Original chart drawn from its table: ${chart.title ?? chart.imgname}`}
      testId={zoomed ? 'zoomed-drawn-original-chart' : 'drawn-original-chart'}
    />
  );
}

/**
 * The counterfactual chart, or in its place the original table drawn the same way
 * (`showOriginal`): flipping between the two shows what the edit changed. Both stay drawn
 * once shown, one over the other, so a flip is instant and nothing on the page moves.
 */
export function CounterfactualFlip({ itemId, chart, outcome, showOriginal, zoomed }: { itemId: number; chart: ItemChart; outcome: EditOutcome; showOriginal: boolean; zoomed: boolean }) {
  // The original is drawn the first time it is asked for, then kept.
  const [originalDrawn, setOriginalDrawn] = useState(showOriginal);
  if (showOriginal && !originalDrawn) setOriginalDrawn(true);
  if (outcome.kind !== 'applied') return <Counterfactual itemId={itemId} chart={chart} outcome={outcome} zoomed={zoomed} />;
  return (
    <div className="flip-stack" data-testid={zoomed ? 'zoomed-chart-flip' : 'chart-flip'} data-shown={showOriginal ? 'original' : 'counterfactual'}>
      <div className="flip-layer" aria-hidden={showOriginal}>
        <Counterfactual itemId={itemId} chart={chart} outcome={outcome} zoomed={zoomed} />
      </div>
      {originalDrawn && (
        <div className="flip-layer" aria-hidden={!showOriginal}>
          <DrawnOriginal itemId={itemId} chart={chart} outcome={outcome} zoomed={zoomed} />
        </div>
      )}
    </div>
  );
}

/** The chart's table, the edited cells marked when the item's edit applies. */
export function ItemDataTable({ chart, outcome, chartName = null }: { chart: ItemChart; outcome: EditOutcome; chartName?: string | null }) {
  return outcome.kind === 'applied' ? <EditedTableView original={chart.data_table} edit={outcome} chartName={chartName} /> : <DataTableView table={chart.data_table} />;
}

/**
 * The original chart and the counterfactual one (the item's edit applied) side by side, each
 * enlarging on click with the table beside it. Review, the Item page and Adjudication show it.
 */
export function ItemCharts({ itemId, chart, outcome }: { itemId: number; chart: ItemChart; outcome: EditOutcome }) {
  const table = <ItemDataTable chart={chart} outcome={outcome} />;
  const name = chart.title ?? chart.imgname;
  const counterfactualDrawn = outcome.kind === 'applied';
  return (
    <div className="review-charts" data-testid="item-charts">
      <figure className="review-chart">
        <figcaption>Original chart</figcaption>
        <ChartZoom title={`Original chart: ${name}`} chart={(zoomed) => <OriginalImage chart={chart} zoomed={zoomed} />} beside={table} testId="original-chart" />
        {!chart.has_image && <DrawnChartNote />}
      </figure>
      <figure className="review-chart">
        <figcaption>Counterfactual chart (edit applied)</figcaption>
        {counterfactualDrawn ? (
          <ChartZoom
            title={`Counterfactual chart: ${name}`}
            chart={(zoomed) => <Counterfactual itemId={itemId} chart={chart} outcome={outcome} zoomed={zoomed} />}
            beside={table}
            testId="counterfactual"
          />
        ) : (
          <Counterfactual itemId={itemId} chart={chart} outcome={outcome} zoomed={false} />
        )}
      </figure>
    </div>
  );
}
