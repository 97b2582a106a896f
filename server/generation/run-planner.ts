import type { Db } from '../../db/database';
import { CHART_TYPES, ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import type { Settings } from '../../shared/settings';
import { itemKey } from '../items/item-service';
import type { ProposalScope } from '../../shared/api/pool';
import { ensureGroupSeedProposals } from '../pool/group-seeds';
import { activeProposals } from '../pool/pool-queries';
import { operationCoverage } from './gap-weights';
import { countProposalItems, eligibleQaIds, groupChartTypes, insertTask, lowestIdQas, markItemsPlanned, type RunRecord } from './run-queries';
import { stratifiedSample } from './stratified-sample';
import { mulberry32 } from '../../shared/random';

/** A run's sampling is replayed from its id: the same seeded PRNG as the demo and offline engine. */
export { mulberry32 };

function shuffle<T>(list: T[], random: () => number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * Stage 1 tasks: `proposal_batches` calls per chart type; for a model run, as many again of
 * group scope for each type whose pool holds active group proposals (the group seeds, entered
 * once a run met a group question of the type, or a curator's): Stage 1 grows what the pool
 * draws from. The offline rules write single-chart proposals only.
 */
export function planProposalTasks(db: Db, run: RunRecord): number {
  if (run.stage === 'items') return 0;
  const types = run.config.chart_type ? [run.config.chart_type] : [...CHART_TYPES];
  const grouped = run.engine === 'offline' ? [] : types.filter((type) => activeProposals(db, type, 'group').length > 0);
  let planned = 0;
  db.transaction(() => {
    const plan = (chartType: ChartType, scope: ProposalScope) => {
      for (let batch = 0; batch < run.config.proposal_batches; batch++) {
        if (insertTask(db, { runId: run.id, kind: 'proposals', chartType, qaId: null, proposalId: null, key: proposalTaskKey(run.id, chartType, scope, batch) })) planned++;
      }
    };
    for (const chartType of types) plan(chartType, 'chart');
    for (const chartType of grouped) plan(chartType, 'group');
  }).immediate();
  return planned;
}

/**
 * A Stage 1 task's key; the scope is in it (`…:proposals:group:<type>:<batch>`), since a task
 * row has no scope of its own, and a chart-scope key is the one runs always wrote.
 */
function proposalTaskKey(runId: number, chartType: ChartType, scope: ProposalScope, batch: number): string {
  return scope === 'group' ? `run${runId}:proposals:group:${chartType}:${batch}` : `run${runId}:proposals:${chartType}:${batch}`;
}

/** The scope of the proposals a Stage 1 task writes, read from its key. */
export function proposalTaskScope(task: { idempotency_key: string }): ProposalScope {
  return /:proposals:group:/.test(task.idempotency_key) ? 'group' : 'chart';
}

/** Keeps the sample's random stream apart from the proposal shuffle's (both seeded by the run id). */
const SAMPLE_SALT = 0x9e3779b9;

/**
 * The run's factual QAs in the order its tasks are planned (filters: split, chart type, only QAs
 * without items, only charts whose type is confirmed). `stratified` (the default) spreads them over chart types and charts, seeded
 * by the run id; `id` takes the lowest ids, as runs did before there was a choice.
 */
export function selectQas(db: Db, run: RunRecord): { id: number; chart_type: string; group_id: number | null }[] {
  const filters = { split: run.config.split, chartType: run.config.chart_type, onlyNew: run.config.only_new_qas, confirmedTypesOnly: run.config.confirmed_types_only };
  if (run.config.order === 'id') return lowestIdQas(db, filters, run.config.items);
  // In memory over ids only: at 100,000 QAs this took half the time of ranking them in SQL with window functions.
  return stratifiedSample(eligibleQaIds(db, filters), run.config.items, mulberry32(run.id ^ SAMPLE_SALT)).map((qa) => ({ id: qa.id, chart_type: qa.chartType, group_id: qa.groupId }));
}

interface Candidate {
  id: number;
  chartType: ChartType;
  load: number;
  gap: number;
}

/**
 * Stage 2 tasks: the run's factual QAs (see selectQas), each paired with an active proposal
 * of its chart's type — the one with the fewest items so far, so the pool is used evenly. A
 * question over one chart takes single-chart proposals only; a question over a chart group
 * takes group proposals only, of the type of one of its charts (the one the assumption will
 * edit), and the group seeds are entered for its charts' types when the pool has none; with
 * `weight_to_gaps`, first the one whose operation has the fewest accepted items of this chart
 * type. The pair is the idempotency key: a pair another run already made or planned is skipped
 * for the next proposal. Planned once, in one transaction; tasks are worked in planned order.
 */
export function planItemTasks(db: Db, run: RunRecord): number {
  if (run.stage === 'proposals' || run.items_planned) return 0;
  const random = mulberry32(run.id);
  let planned = 0;
  db.transaction(() => {
    const qas = selectQas(db, run);
    // One list per scope and chart type, shared by every question that draws from it, so loads add up across them.
    const lists = new Map<string, Candidate[]>();
    const proposalsOf = (chartType: ChartType, scope: ProposalScope): Candidate[] => {
      const key = `${scope}:${chartType}`;
      let list = lists.get(key);
      if (!list) {
        if (scope === 'group') ensureGroupSeedProposals(db, [chartType]);
        const gap = run.config.weight_to_gaps ? operationCoverage(db, chartType) : () => 0;
        list = shuffle(activeProposals(db, chartType, scope), random).map((p) => ({ id: p.id, chartType, load: countProposalItems(db, p.id), gap: gap(p.text) }));
        lists.set(key, list);
      }
      return list;
    };
    // A run for one chart type edits a chart of that type in a group (the group has one, or it was not selected).
    const groupTypes = (groupId: number) => (run.config.chart_type ? [run.config.chart_type] : groupChartTypes(db, groupId).map((type) => ChartTypeSchema.parse(type)));
    for (const qa of qas) {
      const types = qa.group_id === null ? [ChartTypeSchema.parse(qa.chart_type)] : groupTypes(qa.group_id);
      const candidates = types.flatMap((type) => proposalsOf(type, qa.group_id === null ? 'chart' : 'group'));
      // Thinnest coverage first when the run weights toward gaps (gap is 0 for all otherwise), then the least used.
      candidates.sort((a, b) => a.gap - b.gap || a.load - b.load);
      for (const candidate of candidates) {
        // The task's chart type is the proposal's: for a group question, the type of the chart its assumption edits.
        if (insertTask(db, { runId: run.id, kind: 'item', chartType: candidate.chartType, qaId: qa.id, proposalId: candidate.id, key: itemKey(candidate.id, qa.id) })) {
          candidate.load++;
          planned++;
          break;
        }
      }
    }
    markItemsPlanned(db, run.id);
  }).immediate();
  return planned;
}

/**
 * Stage 1 examples, as Self-Instruct samples them: up to `seed_sample_count` active proposals,
 * at most `machine_sample_count` of them machine-made, the rest hand-written seeds.
 */
export function sampleExamples(
  db: Db,
  chartType: ChartType,
  settings: Settings,
  random: () => number,
  weightToGaps = false,
  scope: ProposalScope = 'chart',
): { id: number; text: string }[] {
  const active = activeProposals(db, chartType, scope);
  const gap = weightToGaps ? operationCoverage(db, chartType) : () => 0;
  // A stable sort after the shuffle: ties stay random, thin operations come first when weighted.
  const ordered = (list: typeof active) => shuffle(list, random).sort((a, b) => gap(a.text) - gap(b.text));
  const human = ordered(active.filter((p) => p.origin === 'seed'));
  const machine = ordered(active.filter((p) => p.origin !== 'seed'));
  const machineTake = machine.slice(0, Math.min(settings.machine_sample_count, settings.seed_sample_count));
  const humanTake = human.slice(0, settings.seed_sample_count - machineTake.length);
  return shuffle([...humanTake, ...machineTake], random).map(({ id, text }) => ({ id, text }));
}

/**
 * Whether a task is drawn to be a control question: a fixed share of tasks, by a hash of the
 * task id, so a resumed run draws the same ones.
 */
export function isControlTask(taskId: number, share: number): boolean {
  if (share <= 0) return false;
  return mulberry32(taskId ^ CONTROL_SALT)() < share;
}
const CONTROL_SALT = 0x5eed;
