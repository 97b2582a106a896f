import { useRef, useState, type ReactNode } from 'react';
import { ItemGroupSchema, type GroupChartView, type ItemGroup } from '@shared/api/item-group';
import { UNCONFIRMED_TABLE_MARK } from '@shared/table-provenance/table-state';
import { DrawnChartNote } from '../ui/drawn-chart-note';
import { counterfactualOf } from './counterfactual';
import { DataTableView } from './data-table-view';
import type { EditOutcome } from './edit-outcome';
import { EditedTableView } from './edited-table-view';
import { GroupChartZoom, type ZoomedChart } from './group-chart-zoom';
import { CounterfactualFlip, OriginalImage } from './item-charts';
import { UNCONFIRMED_TABLE_TITLE } from './unconfirmed-table';

/** Groups already read, by the payload object that carried them: the same group object on every render. */
const readGroups = new WeakMap<object, ItemGroup | null>();

function groupCarried(payload: object): ItemGroup | null {
  if (!('group' in payload) || payload.group === null || payload.group === undefined) return null;
  const carried: object = payload.group as object;
  let group = readGroups.get(carried);
  if (group === undefined) {
    // Until every payload declares `group` in its schema, this is where its type is known.
    const parsed = ItemGroupSchema.safeParse(carried);
    group = parsed.success ? parsed.data : null;
    readGroups.set(carried, group);
  }
  return group;
}

/**
 * The item's chart group from whichever of its payloads carries it (the review task beside the
 * item, the item detail on the item, an adjudication case beside it); null for an item over one
 * chart. The same payload gives the same group object, so views memoised on it stay put.
 */
export function itemGroupOf(...payloads: readonly object[]): ItemGroup | null {
  for (const payload of payloads) {
    const group = groupCarried(payload);
    if (group) return group;
  }
  return null;
}

/** "Chart 2 · Deaths by region": how the question names a chart, and the chart's own name. */
export function groupChartName(chart: Pick<GroupChartView, 'position' | 'title' | 'imgname'>): string {
  return `Chart ${chart.position} · ${chart.title ?? chart.imgname}`;
}

/** The item's edit applied over its group's tables: which chart it changed, and how. */
export function groupCounterfactualOf(group: ItemGroup, edit: unknown): EditOutcome {
  return counterfactualOf(
    group.charts.map((chart) => chart.data_table),
    edit,
  );
}

/** The chart the assumption edits: the one the edit changed, else the one the server names. */
export function editedPosition(group: ItemGroup, outcome: EditOutcome): number | null {
  return outcome.kind === 'applied' ? outcome.chart : group.edited_chart;
}

function UnconfirmedMark() {
  return (
    <span className="validity-tag validity-warning" title={UNCONFIRMED_TABLE_TITLE} data-testid="group-chart-unconfirmed">
      {UNCONFIRMED_TABLE_MARK}
    </span>
  );
}

function ChartTable({ chart, outcome, edited }: { chart: GroupChartView; outcome: EditOutcome; edited: boolean }) {
  return edited && outcome.kind === 'applied' ? (
    <EditedTableView original={chart.data_table} edit={outcome} chartName={groupChartName(chart)} />
  ) : (
    <DataTableView table={chart.data_table} />
  );
}

type StripChartProps = {
  itemId: number;
  chart: GroupChartView;
  outcome: EditOutcome;
  edited: boolean;
  /** The edited chart's counterfactual shows the original table drawn in its place. */
  showOriginal: boolean;
  onZoom: () => void;
  triggerRef: (button: HTMLButtonElement | null) => void;
};

function StripChart({ itemId, chart, outcome, edited, showOriginal, onZoom, triggerRef }: StripChartProps) {
  const name = groupChartName(chart);
  const enlarge = (testId: string, content: ReactNode, ref?: (button: HTMLButtonElement | null) => void) => (
    <button ref={ref} type="button" className="chart-zoom-trigger" aria-label={`Enlarge ${name}`} onClick={onZoom} data-testid={testId}>
      {content}
    </button>
  );
  return (
    <section
      className={edited ? 'review-card group-chart group-chart-edited' : 'review-card group-chart'}
      aria-label={name}
      data-testid={`group-chart-${chart.position}`}
      data-edited={edited}
    >
      <header className="group-chart-head">
        <h3 data-testid="group-chart-name">{name}</h3>
        {edited && (
          <span className="group-chart-edited-mark" data-testid="group-chart-edited-mark">
            edited by the assumption
          </span>
        )}
        {!chart.table_confirmed && <UnconfirmedMark />}
      </header>
      {edited ? (
        <div className="review-charts">
          <figure className="review-chart">
            <figcaption>Original chart</figcaption>
            {enlarge('group-chart-enlarge', <OriginalImage chart={chart} zoomed={false} />, triggerRef)}
            {!chart.has_image && <DrawnChartNote />}
          </figure>
          <figure className="review-chart">
            <figcaption>Counterfactual chart (edit applied)</figcaption>
            {outcome.kind === 'applied' ? (
              enlarge('group-counterfactual-enlarge', <CounterfactualFlip itemId={itemId} chart={chart} outcome={outcome} showOriginal={showOriginal} zoomed={false} />)
            ) : (
              <CounterfactualFlip itemId={itemId} chart={chart} outcome={outcome} showOriginal={false} zoomed={false} />
            )}
          </figure>
        </div>
      ) : (
        <figure className="review-chart">
          <figcaption>As it is (the assumption leaves it unchanged)</figcaption>
          {enlarge('group-chart-enlarge', <OriginalImage chart={chart} zoomed={false} />, triggerRef)}
          {!chart.has_image && <DrawnChartNote />}
        </figure>
      )}
      <details className="small group-chart-table">
        <summary>Data table{edited && outcome.kind === 'applied' ? ' (edited cells marked)' : ''}</summary>
        <ChartTable chart={chart} outcome={outcome} edited={edited} />
      </details>
    </section>
  );
}

function zoomedChart(itemId: number, chart: GroupChartView, outcome: EditOutcome, edited: boolean, showOriginal: boolean): ZoomedChart {
  const name = groupChartName(chart);
  return {
    position: chart.position,
    title: edited ? `${name} — edited by the assumption` : name,
    figure: edited ? (
      <div className="review-charts">
        <figure className="review-chart">
          <figcaption>Original chart</figcaption>
          <OriginalImage chart={chart} zoomed />
          {!chart.has_image && <DrawnChartNote />}
        </figure>
        <figure className="review-chart">
          <figcaption>{showOriginal && outcome.kind === 'applied' ? 'Original, drawn from its table' : 'Counterfactual chart (edit applied)'}</figcaption>
          <CounterfactualFlip itemId={itemId} chart={chart} outcome={outcome} showOriginal={showOriginal} zoomed />
        </figure>
      </div>
    ) : (
      <>
        <OriginalImage chart={chart} zoomed />
        {!chart.has_image && <DrawnChartNote />}
      </>
    ),
    beside: (
      <>
        {!chart.table_confirmed && <UnconfirmedMark />}
        <ChartTable chart={chart} outcome={outcome} edited={edited} />
      </>
    ),
  };
}

/**
 * Every chart of a multi-chart item, in group order, named as the question names them
 * ("Chart 1 · …"): the chart the assumption edits beside its counterfactual re-render, the
 * others as they are, each with its table on demand and an unconfirmed table marked. A click
 * enlarges a chart; in the enlarged view `[` `]` and the charts' numbers move between them.
 * `outcome` is the item's edit over the group (groupCounterfactualOf). The review screen also
 * holds which chart is enlarged (`zoomed`, a key opens it) and whether the edited chart's
 * counterfactual shows the original in its place (`showOriginal`, flipped with `onFlip`).
 */
export function ItemGroupCharts({
  itemId,
  group,
  outcome,
  showOriginal = false,
  onFlip,
  zoomed: zoomedFromPage,
  onZoomChange,
}: {
  itemId: number;
  group: ItemGroup;
  outcome: EditOutcome;
  showOriginal?: boolean;
  onFlip?: () => void;
  zoomed?: number | null;
  onZoomChange?: (position: number | null) => void;
}) {
  const [zoomedHere, setZoomedHere] = useState<number | null>(null);
  const zoomed = zoomedFromPage === undefined ? zoomedHere : zoomedFromPage;
  const setZoomed = onZoomChange ?? setZoomedHere;
  const triggers = useRef(new Map<number, HTMLButtonElement>());
  const edited = editedPosition(group, outcome);
  const charts = [...group.charts].sort((a, b) => a.position - b.position);

  const closed = () => {
    // Focus goes back to the chart last shown, so moving in the dialog moves on the page too.
    if (zoomed !== null) triggers.current.get(zoomed)?.focus();
    setZoomed(null);
  };

  return (
    <div className="group-strip" data-testid="item-group-charts" data-group-id={group.id}>
      <p className="small muted group-strip-head">
        Chart group <strong>{group.name}</strong>: {charts.length} charts
        {edited === null ? ' (the edit names no chart it applies to)' : `; the assumption edits chart ${edited}`}.
      </p>
      <div className="group-strip-charts">
        {charts.map((chart) => (
          <StripChart
            key={chart.position}
            itemId={itemId}
            chart={chart}
            outcome={outcome}
            edited={chart.position === edited}
            showOriginal={showOriginal}
            onZoom={() => setZoomed(chart.position)}
            triggerRef={(button) => {
              if (button) triggers.current.set(chart.position, button);
              else triggers.current.delete(chart.position);
            }}
          />
        ))}
      </div>
      {zoomed !== null && (
        <GroupChartZoom
          charts={charts.map((chart) => zoomedChart(itemId, chart, outcome, chart.position === edited, showOriginal))}
          shown={zoomed}
          onShow={setZoomed}
          onClose={closed}
          onFlip={onFlip}
        />
      )}
    </div>
  );
}

/** "Chart 2 · title": the chart of the group an applied edit changed, for the edit and verifier views. */
export function editedChartName(group: ItemGroup | null, outcome: EditOutcome): string | null {
  if (!group) return null;
  const position = editedPosition(group, outcome);
  const chart = group.charts.find((candidate) => candidate.position === position);
  return chart ? groupChartName(chart) : null;
}
