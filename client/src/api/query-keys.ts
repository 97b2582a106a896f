import type { ChartListQuery } from '../../../shared/api/charts';

/**
 * Every react-query key in the client. Keys are hierarchical so one prefix invalidates a
 * whole family (e.g. `charts.all()` covers lists, facets and details).
 */
export const queryKeys = {
  me: () => ['auth', 'me'] as const,
  presence: () => ['presence'] as const,
  charts: {
    all: () => ['charts'] as const,
    lists: () => ['charts', 'list'] as const,
    list: (query: ChartListQuery) => ['charts', 'list', query] as const,
    facets: () => ['charts', 'facets'] as const,
    details: () => ['charts', 'detail'] as const,
    detail: (id: number) => ['charts', 'detail', id] as const,
  },
  users: {
    all: () => ['users'] as const,
    list: () => ['users', 'list'] as const,
  },
};
