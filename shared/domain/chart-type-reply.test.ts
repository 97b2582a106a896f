import { describe, expect, it } from 'vitest';
import { ChartTypeReplyWireSchema, toChartTypeReply } from './chart-type-reply';

const reply = (orientation: string, stacking: string, chart_type: string) => ChartTypeReplyWireSchema.parse({ orientation, stacking, chart_type });

describe('toChartTypeReply', () => {
  it('takes a type that agrees with what the model said of the bars, its hint in words', () => {
    expect(toChartTypeReply(reply('horizontal', 'none', 'horizontal_bar'))).toEqual({ ok: true, value: { chartType: 'horizontal_bar', hint: 'horizontal bars' } });
    expect(toChartTypeReply(reply('vertical', 'percent', 'stacked_bar'))).toEqual({ ok: true, value: { chartType: 'stacked_bar', hint: 'vertical bars, 100% stacked' } });
    expect(toChartTypeReply(reply('horizontal', 'stacked', 'stacked_bar'))).toMatchObject({ ok: true, value: { chartType: 'stacked_bar' } });
    // Grouped bars run either way.
    expect(toChartTypeReply(reply('horizontal', 'none', 'grouped_bar'))).toMatchObject({ ok: true, value: { chartType: 'grouped_bar' } });
    expect(toChartTypeReply(reply('none', 'none', 'line'))).toEqual({ ok: true, value: { chartType: 'line', hint: 'no bars' } });
  });

  it('refuses a bar type its own hint contradicts, naming the fields', () => {
    expect(toChartTypeReply(reply('horizontal', 'none', 'vertical_bar'))).toEqual({ ok: false, reason: 'chart_type: "vertical_bar" has vertical bars, but orientation is "horizontal"' });
    expect(toChartTypeReply(reply('vertical', 'stacked', 'grouped_bar'))).toEqual({ ok: false, reason: 'chart_type: "grouped_bar" does not stack its bars, but stacking is "stacked"' });
    expect(toChartTypeReply(reply('vertical', 'none', 'stacked_bar'))).toEqual({ ok: false, reason: 'chart_type: "stacked_bar" stacks its bars, but stacking is "none"' });
    expect(toChartTypeReply(reply('none', 'none', 'horizontal_bar'))).toMatchObject({ ok: false, reason: expect.stringMatching(/orientation says there are no bars/) as unknown });
  });

  it('holds the type to the vocabulary', () => {
    expect(ChartTypeReplyWireSchema.safeParse({ orientation: 'vertical', stacking: 'none', chart_type: 'column' }).success).toBe(false);
  });
});
