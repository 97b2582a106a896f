import type { Spec } from 'vega';
import type { TopLevelSpec } from 'vega-lite';

/** A figure to draw: a Vega spec (e.g. the sunburst) or a Vega-Lite one (lines and bars, a chart's table). */
export type FigureSpec = ({ kind: 'vega'; spec: Spec } | { kind: 'vega-lite'; spec: TopLevelSpec }) & {
  /** Drawn in the shipped Roboto, the font the server draws chart PNGs in, so a chart drawn here matches them. */
  chartFont?: boolean;
  /** Marks' tooltips become the hovered element's title; off for a chart, which has none. Default on. */
  hover?: boolean;
};

/** The page's own type, so figures read like the text around them. */
export const FIGURE_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** Origin colours shared by every figure (seed green, generated blue, revised amber, as the tags). */
export const ORIGIN_COLORS = { seed: '#1e7a46', generated: '#2d5fa8', revised: '#b7791f' } as const;
