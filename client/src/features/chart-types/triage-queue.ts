import { CHART_TYPES, type ChartType } from '@shared/domain/chart-types';

/**
 * The triage's keys and which chart it shows. A key per type, 1–9 in the vocabulary's order
 * (shown on each type's button); Enter confirms the suggested type; s skips; u undoes the last
 * decision of this session.
 */
export const TYPE_KEYS: readonly { key: string; type: ChartType }[] = CHART_TYPES.map((type, index) => ({ key: String(index + 1), type }));

export const TRIAGE_KEYS = { confirm: 'Enter', skip: 's', undo: 'u' } as const;

/** The type a key stands for, or null. */
export function typeForKey(key: string): ChartType | null {
  return TYPE_KEYS.find((entry) => entry.key === key)?.type ?? null;
}

/**
 * The chart to show: the one a curator asked for (an undone decision, a thumbnail clicked) while
 * it is still in the list, else the first one not skipped this session; null when none is left.
 * Skipped charts come back once every other chart has been seen.
 */
export function currentChart<T extends { id: number }>(charts: readonly T[], skipped: ReadonlySet<number>, pinned: number | null): T | null {
  const asked = pinned === null ? undefined : charts.find((chart) => chart.id === pinned);
  return asked ?? charts.find((chart) => !skipped.has(chart.id)) ?? charts[0] ?? null;
}

/** The charts after `current` in the order they will come, for the thumbnails. */
export function upcoming<T extends { id: number }>(charts: readonly T[], skipped: ReadonlySet<number>, current: T | null, count: number): T[] {
  const rest = charts.filter((chart) => chart.id !== current?.id);
  return [...rest.filter((chart) => !skipped.has(chart.id)), ...rest.filter((chart) => skipped.has(chart.id))].slice(0, count);
}
