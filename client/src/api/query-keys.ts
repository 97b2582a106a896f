import type { ChartGroupListQuery } from '@shared/api/chart-groups';
import type { ChartListQuery } from '@shared/api/charts';
import type { EvalResultsQuery } from '@shared/api/evaluations';
import type { ItemListQuery } from '@shared/api/items';
import type { ProposalListQuery } from '@shared/api/pool';

/**
 * Every react-query key in the client. Keys are hierarchical so one prefix invalidates a
 * whole family (e.g. `charts.all()` covers lists, facets and details).
 */
export const queryKeys = {
  me: () => ['auth', 'me'] as const,
  presence: () => ['presence'] as const,
  health: () => ['health'] as const,
  /** The curators' landing figures: refetched as reviews and runs move. */
  overview: () => ['overview'] as const,
  /**
   * Whether an export would hold anything. Under the overview's key: the pushes that move the
   * overview's figures (decisions, runs) are the ones that change it, and refetch both.
   */
  exportStatus: () => ['overview', 'export-status'] as const,
  /** Splits with their counts (the Splits page). */
  splits: () => ['splits'] as const,
  /** One browser import's latest progress, written by the socket (`import.progress`). */
  importProgress: (uploadId: string) => ['imports', 'progress', uploadId] as const,
  charts: {
    all: () => ['charts'] as const,
    lists: () => ['charts', 'list'] as const,
    list: (query: ChartListQuery) => ['charts', 'list', query] as const,
    facets: () => ['charts', 'facets'] as const,
    details: () => ['charts', 'detail'] as const,
    detail: (id: number) => ['charts', 'detail', id] as const,
    /** Under the chart's detail key: invalidating the chart refetches its table too. */
    table: (id: number) => ['charts', 'detail', id, 'table'] as const,
    /** Chart groups, under `charts` so a chart's change (its table confirmed) refetches the groups showing it. */
    groups: () => ['charts', 'groups'] as const,
    groupList: (query: ChartGroupListQuery) => ['charts', 'groups', 'list', query] as const,
    group: (id: number) => ['charts', 'groups', 'detail', id] as const,
    /** The groups a chart's page links (under its detail key: a write that refetches the chart refetches them too). */
    groupLinks: (chartId: number) => ['charts', 'detail', chartId, 'groups'] as const,
  },
  settings: () => ['settings'] as const,
  /** The review criteria's guidelines (every reviewer reads them; under `settings`, which admins change). */
  reviewGuidelines: () => ['settings', 'review-guidelines'] as const,
  /** Table-extraction jobs: the recent list is fetched and kept live by `extraction.progressed`; a plan (the button's count) per scope. */
  extractionJobs: {
    all: () => ['extraction-jobs'] as const,
    list: () => ['extraction-jobs', 'list'] as const,
    plans: () => ['extraction-jobs', 'plan'] as const,
    plan: (scope: { split?: string | undefined; chart_type?: string | undefined }) => ['extraction-jobs', 'plan', scope] as const,
  },
  /** The chart-type triage (unconfirmed charts and the counts, per split; '' is every split), refetched as charts change, and the vision jobs over them, kept live by `chart_type_job.progressed`. */
  chartTypes: {
    all: () => ['chart-types'] as const,
    triages: () => ['chart-types', 'triage'] as const,
    triage: (split: string) => ['chart-types', 'triage', split] as const,
    jobs: () => ['chart-types', 'jobs'] as const,
    plans: () => ['chart-types', 'plan'] as const,
    plan: (split: string) => ['chart-types', 'plan', split] as const,
  },
  users: {
    all: () => ['users'] as const,
    list: () => ['users', 'list'] as const,
  },
  runs: {
    all: () => ['runs'] as const,
    lists: () => ['runs', 'list'] as const,
    list: (page: number) => ['runs', 'list', page] as const,
    details: () => ['runs', 'detail'] as const,
    detail: (id: number) => ['runs', 'detail', id] as const,
  },
  /** Model evaluation runs: the list, the paper's comparison, one run, and one run's results. */
  evals: {
    all: () => ['evals'] as const,
    lists: () => ['evals', 'list'] as const,
    comparison: () => ['evals', 'comparison'] as const,
    unsolved: () => ['evals', 'unsolved'] as const,
    /** Uploaded published tables (a paper's Table 3 or 4): no push announces them; this client's uploads and deletes (and a reconnect) refetch them. */
    published: () => ['evals', 'published'] as const,
    details: () => ['evals', 'detail'] as const,
    detail: (id: number) => ['evals', 'detail', id] as const,
    /** Every cached results page of one run, whatever its filters. */
    runResults: (id: number) => ['evals', 'results', id] as const,
    results: (id: number, query: EvalResultsQuery) => ['evals', 'results', id, query] as const,
  },
  pool: {
    all: () => ['pool'] as const,
    lists: () => ['pool', 'list'] as const,
    list: (query: ProposalListQuery) => ['pool', 'list', query] as const,
    details: () => ['pool', 'detail'] as const,
    detail: (id: number) => ['pool', 'detail', id] as const,
    /** A proposal's reflections and the feedback its items gathered. */
    reflectionLists: () => ['pool', 'reflections'] as const,
    reflections: (id: number) => ['pool', 'reflections', id] as const,
  },
  /** Reflection batches: the recent list is fetched, each batch's progress is pushed (`reflection.progressed`). */
  reflectionBatches: {
    all: () => ['reflection-batches'] as const,
    list: () => ['reflection-batches', 'list'] as const,
    detail: (id: number) => ['reflection-batches', id] as const,
  },
  /** Figures over the whole pool and item set: refetched, throttled, as proposals and items change. */
  analytics: {
    all: () => ['analytics'] as const,
    pool: () => ['analytics', 'pool'] as const,
    lineage: (proposalId: number) => ['analytics', 'lineage', proposalId] as const,
    ablation: (reviewerHourlyRate: number) => ['analytics', 'ablation', reviewerHourlyRate] as const,
    coverage: (limit: number) => ['analytics', 'coverage', limit] as const,
  },
  items: {
    all: () => ['items'] as const,
    lists: () => ['items', 'list'] as const,
    list: (query: Partial<ItemListQuery>) => ['items', 'list', query] as const,
    details: () => ['items', 'detail'] as const,
    detail: (id: number) => ['items', 'detail', id] as const,
    /** Under the item's detail key: a refetch of the item refetches its thread and edits too. */
    comments: (id: number) => ['items', 'detail', id, 'comments'] as const,
    edits: (id: number) => ['items', 'detail', id, 'edits'] as const,
  },
  /** Comments that mentioned this user, as pushed (`comment.mentioned`; never fetched). */
  mentions: () => ['mentions'] as const,
  /** Named review queues with their members and the reviewers one may assign to (curators). */
  queues: () => ['queues'] as const,
  /** One item's assignment on the Item page (curators): under `queues()`, so `assignment.changed` refetches it. */
  itemAssignment: (itemId: number) => ['queues', 'item', itemId] as const,
  review: {
    all: () => ['review'] as const,
    queue: () => ['review', 'queue'] as const,
    stats: () => ['review', 'stats'] as const,
    adjudication: () => ['review', 'adjudication'] as const,
    histories: () => ['review', 'history'] as const,
    history: (itemId: number) => ['review', 'history', itemId] as const,
    /** Items whose lease ran out under this user, as pushed by the server (never fetched). */
    expiredLeases: () => ['review', 'expired-leases'] as const,
    /** This user's reviews the server stored, as pushed to all their tabs (never fetched). */
    ownReviews: () => ['review', 'own-reviews'] as const,
  },
};
