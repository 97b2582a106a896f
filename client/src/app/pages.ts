import type { Role } from '@shared/domain/roles';

export type PageId = 'overview' | 'review' | 'adjudication' | 'items' | 'pool' | 'runs' | 'charts' | 'stats' | 'evaluation' | 'splits' | 'admin' | 'audit';

export type PageInfo = {
  id: PageId;
  path: string;
  label: string;
  /** The least role that sees the page in the navigation. */
  leastRole: Role;
  /** What the page holds; shown in place of pages not built yet. */
  purpose: string;
};

/** The workbench's pages in navigation order. */
export const PAGES: readonly PageInfo[] = [
  {
    id: 'overview',
    path: '/overview',
    label: 'Overview',
    leastRole: 'curator',
    purpose: 'The project at a glance: the review queue, the pass rate, runs in progress and items awaiting adjudication, each linked to where it is worked on.',
  },
  {
    id: 'review',
    path: '/review',
    label: 'Review',
    leastRole: 'reviewer',
    purpose:
      'Expert review of generated hypothetical questions: take the next item, judge its rationality, answer correctness and layout consistency, then accept or reject it with feedback.',
  },
  {
    id: 'adjudication',
    path: '/adjudication',
    label: 'Adjudication',
    leastRole: 'curator',
    purpose: 'Items whose reviewers disagreed under the consensus rule: their reviews side by side, and the curator’s final decision.',
  },
  {
    id: 'items',
    path: '/items',
    label: 'Items',
    leastRole: 'reviewer',
    purpose:
      'Every generated hypothetical question with its status, the verifier’s recomputed answer and its reviews, filterable by run, chart type and answer type.',
  },
  {
    id: 'pool',
    path: '/pool',
    label: 'Pool',
    leastRole: 'reviewer',
    purpose:
      'The instruction-proposal pool per chart type: hand-written seeds, generated and reflection-revised proposals, their lineage and pass rates; curators edit and retire them.',
  },
  {
    id: 'runs',
    path: '/runs',
    label: 'Runs',
    leastRole: 'reviewer',
    purpose:
      'Generation runs: start a run over a split, watch its progress, tokens and cost live, and inspect every LLM call it made.',
  },
  {
    id: 'charts',
    path: '/charts',
    label: 'Charts',
    leastRole: 'reviewer',
    purpose: 'Imported charts with their data tables and factual questions.',
  },
  {
    id: 'stats',
    path: '/stats',
    label: 'Stats',
    leastRole: 'reviewer',
    purpose:
      'Dataset statistics: questions, proposals and charts per type, answer-type counts, average lengths, pass rates and reviewer agreement (percent agreement and Fleiss’ kappa).',
  },
  {
    id: 'evaluation',
    path: '/evaluation',
    label: 'Evaluation',
    leastRole: 'reviewer',
    purpose:
      'Model evaluation over an export: relaxed accuracy, decline rate against the factual questions, accuracy per answer type, a no-image control and the bias rate.',
  },
  {
    id: 'splits',
    path: '/splits',
    label: 'Splits',
    leastRole: 'curator',
    purpose: 'Import a split from a .zip (ChartQA, MultiChartQA, ChartBench, CharXiv) with its per-file report; splits with their counts, renamed and archived.',
  },
  {
    id: 'admin',
    path: '/admin',
    label: 'Admin',
    leastRole: 'admin',
    purpose: 'Users and roles.',
  },
  {
    id: 'audit',
    path: '/audit',
    label: 'Audit log',
    leastRole: 'admin',
    purpose: 'Who did what and when: logins, role changes, settings, imports, runs, reviews, adjudications, edits and exports, filterable and exportable as JSON lines.',
  },
];

export function pageInfo(id: PageId): PageInfo {
  const page = PAGES.find((p) => p.id === id);
  if (!page) throw new Error(`Unknown page ${id}`);
  return page;
}
