import type { Config } from 'vega-lite';

/** How every chart looks: size, font, palette, text sizes, and estimates of how much room text takes. */

/** ChartQA's PNGs are 800×557. */
export const DEFAULT_CHART_WIDTH = 800;
export const DEFAULT_CHART_HEIGHT = 557;
export const CHART_FONT = 'Roboto';

/** Tableau-10 hues then ten darker or brighter ones, each with the text colour that stays readable on it. */
export const PALETTE: readonly { fill: string; ink: string }[] = [
  { fill: '#2f6fd6', ink: '#ffffff' },
  { fill: '#f28e2b', ink: '#1a1a1a' },
  { fill: '#e15759', ink: '#ffffff' },
  { fill: '#76b7b2', ink: '#1a1a1a' },
  { fill: '#59a14f', ink: '#ffffff' },
  { fill: '#edc948', ink: '#1a1a1a' },
  { fill: '#b07aa1', ink: '#ffffff' },
  { fill: '#ff9da7', ink: '#1a1a1a' },
  { fill: '#9c755f', ink: '#ffffff' },
  { fill: '#bab0ac', ink: '#1a1a1a' },
  { fill: '#17324f', ink: '#ffffff' },
  { fill: '#b35806', ink: '#ffffff' },
  { fill: '#8c2d2f', ink: '#ffffff' },
  { fill: '#2a7f62', ink: '#ffffff' },
  { fill: '#b3d66b', ink: '#1a1a1a' },
  { fill: '#6a3d9a', ink: '#ffffff' },
  { fill: '#17becf', ink: '#1a1a1a' },
  { fill: '#7f7f7f', ink: '#ffffff' },
  { fill: '#e377c2', ink: '#1a1a1a' },
  { fill: '#bcbd22', ink: '#1a1a1a' },
];
export const TEXT_COLOR = '#333333';
export const TITLE_FONT_SIZE = 16;
export const LABEL_FONT_SIZE = 11;
export const VALUE_FONT_SIZE = 11;
export const LEGEND_FONT_SIZE = 12;
/** A legend entry's symbol, its gap to the label and the gap to the next entry. */
export const LEGEND_SYMBOL_PX = 40;
/** Roboto's average advance is about half an em; a little extra keeps estimates safe. */
export const CHAR_WIDTH_EM = 0.6;
/** More value labels than this turns a chart into a wall of numbers. */
export const MAX_VALUE_LABELS = 40;
/** Category labels beyond this width are cut with an ellipsis. */
export const CATEGORY_LABEL_LIMIT_PX = 180;

export const CHART_CONFIG: Config = {
  font: CHART_FONT,
  background: 'white',
  view: { stroke: null },
  title: { color: '#1a1a1a', font: CHART_FONT },
  axis: {
    labelFont: CHART_FONT,
    titleFont: CHART_FONT,
    labelFontSize: LABEL_FONT_SIZE,
    titleFontSize: 12,
    labelColor: TEXT_COLOR,
    titleColor: TEXT_COLOR,
    titleFontWeight: 'bold',
    gridColor: '#e6e6e6',
    domainColor: '#888888',
    tickColor: '#888888',
  },
  axisBand: { grid: false, ticks: false },
  legend: { labelFont: CHART_FONT, titleFont: CHART_FONT, labelFontSize: LEGEND_FONT_SIZE, labelColor: TEXT_COLOR, symbolType: 'circle', symbolSize: 110 },
  text: { font: CHART_FONT },
};

export function paletteEntry(index: number): { fill: string; ink: string } {
  return PALETTE[index % PALETTE.length] ?? { fill: 'steelblue', ink: '#ffffff' };
}

export function longestLength(texts: string[]): number {
  return texts.reduce((max, text) => Math.max(max, text.length), 0);
}

/** Splits text into lines of at most `maxChars` characters at spaces (a long word stays whole). */
export function wrapText(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
