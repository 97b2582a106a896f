import type { ChartGroupChange } from '../../shared/events';
import type { ChartSummary } from '../../shared/api/charts';
import type { ImportReport } from '../../shared/api/import';
import type { EditableItemField, ItemComment } from '../../shared/api/item-discussion';
import type { ItemSummary } from '../../shared/api/items';
import type { Proposal } from '../../shared/api/pool';
import type { SplitSummary } from '../../shared/api/splits';
import type { EvalMode } from '../../shared/api/evaluations';
import type { ImportFormat } from '../../shared/domain/benchmark-fields';
import type { ItemStatus } from '../../shared/domain/generation';
import type { ExportFormat } from '../../shared/export/chart-hqa';
import type { Decision, LeaseEndReason } from '../../shared/domain/review';
import type { Role } from '../../shared/domain/roles';
import type { Settings } from '../../shared/settings';
import type { EvalCondition } from '../../shared/eval/conditions';
import type { ChartType } from '../../shared/domain/chart-types';
import type { ReverifyCounts } from '../review/chart-reverify';
import type { ChartTypeState } from '../chart-types/chart-type-queries';

/** A lease that ended without a review: its holder, and why when the workbench ended it. */
export interface EndedLease {
  readonly item_id: number;
  readonly reviewer_id: number;
  readonly reason?: LeaseEndReason;
}

/**
 * What a command's write did, as the command says it inside its transaction: event name →
 * payload. Subscribers (`subscribers.ts`) turn these into after-effects; a command never
 * publishes, audits or calls another domain itself. Names read `entity.pastTenseVerb`, like the
 * socket events (`shared/events.ts`) several of them become, which stay the clients' contract.
 */
export interface DomainEventMap {
  /** A reviewer took the item (a resumed lease is no claim). */
  'item.claimed': { readonly item_id: number; readonly reviewer_id: number };
  /** A reviewer fetched their next item ahead of deciding the one they hold. */
  'item.prefetched': { readonly item_id: number; readonly reviewer_id: number };
  /** The holder gave the lease back. */
  'lease.released': { readonly item_id: number };
  /** Leases ended without a review: expired, or ended by a curator's or an admin's change. */
  'leases.ended': { readonly leases: readonly EndedLease[] };
  /**
   * A reviewer's review was stored. `item_status`: the item's status after it; null for a gold
   * item's review, compared with gold and counted nowhere.
   */
  'item.reviewed': {
    readonly item_id: number;
    readonly reviewer_id: number;
    readonly review_id: number;
    readonly decision: Decision;
    readonly item_status: ItemStatus | null;
  };
  /** A reviewer took their review back within its window; `from`: the item's status before. */
  'review.undone': { readonly item_id: number; readonly reviewer_id: number; readonly review_id: number; readonly from: ItemStatus | null };
  /** A curator decided an item the reviews left to adjudication (or decided otherwise); `from`: its status before. */
  'item.adjudicated': { readonly item_id: number; readonly curator_id: number; readonly decision: Decision; readonly from: ItemStatus };
  /**
   * The item's status changed by review: a submit, an undo, an adjudication, a re-queue or a
   * change of the reviews per item. `sealed_from`: the reviewers not to be told (blind review).
   */
  'item.decided': { readonly item_id: number; readonly status: ItemStatus; readonly sealed_from: readonly number[] };
  /** A gold item's review was compared with gold: its status did not change; `shown` is what its reviewer sees. */
  'gold.reviewed': { readonly item_id: number; readonly reviewer_id: number; readonly shown: ItemStatus };
  /** A gold review was taken back: the item is its reviewer's task again. */
  'gold.undone': { readonly item_id: number; readonly reviewer_id: number };
  /** A user logged in: a session was opened for them. */
  'login.succeeded': { readonly user_id: number };
  /** A login was refused; `user_id`: the user the name tried belongs to, null for a name no user has. */
  'login.failed': { readonly username: string; readonly user_id: number | null };
  /** A session ended by logout: its sockets are gone with it. */
  'session.ended': { readonly session_id: string };
  /** An account was made; `actor_id`: the admin who made it, null for the CLI or first start (so for every `actor_id` below). */
  'user.created': { readonly actor_id: number | null; readonly user_id: number; readonly username: string; readonly role: Role };
  'user.role_changed': { readonly actor_id: number | null; readonly user_id: number; readonly from: Role; readonly to: Role };
  /** A user was disabled: their sessions ended and their personal assignments were dropped with it. */
  'user.disabled': { readonly actor_id: number | null; readonly user_id: number; readonly revoked_sessions: number; readonly items_unassigned: number };
  'user.enabled': { readonly actor_id: number | null; readonly user_id: number };
  'user.sessions_revoked': { readonly actor_id: number | null; readonly user_id: number; readonly revoked_sessions: number };
  /** A user was given a generated password (never in the payload) and their sessions ended. */
  'user.password_reset': { readonly actor_id: number | null; readonly user_id: number; readonly revoked_sessions: number };
  /** The user's access changed (role, disabled, sessions ended, password reset): what their open sockets were opened as is gone. */
  'user.access_changed': { readonly user_id: number };
  /** A curator made a named queue of reviewers. */
  'queue.created': { readonly curator_id: number; readonly queue_id: number; readonly name: string };
  'queue.renamed': { readonly curator_id: number; readonly queue_id: number; readonly from: string; readonly to: string };
  /** A queue was deleted; its `items_unassigned` are the general queue's again. */
  'queue.deleted': { readonly curator_id: number; readonly queue_id: number; readonly name: string; readonly members: number; readonly items_unassigned: number };
  'queue.member_added': { readonly curator_id: number; readonly queue_id: number; readonly user_id: number };
  'queue.member_removed': { readonly curator_id: number; readonly queue_id: number; readonly user_id: number };
  /** An item was assigned to one reviewer or to a queue (one of the two ids is null). */
  'item.assigned': { readonly curator_id: number; readonly item_id: number; readonly reviewer_id: number | null; readonly queue_id: number | null };
  /** An item lost its assignment: what it was assigned to. */
  'item.unassigned': { readonly curator_id: number; readonly item_id: number; readonly reviewer_id: number | null; readonly queue_id: number | null };
  /** An item was taken out of review; `reason`: the curator's, '' when none was given. */
  'item.retired': { readonly curator_id: number; readonly item_id: number; readonly reason: string };
  'item.restored': { readonly curator_id: number; readonly item_id: number };
  /** An accepted item was marked gold (in a bulk action). */
  'item.gold_marked': { readonly curator_id: number; readonly item_id: number };
  /**
   * A change of the reviews per item (`k_from` → `k_to`) made an item's standing reviews enough to
   * decide it; `actor_id`: who changed it. Its `item.decided` follows for the sockets.
   */
  'item.decided_by_reviews_per_item': {
    readonly actor_id: number | null;
    readonly item_id: number;
    readonly k_from: number;
    readonly k_to: number;
    readonly standing_reviews: number;
    readonly item_status: ItemStatus;
    readonly leases_ended: number;
  };
  /** Queues or assignments changed what reviewers may be served (`items` moved, maybe none). */
  'assignment.changed': { readonly items: number };
  /** An item was stored: written by hand, or made by a generation run (call by call or from a batch's results). */
  'item.created': { readonly item: ItemSummary };
  /**
   * A curator edited the item's assumption, question or answer (verified again in the same write):
   * `edit_id` the edit kept in its history, `fields` those it changed, `reason` the curator's.
   */
  'item.edited': { readonly item_id: number; readonly editor_id: number; readonly edit_id: number; readonly fields: readonly EditableItemField[]; readonly reason: string };
  /**
   * A comment on an item. `staff_only`: blind to some reviewer, so pushed to curators (and its
   * author's own pages) only; `notify`: the users it mentions who may read it, its author aside.
   */
  'comment.posted': {
    readonly comment: ItemComment;
    readonly staff_only: boolean;
    readonly author_id: number;
    /** The usernames of the users it mentions who may read it, as the audit log names them. */
    readonly mentioned: readonly string[];
    readonly notify: readonly number[];
  };
  /** An admin changed settings; `changed`: the values sent, as sent. */
  'settings.updated': { readonly actor_id: number | null; readonly changed: Partial<Settings> };
  /** Proposals entered the pool (seeds, Stage 1, revisions; duplicates too: the Pool page lists them). */
  'proposals.added': { readonly proposals: readonly Proposal[] };
  /** A proposal's text or status changed: a curator's edit, or retired for failing items. */
  'proposal.changed': { readonly proposal: Proposal };
  /** A chart changed as its lists show it (a curator's type decision, or its undo). */
  'chart.updated': { readonly chart: ChartSummary };
  /** A generation run was created to run `stage` with `engine` and `model`; `actor_id`: null for the CLI. */
  'run.created': { readonly actor_id: number | null; readonly run_id: number; readonly engine: string; readonly model: string; readonly stage: string };
  /** A paused run was set going again (its orphaned tasks requeued in the same write). */
  'run.resumed': { readonly actor_id: number | null; readonly run_id: number };
  /** A person stopped a run: paused (it may be resumed) or cancelled. */
  'run.stopped': { readonly actor_id: number | null; readonly run_id: number; readonly to: 'paused' | 'cancelled' };
  /** An evaluation run was created with its `questions` stored. */
  'eval_run.created': {
    readonly actor_id: number | null;
    readonly run_id: number;
    readonly model: string;
    readonly engine: string;
    readonly mode: EvalMode;
    readonly conditions: readonly EvalCondition[];
    readonly questions: number;
    readonly batch: boolean;
  };
  /** A paused evaluation run was queued again; `reason`: why it had paused. */
  'eval_run.resumed': { readonly actor_id: number | null; readonly run_id: number; readonly model: string; readonly reason: string | null };
  /** An evaluation run was cancelled; `was`: its status before. */
  'eval_run.cancelled': { readonly actor_id: number | null; readonly run_id: number; readonly model: string; readonly was: string };
  /** An extraction job was created over `charts` charts. */
  'extraction_job.created': {
    readonly actor_id: number | null;
    readonly job_id: number;
    readonly model: string;
    readonly split: string | null;
    readonly chart_type: ChartType | null;
    readonly force: boolean;
    readonly charts: number;
  };
  /** A chart-type job was created over `charts` charts. */
  'chart_type_job.created': { readonly actor_id: number | null; readonly job_id: number; readonly model: string; readonly split: string | null; readonly charts: number };
  /** A curator saved a chart's table (confirmed); `changed`: it differed from the stored one, `was`: the stored one's source and confirmation; its items verified again. */
  'chart.table_saved': {
    readonly actor_id: number | null;
    readonly chart_id: number;
    readonly changed: boolean;
    readonly source: string;
    readonly was: { readonly source: string | null; readonly confirmed: boolean };
    readonly rows: number;
    readonly series: number;
    readonly reverified: ReverifyCounts;
  };
  /** A curator set a chart's type (`chart`: its name): the type before and after, so it can be undone. */
  'chart.type_changed': { readonly actor_id: number | null; readonly chart_id: number; readonly chart: string; readonly from: ChartTypeState; readonly to: ChartTypeState };
  /** A curator's latest type decision (audit entry `undoes`) was undone: the chart is back `to` the type before it. */
  'chart.type_change_undone': {
    readonly actor_id: number | null;
    readonly chart_id: number;
    readonly chart: string;
    readonly from: ChartTypeState;
    readonly to: ChartTypeState;
    readonly undoes: number;
  };
  /** A curator confirmed (or took back the confirmation of) the stored table as it is; `source`: whose it is. */
  'chart.table_confirmed': { readonly actor_id: number | null; readonly chart_id: number; readonly source: string | null };
  'chart.table_unconfirmed': { readonly actor_id: number | null; readonly chart_id: number; readonly source: string | null };
  /** A chart group was created, edited, given a question or deleted; `chart_ids`: the charts whose pages show it. */
  'chart_group.changed': { readonly group_id: number; readonly change: ChartGroupChange; readonly chart_ids: readonly number[] };
  /** A curator downloaded an export from the Export page, written whole; `items`: how many it held. */
  'export.downloaded': { readonly actor_id: number; readonly format: ExportFormat; readonly name: string; readonly full: boolean; readonly items: number };
  /** A curator downloaded the Hugging Face dataset zip, sent whole. */
  'hf_dataset.downloaded': { readonly actor_id: number; readonly name: string; readonly items: number; readonly images: number };
  /**
   * A folder of a benchmark was imported into `split` (the CLI, or an upload in its thread), with
   * what it counted; `actor_id`: who uploaded it, null for the CLI.
   */
  'folder.imported': {
    readonly actor_id: number | null;
    readonly split: string;
    readonly format: ImportFormat;
    readonly charts_imported: number;
    readonly charts_updated: number;
    readonly qas_imported: number;
    readonly items_requeued: number;
    readonly errors: number;
  };
  /** Predictions made elsewhere were stored as a finished evaluation run; `actor_id`: null for the CLI. */
  'eval_run.imported': { readonly actor_id: number | null; readonly run_id: number; readonly model: string; readonly mode: EvalMode; readonly predictions: number };
  /** A curator made a chart group of these charts (in this order). */
  'chart_group.created': { readonly actor_id: number; readonly group_id: number; readonly split: string; readonly name: string; readonly chart_ids: readonly number[] };
  /** A group was renamed or reordered: each change before and after. */
  'chart_group.edited': {
    readonly actor_id: number;
    readonly group_id: number;
    readonly changes: { readonly name?: { before: string; after: string }; readonly chart_ids?: { before: number[]; after: number[] } };
  };
  'chart_group.question_added': { readonly actor_id: number; readonly group_id: number; readonly qa_id: number; readonly query: string; readonly label: string };
  /** A curator's group was deleted with its `questions`. */
  'chart_group.deleted': { readonly actor_id: number; readonly group_id: number; readonly split: string; readonly name: string; readonly questions: number };
  /** A split's display label changed (null: none). */
  'split.relabelled': { readonly actor_id: number; readonly name: string; readonly from: string | null; readonly to: string | null };
  'split.archived': { readonly actor_id: number; readonly name: string };
  'split.unarchived': { readonly actor_id: number; readonly name: string };
  'split.updated': { readonly split: SplitSummary };
  /** A split nothing was made from was deleted, with what it `deleted`. */
  'split.deleted': { readonly name: string; readonly actor_id: number; readonly deleted: { readonly charts: number; readonly questions: number; readonly groups: number } };
  /** A split was imported (uploaded in the browser); `actor_id`: who uploaded it. */
  'split.imported': { readonly report: ImportReport; readonly actor_id: number | null };
}

export type DomainEventType = keyof DomainEventMap;

/** One event: its type and its payload, as the union a subscriber of several types can narrow. */
export type DomainEvent = { [T in DomainEventType]: { readonly type: T; readonly payload: DomainEventMap[T] } }[DomainEventType];

/** Every event type, in the order the subscriber table lists them. */
export const DOMAIN_EVENT_TYPES = [
  'item.claimed',
  'item.prefetched',
  'lease.released',
  'leases.ended',
  'item.reviewed',
  'review.undone',
  'item.adjudicated',
  'item.decided',
  'gold.reviewed',
  'gold.undone',
  'login.succeeded',
  'login.failed',
  'session.ended',
  'user.created',
  'user.role_changed',
  'user.disabled',
  'user.enabled',
  'user.sessions_revoked',
  'user.password_reset',
  'user.access_changed',
  'queue.created',
  'queue.renamed',
  'queue.deleted',
  'queue.member_added',
  'queue.member_removed',
  'item.assigned',
  'item.unassigned',
  'item.retired',
  'item.restored',
  'item.gold_marked',
  'item.decided_by_reviews_per_item',
  'assignment.changed',
  'item.created',
  'item.edited',
  'comment.posted',
  'settings.updated',
  'proposals.added',
  'proposal.changed',
  'run.created',
  'run.resumed',
  'run.stopped',
  'eval_run.created',
  'eval_run.resumed',
  'eval_run.cancelled',
  'extraction_job.created',
  'chart_type_job.created',
  'chart.type_changed',
  'chart.type_change_undone',
  'chart.table_saved',
  'chart.table_confirmed',
  'chart.table_unconfirmed',
  'chart.updated',
  'chart_group.changed',
  'export.downloaded',
  'hf_dataset.downloaded',
  'folder.imported',
  'eval_run.imported',
  'chart_group.created',
  'chart_group.edited',
  'chart_group.question_added',
  'chart_group.deleted',
  'split.relabelled',
  'split.archived',
  'split.unarchived',
  'split.updated',
  'split.deleted',
  'split.imported',
] as const satisfies readonly DomainEventType[];
