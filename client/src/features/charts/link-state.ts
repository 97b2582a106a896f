/** Router state passed from the charts list to a chart's page. */
export type ChartLinkState = { listSearch: string };

/** Where a chart page's back link goes: the list page it came from, else the first page. */
export function listPathFrom(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'listSearch' in state && typeof state.listSearch === 'string') {
    return `/charts${state.listSearch}`;
  }
  return '/charts';
}
