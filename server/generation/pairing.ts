import type { Db } from '../../db/database';
import type { ChartType } from '../../shared/domain/chart-types';
import { MAX_CANDIDATES, type Pairing } from '../../shared/generation/pairing';
import { parseIntent } from '../../shared/generation/proposal-intent';
import type { Settings } from '../../shared/settings';
import { getQaWithChart, type QaWithChart } from '../charts/chart-queries';
import { getProposal } from '../pool/pool-queries';
import type { OfflineJob, OfflinePairingResult } from './offline';
import { offlineJobOf } from './offline-engine';
import { offlinePairingOffThread } from './offline-pool';
import { alternativesFor, type PoolProposal } from './alternatives';
import { isControlTask } from './run-planner';
import { storeTaskPairing, type RunRecord, type TaskRow } from './run-queries';
import type { OfferedProposal, Stage2Offer } from './stage-prompts';

/**
 * Which proposal a model's Stage 2 task asks about, decided by the server once, before its first
 * request (shared/generation/pairing.ts says what each decision means). The offline rules decide
 * it as they do for their own items, on the offline pool's thread: the question's program and
 * each proposal's operation, the task's proposal first, then the pool's other active proposals
 * least used first — the first whose operation, consistent with the proposal and passing every
 * check, moves (for a control task, keeps) the answer is the pairing. A question the rules cannot
 * program gets a short list to choose from instead; one they programmed that no operation can
 * move, no request at all. Without this, half the model's requests paired a question with a
 * proposal that could not change its answer, and the model could only fail.
 */

/** Words of an operation that adds, removes or merges rows or series: what a count of them needs. */
const ROW_CHANGE_WORDS = /\b(remov|delet|drop|exclud|omit|eliminat|merg|combin|split|add|new|extra|additional|another|join)\w*/i;

/** What the rules' decision becomes: their proposal, a list for the model, or none. */
export function pairingFrom(result: OfflinePairingResult, proposal: PoolProposal, alternatives: readonly PoolProposal[]): Pairing {
  if (result.ok) return { kind: 'paired', proposalId: result.proposalId };
  switch (result.cause) {
    case 'unprogrammable':
      return { kind: 'choose', candidateIds: candidatesFor(proposal, alternatives, result.movers ?? []).map((candidate) => candidate.id) };
    case 'unreadable_operations':
      // The rules read no proposal they tried, so none is known to work better than another: the least used.
      return { kind: 'choose', candidateIds: [proposal, ...alternatives].slice(0, MAX_CANDIDATES).map((candidate) => candidate.id) };
    case 'no_operation': {
      // No operation the rules can read moves this answer; one they cannot read (a merge, a
      // re-normalisation) a model may still perform: those are offered, with the way to decline.
      // A count of the chart's rows or series moves only when one is added, removed or merged away:
      // "set each group's shortest bar to its tallest" would be sent for the model to decline.
      const unread = [proposal, ...alternatives]
        .filter((candidate) => parseIntent(candidate.text).kind === null && (result.countsRows !== true || ROW_CHANGE_WORDS.test(candidate.text)))
        .slice(0, MAX_CANDIDATES);
      if (unread.length > 0) return { kind: 'choose', candidateIds: unread.map((candidate) => candidate.id) };
      return { kind: 'none', reason: `no proposal can change this answer, so no request was sent: the offline rules found ${result.reason}` };
    }
    case 'label_disagrees':
    case 'answer_given_away':
    case 'about_the_drawing':
      return { kind: 'none', reason: `no request was sent: ${result.reason}` };
    case 'no_numbers':
      return { kind: 'none', reason: `no proposal can change this answer, so no request was sent: the offline rules found ${result.reason}` };
  }
}

/**
 * The proposals a `choose` request lists, at most MAX_CANDIDATES: first those whose operation
 * moved the answer of a program reproducing the label (`movers`, label-reading.ts), then the
 * task's own, then the least used others whose operation the rules can read (a model can perform
 * more than the rules, but an operation no reader can name is the likeliest to be vague).
 */
export function candidatesFor(proposal: PoolProposal, alternatives: readonly PoolProposal[], movers: readonly number[] = []): PoolProposal[] {
  const all = [proposal, ...alternatives];
  const moving = movers.flatMap((id) => all.filter((candidate) => candidate.id === id).slice(0, 1));
  const readable = alternatives.filter((alternative) => parseIntent(alternative.text).kind !== null);
  const ordered = [...moving, proposal, ...readable];
  return ordered.filter((candidate, index) => ordered.findIndex((other) => other.id === candidate.id) === index).slice(0, MAX_CANDIDATES);
}

/** The pairing job for the offline pool: the rules' input, seeded by the task as the offline engine seeds its own. */
export async function decidePairing(input: { source: QaWithChart; proposal: PoolProposal; alternatives: readonly PoolProposal[]; control: boolean; seed: number; maxChangeShare?: number }): Promise<Pairing> {
  const job: OfflineJob = offlineJobOf({ source: input.source, proposal: input.proposal, alternatives: input.alternatives, control: input.control, seed: input.seed, maxChangeShare: input.maxChangeShare });
  return pairingFrom(await offlinePairingOffThread(job), input.proposal, input.alternatives);
}

/**
 * A model item task's pairing: the one stored on the task, else decided now and stored (pair
 * once: a retry, a resumed run and a batch file read back offer what the first request did).
 * Call only for a task whose chart has a table (`noTableReason` first).
 */
export async function pairTask(db: Db, run: RunRecord, task: TaskRow, settings: Settings): Promise<Pairing> {
  if (task.pairing) return task.pairing;
  const { source, proposal } = taskSubject(db, task);
  const types = source.group ? [...new Set(source.group.charts.map((member) => member.chart_type))] : [source.chart.chart_type];
  const planned: PoolProposal = { id: proposal.id, text: proposal.text, chartType: proposal.chart_type };
  const alternatives = alternativesFor(db, run, types, { ...planned, scope: proposal.scope });
  const control = isControlTask(task.id, settings.unchanged_control_share);
  const decided = await decidePairing({ source, proposal: planned, alternatives, control, seed: task.id, maxChangeShare: settings.max_change_share });
  return storeTaskPairing(db, task.id, decided);
}

/** An item task's QA (with its chart or group) and planned proposal, or an error naming the task. */
export function taskSubject(db: Db, task: TaskRow): { source: QaWithChart; proposal: NonNullable<ReturnType<typeof getProposal>> } {
  const source = task.qa_id === null ? null : getQaWithChart(db, task.qa_id);
  const proposal = task.proposal_id === null ? null : getProposal(db, task.proposal_id);
  if (!source || !proposal) throw new Error(`task ${task.id}: its QA or proposal no longer exists`);
  return { source, proposal };
}

/** What a request for a paired or choose task offers, its proposals read from the pool (never deleted, only retired). */
export function offerOf(db: Db, task: TaskRow, pairing: Extract<Pairing, { kind: 'paired' | 'choose' }>): Stage2Offer {
  const offered = (id: number): OfferedProposal => {
    const proposal = getProposal(db, id);
    if (!proposal) throw new Error(`task ${task.id}: proposal ${id} of its pairing no longer exists`);
    return { id: proposal.id, text: proposal.text, chart_type: proposal.chart_type satisfies ChartType };
  };
  return pairing.kind === 'paired' ? { kind: 'paired', proposal: offered(pairing.proposalId) } : { kind: 'choose', candidates: pairing.candidateIds.map(offered) };
}
