import type { OverviewResponse } from '@shared/api/overview';

export type StepKey = 'import' | 'run' | 'review' | 'export';

export interface LoopStep {
  key: StepKey;
  title: string;
  /** Where the step is done, and the link's words. */
  to: string;
  action: string;
  done: boolean;
  /** What stands, in a line: what was done, or what to do. */
  detail: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The loop a project goes through, import → run → review → export, each step done or not by the
 * overview's counts, and the first one not done: what a first overview tells a curator to do
 * next. `next` is null once an export would hold items.
 */
export function loopSteps({ setup, queue, decided }: Pick<OverviewResponse, 'setup' | 'queue' | 'decided'>): { steps: LoopStep[]; next: LoopStep | null } {
  const decidedCount = decided.accepted + decided.rejected;
  const steps: LoopStep[] = [
    {
      key: 'import',
      title: 'Import a split',
      to: '/splits',
      action: 'Import a split',
      done: setup.charts > 0 && setup.questions > 0,
      detail:
        setup.questions > 0
          ? `${plural(setup.charts, 'chart')} and ${plural(setup.questions, 'factual question')} imported`
          : setup.charts > 0
            ? `${plural(setup.charts, 'chart')} but no factual question: import a split with its question files`
            : 'Upload a ChartQA split (tables/, png/, question files) as a .zip',
    },
    {
      key: 'run',
      title: 'Generate items',
      to: '/runs',
      action: 'Start a run',
      done: setup.items > 0,
      detail:
        setup.items > 0
          ? `${plural(setup.items, 'item')} made`
          : setup.runs > 0
            ? `${plural(setup.runs, 'run')} but no item yet: open a run to see why`
            : 'Start a generation run: the offline engine needs no API key',
    },
    {
      key: 'review',
      title: 'Review them',
      to: '/review',
      action: 'Review items',
      done: decidedCount > 0,
      detail: decidedCount > 0 ? `${plural(decidedCount, 'item')} decided` : `${plural(queue.total, 'item')} waiting for reviewers`,
    },
    {
      key: 'export',
      title: 'Export the dataset',
      to: '/evaluation',
      action: 'Export',
      done: decided.accepted > 0,
      detail: decided.accepted > 0 ? `${plural(decided.accepted, 'accepted item')} to export and evaluate` : 'Accepted items become the dataset: Chart-HQA JSON, ChartQA, Hugging Face',
    },
  ];
  return { steps, next: steps.find((step) => !step.done) ?? null };
}
