import { describe, expect, it } from 'vitest';
import { CHART_TYPES } from '@shared/domain/chart-types';
import { currentChart, TYPE_KEYS, typeForKey, upcoming } from './triage-queue';

const charts = [{ id: 3 }, { id: 5 }, { id: 8 }, { id: 13 }];

describe('the triage keys', () => {
  it('give every chart type a key of its own, 1–9, and nothing else one', () => {
    expect(TYPE_KEYS.map((entry) => entry.type)).toEqual([...CHART_TYPES]);
    expect(new Set(TYPE_KEYS.map((entry) => entry.key)).size).toBe(CHART_TYPES.length);
    expect(typeForKey('1')).toBe('vertical_bar');
    expect(typeForKey('2')).toBe('horizontal_bar');
    expect(typeForKey('9')).toBe('other');
    expect(typeForKey('0')).toBeNull();
    expect(typeForKey('s')).toBeNull();
  });
});

describe('which chart the triage shows', () => {
  it('shows the first chart not skipped, and skipped ones once the rest were seen', () => {
    expect(currentChart(charts, new Set(), null)).toEqual({ id: 3 });
    expect(currentChart(charts, new Set([3, 5]), null)).toEqual({ id: 8 });
    expect(currentChart(charts, new Set([3, 5, 8, 13]), null)).toEqual({ id: 3 });
    expect(currentChart([], new Set(), null)).toBeNull();
  });

  it('shows the chart asked for while it is listed (an undone decision), else goes on', () => {
    expect(currentChart(charts, new Set([13]), 13)).toEqual({ id: 13 });
    expect(currentChart(charts, new Set(), 99)).toEqual({ id: 3 });
  });

  it('lists what comes next, skipped charts last', () => {
    expect(upcoming(charts, new Set([5]), { id: 3 }, 10)).toEqual([{ id: 8 }, { id: 13 }, { id: 5 }]);
    expect(upcoming(charts, new Set(), { id: 3 }, 2)).toEqual([{ id: 5 }, { id: 8 }]);
  });
});
