import { describe, expect, it } from 'vitest';
import { chartTypeFromAnnotation } from '../domain/infer-chart-type';
import { tableFromCells } from '../table/model';
import { cssColour, drawingStyleFromAnnotation, DrawingStyleSchema, hasOriginalColours, unverifiableColours, type DrawingStyle } from './drawing-style';
import { buildChartSpec } from './vega-lite-spec';
import { paletteEntry } from './chart-style';

const STORES = tableFromCells(
  ['Year', 'Western Europe', 'North America', 'Japan'],
  [
    ['2018', '43', '34', '26'],
    ['2019', '46', '43', '31'],
    ['2020', '47', '47', '32'],
  ],
);
const SHARES = tableFromCells(['Characteristic', 'Percentage of pins'], [['Recipe', '75%'], ['Crafts', '5%'], ['Comedy', '4%']]);

/** A ChartQA annotation (PlotQA's format): one model per series, colours by name. */
const SERIES_ANNOTATION = {
  type: 'v_bar',
  general_figure_info: { title: { text: 'Stores' } },
  models: [
    { name: 'Japan', color: 'Dark Green', x: ['2018', '2019', '2020'], y: [26, 31, 32] },
    { name: 'Western Europe', color: '#C0392B', x: ['2018', '2019', '2020'], y: [43, 46, 47] },
    { name: 'North America', color: 'UNK', x: ['2018', '2019', '2020'], y: [34, 43, 47] },
  ],
};

/** ChartQA's pie annotations: one model per slice, named by `text_label`. */
const PIE_ANNOTATION = {
  type: 'pie',
  models: [
    { text_label: 'Crafts', value: 5, color: 'light blue' },
    { text_label: 'Recipe', value: 75, color: 'navy' },
    { text_label: 'Comedy', value: 4, color: 'lightbrow' },
  ],
};

/** The colour range and domain of the spec's colour scale, wherever the family put it. */
function colourScale(spec: unknown): { domain: string[]; range: string[] } {
  const found = JSON.stringify(spec).match(/"color":\{"field":"(?:series|label)","type":"nominal","scale":\{"domain":(\[[^\]]*\]),"range":(\[[^\]]*\])/);
  if (!found?.[1] || !found[2]) throw new Error('no colour scale in the spec');
  return { domain: JSON.parse(found[1]) as string[], range: JSON.parse(found[2]) as string[] };
}

describe('cssColour', () => {
  it('reads hex colours and CSS colour names as people write them', () => {
    expect(cssColour('#C0392B')).toBe('#c0392b');
    expect(cssColour('#abc')).toBe('#aabbcc');
    expect(cssColour('Dark Green')).toBe('#006400');
    expect(cssColour('light-blue')).toBe('#add8e6');
    expect(cssColour('grey')).toBe('#808080');
  });
  it('refuses what a browser cannot draw, and anything that is not a colour', () => {
    for (const raw of ['UNK', 'lightbrow', 'url(x)', '#12', 'red; stroke: url(evil)', 42, null]) expect(cssColour(raw)).toBeNull();
  });
});

describe('drawingStyleFromAnnotation', () => {
  it('takes series order and colours from series models, matching names as written', () => {
    const style = drawingStyleFromAnnotation(SERIES_ANNOTATION, STORES);
    expect(style).toEqual({
      series_order: ['Japan', 'Western Europe', 'North America'],
      series_colours: { Japan: '#006400', 'Western Europe': '#c0392b' },
      row_colours: {},
      orientation: 'vertical',
    });
    expect(hasOriginalColours(style)).toBe(true);
  });

  it('takes slice colours from pie models named by text_label, skipping unreadable colours', () => {
    expect(drawingStyleFromAnnotation(PIE_ANNOTATION, SHARES)).toEqual({ series_order: [], series_colours: {}, row_colours: { Crafts: '#add8e6', Recipe: '#000080' } });
  });

  it("gives a single-series chart's one model to its series whatever it is called, with bar-by-bar colours", () => {
    const style = drawingStyleFromAnnotation({ models: [{ name: '', color: 'blue', colors: ['red', 'green', 'UNK'], x: ['Recipe', 'Crafts', 'Comedy'] }] }, SHARES);
    expect(style).toEqual({ series_order: ['Percentage of pins'], series_colours: { 'Percentage of pins': '#0000ff' }, row_colours: { Recipe: '#ff0000', Crafts: '#008000' } });
  });

  it('is null when the annotation gives nothing to draw with (the demo writes names and values only)', () => {
    const demo = { models: STORES.series.map((name) => ({ name, x: ['2018'], y: [1] })), type: 'grouped_bar' };
    expect(drawingStyleFromAnnotation(demo, STORES)).toBeNull();
    expect(drawingStyleFromAnnotation({ type: 'line' }, STORES)).toBeNull();
    expect(drawingStyleFromAnnotation('not an object', STORES)).toBeNull();
    expect(hasOriginalColours(null)).toBe(false);
  });

  it('keeps a series order that differs from the table even without colours', () => {
    const reordered = { models: [{ name: 'Japan' }, { name: 'North America' }, { name: 'Western Europe' }] };
    expect(drawingStyleFromAnnotation(reordered, STORES)).toEqual({ series_order: ['Japan', 'North America', 'Western Europe'], series_colours: {}, row_colours: {} });
  });
});

describe('the orientation of bars, from the annotation', () => {
  /** Pew's way: long categories, which drawn by their labels alone would make the bars horizontal. */
  const OPINIONS = tableFromCells(
    ['Opinion', 'Republicans', 'Democrats'],
    [
      ['Very confident in the election', '20', '60'],
      ['Somewhat confident in the election', '35', '30'],
      ['Not at all confident in the election', '45', '10'],
    ],
  );
  const models = [{ name: 'Republicans', color: 'red' }, { name: 'Democrats', color: 'blue' }];

  /** Which way the bars of a spec run: vertical bars stand on the category axis across (x). */
  function orientOf(spec: unknown): 'vertical' | 'horizontal' {
    return (spec as { encoding: { x: { field: string } } }).encoding.x.field === 'label' ? 'vertical' : 'horizontal';
  }

  it('reads v_bar and h_bar (and vbar, hbar) as the way the bars run; other types say nothing', () => {
    expect(drawingStyleFromAnnotation({ type: 'v_bar', models }, OPINIONS)?.orientation).toBe('vertical');
    expect(drawingStyleFromAnnotation({ type: 'VBar', models }, OPINIONS)?.orientation).toBe('vertical');
    expect(drawingStyleFromAnnotation({ type: 'h_bar', models }, OPINIONS)?.orientation).toBe('horizontal');
    expect(drawingStyleFromAnnotation({ type: 'hbar', models }, OPINIONS)?.orientation).toBe('horizontal');
    expect(drawingStyleFromAnnotation({ type: 'line', models }, OPINIONS)?.orientation).toBeUndefined();
    expect(drawingStyleFromAnnotation({ type: 'constructor', models }, OPINIONS)?.orientation).toBeUndefined();
  });

  it('gives a style when the orientation is all the annotation says', () => {
    expect(drawingStyleFromAnnotation({ type: 'h_bar' }, OPINIONS)).toEqual({ series_order: [], series_colours: {}, row_colours: {}, orientation: 'horizontal' });
    expect(drawingStyleFromAnnotation({ type: 'v_bar', models: [{ name: 'Republicans' }, { name: 'Democrats' }] }, OPINIONS)).toEqual({
      series_order: ['Republicans', 'Democrats'],
      series_colours: {},
      row_colours: {},
      orientation: 'vertical',
    });
  });

  it('keeps styles stored without an orientation readable', () => {
    expect(DrawingStyleSchema.parse({ series_order: [], series_colours: {}, row_colours: {} })).toEqual({ series_order: [], series_colours: {}, row_colours: {} });
    expect(() => DrawingStyleSchema.parse({ series_order: [], series_colours: {}, row_colours: {}, orientation: 'diagonal' })).toThrow();
  });

  it('draws a v_bar chart of several series (a grouped bar) vertical, long labels or not', () => {
    expect(chartTypeFromAnnotation('v_bar', OPINIONS.series.length)).toBe('grouped_bar');
    const style = drawingStyleFromAnnotation({ type: 'v_bar', models }, OPINIONS);
    expect(orientOf(buildChartSpec(OPINIONS, 'grouped_bar'))).toBe('horizontal');
    const spec = buildChartSpec(OPINIONS, 'grouped_bar', { style });
    expect(orientOf(spec)).toBe('vertical');
    expect(JSON.stringify(spec)).toContain('"xOffset":{"field":"series"');
    expect(orientOf(buildChartSpec(OPINIONS, 'stacked_bar', { style }))).toBe('vertical');
  });

  it('draws an h_bar chart horizontal, short labels or not', () => {
    const style = drawingStyleFromAnnotation({ type: 'h_bar', models }, STORES);
    expect(orientOf(buildChartSpec(STORES, 'grouped_bar'))).toBe('vertical');
    expect(orientOf(buildChartSpec(STORES, 'grouped_bar', { style }))).toBe('horizontal');
    expect(orientOf(buildChartSpec(STORES, 'stacked_bar', { style }))).toBe('horizontal');
    expect(orientOf(buildChartSpec(STORES, 'horizontal_bar', { style }))).toBe('horizontal');
  });

  it('leaves the fixed orientation of vertical and horizontal bar charts as it is', () => {
    const across = drawingStyleFromAnnotation({ type: 'h_bar' }, SHARES);
    expect(orientOf(buildChartSpec(SHARES, 'vertical_bar', { style: across }))).toBe('vertical');
    const upright = drawingStyleFromAnnotation({ type: 'v_bar' }, SHARES);
    expect(orientOf(buildChartSpec(SHARES, 'horizontal_bar', { style: upright }))).toBe('horizontal');
  });
});

describe('buildChartSpec with a drawing style', () => {
  const style = drawingStyleFromAnnotation(SERIES_ANNOTATION, STORES);

  it('draws grouped bars in the annotation’s series order and colours; a series it leaves uncoloured takes the palette', () => {
    const { domain, range } = colourScale(buildChartSpec(STORES, 'grouped_bar', { style }));
    expect(domain).toEqual(['Japan', 'Western Europe', 'North America']);
    expect(range).toEqual(['#006400', '#c0392b', paletteEntry(2).fill]);
  });

  it('draws lines and stacked bars in the same colours, and stacks in the annotation’s order', () => {
    expect(colourScale(buildChartSpec(STORES, 'line', { style })).range.slice(0, 2)).toEqual(['#006400', '#c0392b']);
    const stacked = buildChartSpec(STORES, 'stacked_bar', { style });
    expect(colourScale(stacked).domain).toEqual(['Japan', 'Western Europe', 'North America']);
    // The stack's order field is the series index in the annotation's order: Japan at the bottom.
    expect(JSON.stringify(stacked)).toContain('{"label":"2018","series":"Japan","value":26,"text":"26","row":0,"seriesIndex":0}');
  });

  it('colours pie slices as the annotation does, the rest from the palette', () => {
    const { domain, range } = colourScale(buildChartSpec(SHARES, 'pie', { style: drawingStyleFromAnnotation(PIE_ANNOTATION, SHARES) }));
    expect(domain).toEqual(['Recipe', 'Crafts', 'Comedy']);
    expect(range).toEqual(['#000080', '#add8e6', paletteEntry(2).fill]);
  });

  it('colours single-series bars one by one when the annotation does', () => {
    const perBar: DrawingStyle = { series_order: [], series_colours: {}, row_colours: { Crafts: '#ff0000' } };
    const { domain, range } = colourScale(buildChartSpec(SHARES, 'vertical_bar', { style: perBar }));
    expect(domain).toEqual(['Recipe', 'Crafts', 'Comedy']);
    expect(range).toEqual([paletteEntry(0).fill, '#ff0000', paletteEntry(0).fill]);
  });

  it('draws an edited table (a series added by the assumption) with the original colours for the series it kept', () => {
    const edited = tableFromCells(['Year', 'Western Europe', 'North America', 'Japan', 'China'], [['2020', '47', '47', '32', '12']]);
    const { domain, range } = colourScale(buildChartSpec(edited, 'grouped_bar', { style }));
    expect(domain).toEqual(['Japan', 'Western Europe', 'North America', 'China']);
    expect(range.slice(0, 2)).toEqual(['#006400', '#c0392b']);
  });

  it('draws exactly as before without a style', () => {
    expect(JSON.stringify(buildChartSpec(STORES, 'grouped_bar', { style: null }))).toBe(JSON.stringify(buildChartSpec(STORES, 'grouped_bar')));
    expect(colourScale(buildChartSpec(STORES, 'grouped_bar')).domain).toEqual(STORES.series);
  });
});

describe('unverifiableColours', () => {
  const questions = ['Which year the value of red bar is high ?', 'How many stores did Saint Laurent operate in Western Europe in 2020?'];
  it('lists the colours questions name on a chart drawn without the original colours', () => {
    expect(unverifiableColours(questions, STORES, { has_image: false, style: null })).toEqual(['red']);
  });
  it('is empty under an original image, or when the annotation gives the colours', () => {
    expect(unverifiableColours(questions, STORES, { has_image: true, style: null })).toEqual([]);
    expect(unverifiableColours(questions, STORES, { has_image: false, style: drawingStyleFromAnnotation(SERIES_ANNOTATION, STORES) })).toEqual([]);
  });
});
