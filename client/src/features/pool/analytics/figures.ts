import type { TopLevelSpec } from 'vega-lite';
import type { PoolAnalyticsResponse } from '@shared/api/analytics';
import { CHART_TYPE_LABELS, type ChartType } from '@shared/domain/chart-types';
import { PROPOSAL_ORIGINS } from '@shared/domain/generation';
import { percentHalfUp } from '@shared/eval/decimal-round';
import { FIGURE_FONT, ORIGIN_COLORS, type FigureSpec } from '../../../ui/vega/figure-spec';

/**
 * The Pool analytics figures as specs, built from the API's figures alone (pure, so the
 * same data always draws the same figure).
 */

const ACCENT = '#2d5fa8';
const BAR_STEP_PX = 24;
const LINE_HEIGHT_PX = 220;
const ROUND_HEIGHT_PX = 200;
/** The sunburst's side; each of its three rings (centre, nouns, verbs) is a third of the radius. */
export const SUNBURST_SIZE_PX = 440;
/** Arcs narrower than this along their middle (in px) carry no label: it would not fit. */
const MIN_LABEL_ARC_PX = 12;

const LITE_CONFIG = { font: FIGURE_FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 11 } };

function lite(spec: TopLevelSpec): FigureSpec {
  return { kind: 'vega-lite', spec: { ...spec, config: LITE_CONFIG } };
}

/** "5 / 8" under a bar, or "none decided". */
function caption(rate: { decided: number; accepted: number; pass_rate: number | null }): string {
  const exact = percentHalfUp(rate.accepted, rate.decided, 0);
  return rate.pass_rate === null || exact === null ? 'none decided' : `${exact} % (${rate.accepted} / ${rate.decided})`;
}

/** Cumulative proposals per origin by day: a line per origin, coloured as the origin tags. */
export function growthFigure(growth: PoolAnalyticsResponse['growth']): FigureSpec {
  return lite({
    width: 'container',
    height: LINE_HEIGHT_PX,
    data: { values: growth },
    mark: { type: 'line', point: true, strokeWidth: 2 },
    encoding: {
      x: { field: 'day', type: 'temporal', timeUnit: 'utcyearmonthdate', title: 'Day (UTC)', axis: { format: '%b %d', labelAngle: 0 } },
      y: { field: 'cumulative', type: 'quantitative', title: 'Proposals in the pool' },
      color: {
        field: 'origin',
        type: 'nominal',
        title: 'Origin',
        scale: { domain: [...PROPOSAL_ORIGINS], range: PROPOSAL_ORIGINS.map((origin) => ORIGIN_COLORS[origin]) },
      },
      tooltip: [
        { field: 'day', type: 'nominal', title: 'Day' },
        { field: 'origin', type: 'nominal', title: 'Origin' },
        { field: 'cumulative', type: 'quantitative', title: 'Proposals' },
      ],
    },
  });
}

/** Pass rate per chart type: horizontal bars on 0–100 %, each with its accepted / decided. */
export function passRateByTypeFigure(rows: PoolAnalyticsResponse['pass_rate']['by_chart_type']): FigureSpec {
  const values = rows.map((row) => ({ label: CHART_TYPE_LABELS[row.chart_type], rate: row.pass_rate ?? 0, caption: caption(row) }));
  const y = { field: 'label', type: 'nominal', title: null, sort: null } as const;
  return lite({
    width: 'container',
    // A number, not a step: Vega-Lite fits a container width only to a continuous height.
    height: values.length * BAR_STEP_PX,
    data: { values },
    encoding: { y, x: { field: 'rate', type: 'quantitative', title: 'Pass rate (%)', scale: { domain: [0, 100] } } },
    layer: [
      { mark: { type: 'bar', color: ACCENT, tooltip: { content: 'data' } } },
      { mark: { type: 'text', align: 'left', dx: 4, fontSize: 11, color: '#3c4756' }, encoding: { text: { field: 'caption' } } },
    ],
  });
}

/** Pass rate per pool round: does feedback improve the pool? One bar per round. */
export function passRateByRoundFigure(rows: PoolAnalyticsResponse['pass_rate']['by_round']): FigureSpec {
  const values = rows.map((row) => ({ round: `round ${row.round}`, rate: row.pass_rate ?? 0, caption: caption(row) }));
  const x = { field: 'round', type: 'ordinal', title: 'Round of the item’s proposal', sort: null, axis: { labelAngle: 0 } } as const;
  return lite({
    width: 'container',
    height: ROUND_HEIGHT_PX,
    data: { values },
    encoding: { x, y: { field: 'rate', type: 'quantitative', title: 'Pass rate (%)', scale: { domain: [0, 100] } } },
    layer: [
      { mark: { type: 'bar', color: ORIGIN_COLORS.revised, tooltip: { content: 'data' } } },
      { mark: { type: 'text', baseline: 'bottom', dy: -3, fontSize: 11, color: '#3c4756' }, encoding: { text: { field: 'caption' } } },
    ],
  });
}

/** One node of the sunburst hierarchy: the centre, a noun (inner ring) or a verb (outer ring). */
export type SunburstNode = {
  id: string;
  parent: string | null;
  /** What the arc says: the noun or verb (the chart type at the centre). */
  name: string;
  /** The noun the arc belongs to, so a noun and its verbs share a colour. */
  noun: string;
  /** Only verbs carry size: the partition sums it up the tree. */
  size: number;
  /** Proposals under the node, for the tooltip. */
  count: number;
};

/** The operations of one chart type as a three-level hierarchy: centre → nouns → verbs. */
export function sunburstNodes(operations: PoolAnalyticsResponse['operations'], chartType: ChartType): SunburstNode[] {
  const ofType = operations.filter((op) => op.chart_type === chartType && op.count > 0);
  const nouns = new Map<string, number>();
  for (const op of ofType) nouns.set(op.noun, (nouns.get(op.noun) ?? 0) + op.count);
  const total = ofType.reduce((sum, op) => sum + op.count, 0);
  return [
    { id: 'root', parent: null, name: CHART_TYPE_LABELS[chartType], noun: '', size: 0, count: total },
    ...[...nouns.entries()].map(([noun, count]) => ({ id: `n:${noun}`, parent: 'root', name: noun, noun, size: 0, count })),
    ...ofType.map((op) => ({ id: `v:${op.noun}|${op.verb}`, parent: `n:${op.noun}`, name: op.verb, noun: op.noun, size: op.count, count: op.count })),
  ];
}

/**
 * Figure 3 of the paper for one chart type: a Vega partition of nouns (inner ring) and their
 * verbs (outer ring), arc angles by proposal count, labels where they fit.
 */
export function sunburstFigure(nodes: SunburstNode[]): FigureSpec {
  const total = nodes.find((node) => node.parent === null)?.count ?? 0;
  return {
    kind: 'vega',
    spec: {
      width: SUNBURST_SIZE_PX,
      height: SUNBURST_SIZE_PX,
      padding: 4,
      autosize: 'none',
      data: [
        {
          name: 'tree',
          values: nodes,
          transform: [
            { type: 'stratify', key: 'id', parentKey: 'parent' },
            {
              type: 'partition',
              field: 'size',
              sort: { field: 'count', order: 'descending' },
              size: [{ signal: '2 * PI' }, { signal: 'width / 2' }],
              as: ['a0', 'r0', 'a1', 'r1', 'depth', 'children'],
            },
          ],
        },
      ],
      scales: [{ name: 'color', type: 'ordinal', domain: { data: 'tree', field: 'noun' }, range: { scheme: 'tableau10' } }],
      marks: [
        {
          type: 'arc',
          from: { data: 'tree' },
          encode: {
            enter: {
              x: { signal: 'width / 2' },
              y: { signal: 'height / 2' },
              startAngle: { field: 'a0' },
              endAngle: { field: 'a1' },
              innerRadius: { field: 'r0' },
              outerRadius: { field: 'r1' },
              fill: [{ test: 'datum.depth === 0', value: '#ffffff' }, { scale: 'color', field: 'noun' }],
              fillOpacity: [{ test: 'datum.depth === 2', value: 0.55 }, { value: 1 }],
              stroke: { value: '#ffffff' },
              strokeWidth: { value: 1.5 },
              tooltip: {
                signal: "datum.depth === 0 ? null : (datum.depth === 1 ? 'noun ' : 'verb ') + datum.name + ': ' + datum.count + (datum.count === 1 ? ' proposal' : ' proposals')",
              },
            },
          },
        },
        {
          type: 'text',
          from: { data: 'tree' },
          interactive: false,
          encode: {
            enter: {
              x: { signal: 'width / 2' },
              y: { signal: 'height / 2' },
              theta: { signal: '(datum.a0 + datum.a1) / 2' },
              radius: { signal: '(datum.r0 + datum.r1) / 2' },
              // Read outward on the right half, inward on the left, never upside down.
              angle: { signal: '(datum.a0 + datum.a1) / 2 < PI ? ((datum.a0 + datum.a1) / 2) * 180 / PI - 90 : ((datum.a0 + datum.a1) / 2) * 180 / PI + 90' },
              align: { value: 'center' },
              baseline: { value: 'middle' },
              limit: { signal: 'datum.r1 - datum.r0 - 6' },
              font: { value: FIGURE_FONT },
              fontSize: { value: 11 },
              fontWeight: [{ test: 'datum.depth === 1', value: 600 }, { value: 400 }],
              fill: { value: '#1d2430' },
              text: { signal: `datum.depth > 0 && (datum.a1 - datum.a0) * (datum.r0 + datum.r1) / 2 >= ${MIN_LABEL_ARC_PX} ? datum.name : ''` },
            },
          },
        },
        {
          type: 'text',
          interactive: false,
          encode: {
            enter: {
              x: { signal: 'width / 2' },
              y: { signal: 'height / 2' },
              align: { value: 'center' },
              baseline: { value: 'middle' },
              font: { value: FIGURE_FONT },
              fontSize: { value: 13 },
              fill: { value: '#5f6b7a' },
              text: { value: `${total} ${total === 1 ? 'proposal' : 'proposals'}` },
            },
          },
        },
      ],
    },
  };
}
