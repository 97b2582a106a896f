import { pino } from 'pino';
import type { Db } from '../../db/database';
import type { AppContext } from '../app-context';
import { recordAudit, type AuditRecord } from '../audit/audit-log';
import type { ChartTypeJobs } from '../chart-types/chart-type-jobs';
import type { FeedbackLoop } from '../reflection/reflection-service';
import type { ReflectionBatches } from '../reflection/reflection-batches';
import type { ReviewEvents } from '../review/review-events';
import type { DomainEventMap, DomainEventType } from './domain-events';
import { DomainEvents } from './event-bus';
import { getEvalRun, publicEvalRun } from '../eval/eval-queries';
import { getRun, publicRun } from '../generation/run-queries';

/** What the after-effects reach: sockets (through `publish` and review's throttled events), the feedback loop and jobs. */
export interface SubscriberTargets {
  /** The audit log's database: its entries are written inside the write they record. */
  readonly db: AppContext['db'];
  readonly publish: AppContext['publish'];
  readonly publishTo: AppContext['publishTo'];
  readonly disconnectSockets: AppContext['disconnectSockets'];
  readonly reviewEvents: Pick<ReviewEvents, 'claimed' | 'prefetched' | 'released' | 'decided' | 'reviewed' | 'goldReviewed' | 'goldUndone' | 'expired'>;
  readonly feedbackLoop: Pick<FeedbackLoop, 'itemDecided'>;
  readonly reflectionBatches: Pick<ReflectionBatches, 'startAutomatic'>;
  readonly chartTypeJobs: Pick<ChartTypeJobs, 'launchAfterImport'>;
}

const settled = (status: string) => status === 'accepted' || status === 'rejected';

/**
 * Every after-effect of every domain event, in one place (`subscribers.test.ts` pins the table):
 * an effect added anywhere else is a second way to do it.
 */
export function registerSubscribers(events: DomainEvents, to: SubscriberTargets): void {
  const { publish, publishTo, reviewEvents: review } = to;
  registerAuditSubscribers(events, to.db);

  events.on('item.claimed', 'after_commit', 'socket: item.claimed', (e) => review.claimed(e.item_id, e.reviewer_id));
  events.on('item.prefetched', 'after_commit', 'socket: queue counts', () => review.prefetched());
  events.on('lease.released', 'after_commit', 'socket: item.released', (e) => review.released(e.item_id));
  events.on('leases.ended', 'after_commit', 'socket: lease.expired to holders, item.released', (e) => review.expired(e.leases));
  events.on('item.reviewed', 'after_commit', "socket: review.submitted to the reviewer's tabs", (e) => review.reviewed(e.item_id, e.reviewer_id, e.review_id));
  events.on('item.decided', 'after_commit', 'socket: item.decided, sealed', (e) => review.decided(e.item_id, e.status, e.sealed_from));
  // Review settles an item, the feedback loop takes it from there: review imports no reflection.
  events.on('item.decided', 'after_commit', 'reflection: retire or start automatic reflection', (e) => {
    if (!settled(e.status)) return;
    const due = to.feedbackLoop.itemDecided(e.item_id);
    if (due !== null) to.reflectionBatches.startAutomatic(due);
  });
  events.on('gold.reviewed', 'after_commit', 'socket: item.released, gold shown to its reviewer', (e) => review.goldReviewed(e.item_id, e.reviewer_id, e.shown));
  events.on('gold.undone', 'after_commit', 'socket: in review again, claimed', (e) => review.goldUndone(e.item_id, e.reviewer_id));

  events.on('session.ended', 'after_commit', "socket: close the session's open sockets", (e) => to.disconnectSockets({ sessionId: e.session_id }));
  // A client still signed in reconnects as who it is now.
  events.on('user.access_changed', 'after_commit', "socket: close the user's open sockets", (e) => to.disconnectSockets({ userId: e.user_id }));
  events.on('assignment.changed', 'after_commit', 'socket: assignment.changed', (e) => publish('assignment.changed', { items: e.items }));

  events.on('item.created', 'after_commit', 'socket: item.created', (e) => publish('item.created', { item: e.item }));
  events.on('item.edited', 'after_commit', 'socket: item.edited', (e) => publish('item.edited', { item_id: e.item_id }));
  events.on('comment.posted', 'after_commit', 'socket: comment.created, comment.mentioned to the named', (e) => {
    publish('comment.created', { comment: e.comment, staff_only: e.staff_only });
    // Reviewers do not get a staff-only comment (audiences.ts); its author's other pages still do.
    if (e.staff_only) publishTo(e.author_id, 'comment.created', { comment: e.comment, staff_only: e.staff_only });
    for (const userId of e.notify) publishTo(userId, 'comment.mentioned', { comment: e.comment });
  });

  events.on('proposals.added', 'after_commit', 'socket: proposal.created', (e) => {
    for (const proposal of e.proposals) publish('proposal.created', { proposal });
  });
  events.on('proposal.changed', 'after_commit', 'socket: proposal.updated', (e) => publish('proposal.updated', { proposal: e.proposal }));
  events.on('chart.updated', 'after_commit', 'socket: chart.updated', (e) => publish('chart.updated', { chart: e.chart }));
  events.on('chart_group.changed', 'after_commit', 'socket: chart_group.changed', (e) =>
    publish('chart_group.changed', { group_id: e.group_id, change: e.change, chart_ids: [...e.chart_ids] }),
  );

  events.on('run.created', 'after_commit', 'socket: run.created', (e) => {
    const run = getRun(to.db, e.run_id);
    if (run) publish('run.created', { run: publicRun(run) });
  });
  // A new evaluation run, started or imported, as the Evaluation page lists it.
  const evalCreated = (runId: number) => {
    const run = getEvalRun(to.db, runId);
    if (run) publish('eval.created', { run: publicEvalRun(to.db, run) });
  };
  events.on('eval_run.created', 'after_commit', 'socket: eval.created', (e) => evalCreated(e.run_id));
  events.on('eval_run.imported', 'after_commit', 'socket: eval.created', (e) => evalCreated(e.run_id));

  events.on('split.updated', 'after_commit', 'socket: split.updated', (e) => publish('split.updated', { split: e.split }));
  events.on('split.deleted', 'after_commit', 'socket: split.deleted', (e) => publish('split.deleted', { name: e.name }));
  events.on('split.imported', 'after_commit', 'socket: charts.imported', (e) => publish('charts.imported', { report: e.report }));
  // PNG charts whose type only their table suggests: the vision model, when there is one, is asked now.
  events.on('split.imported', 'after_commit', 'chart types: launch the vision job', (e) => void to.chartTypeJobs.launchAfterImport(e.report.split, e.actor_id));
}

/**
 * The audit log's entries, each written by an `in_transaction` subscriber so it commits with the
 * change it records. Part of `registerSubscribers`; alone in a process with no sockets or jobs
 * (the CLI, first start: `auditedEvents`), whose writes are audited all the same.
 */
export function registerAuditSubscribers(events: DomainEvents, db: Db): void {
  /** The entry of `type`, named for its action (`audit: <action>`) in the subscriber table. */
  const audit = <T extends DomainEventType>(type: T, action: AuditRecord['action'], entry: (e: DomainEventMap[T]) => Omit<AuditRecord, 'action'> | null) =>
    events.on(type, 'in_transaction', `audit: ${action}`, (e) => {
      const record = entry(e);
      if (record !== null) recordAudit(db, { ...record, action });
    });

  // A gold item's review is compared with gold, not counted: the log records reviews that count.
  audit('item.reviewed', 'review.submitted', (e) =>
    e.item_status === null
      ? null
      : { actor_id: e.reviewer_id, target_type: 'item', target_id: e.item_id, details: { review_id: e.review_id, decision: e.decision, item_status: e.item_status } },
  );
  audit('review.undone', 'review.undone', (e) => ({ actor_id: e.reviewer_id, target_type: 'item', target_id: e.item_id, details: { review_id: e.review_id, from: e.from } }));
  audit('item.adjudicated', 'item.adjudicated', (e) => ({ actor_id: e.curator_id, target_type: 'item', target_id: e.item_id, details: { decision: e.decision, from: e.from } }));

  audit('item.decided_by_reviews_per_item', 'item.decided', (e) => ({
    actor_id: e.actor_id,
    target_type: 'item',
    target_id: e.item_id,
    details: { cause: 'reviews_per_item_changed', k_from: e.k_from, k_to: e.k_to, standing_reviews: e.standing_reviews, item_status: e.item_status, leases_ended: e.leases_ended },
  }));
  audit('queue.created', 'queue.created', (e) => ({ actor_id: e.curator_id, target_type: 'queue', target_id: e.queue_id, details: { name: e.name } }));
  audit('queue.renamed', 'queue.renamed', (e) => ({ actor_id: e.curator_id, target_type: 'queue', target_id: e.queue_id, details: { from: e.from, to: e.to } }));
  audit('queue.deleted', 'queue.deleted', (e) => ({
    actor_id: e.curator_id,
    target_type: 'queue',
    target_id: e.queue_id,
    details: { name: e.name, members: e.members, items_unassigned: e.items_unassigned },
  }));
  audit('queue.member_added', 'queue.member_added', (e) => ({ actor_id: e.curator_id, target_type: 'queue', target_id: e.queue_id, details: { user_id: e.user_id } }));
  audit('queue.member_removed', 'queue.member_removed', (e) => ({ actor_id: e.curator_id, target_type: 'queue', target_id: e.queue_id, details: { user_id: e.user_id } }));
  audit('item.assigned', 'item.assigned', (e) => ({ actor_id: e.curator_id, target_type: 'item', target_id: e.item_id, details: { reviewer_id: e.reviewer_id, queue_id: e.queue_id } }));
  audit('item.unassigned', 'item.unassigned', (e) => ({ actor_id: e.curator_id, target_type: 'item', target_id: e.item_id, details: { reviewer_id: e.reviewer_id, queue_id: e.queue_id } }));
  audit('item.retired', 'item.retired', (e) => ({ actor_id: e.curator_id, target_type: 'item', target_id: e.item_id, details: e.reason === '' ? {} : { reason: e.reason } }));
  audit('item.restored', 'item.restored', (e) => ({ actor_id: e.curator_id, target_type: 'item', target_id: e.item_id }));
  audit('item.gold_marked', 'item.gold_marked', (e) => ({ actor_id: e.curator_id, target_type: 'item', target_id: e.item_id }));

  audit('item.edited', 'item.edited', (e) => ({ actor_id: e.editor_id, target_type: 'item', target_id: e.item_id, details: { edit_id: e.edit_id, fields: e.fields, reason: e.reason } }));
  audit('comment.posted', 'comment.posted', (e) => ({
    actor_id: e.author_id,
    target_type: 'item',
    target_id: e.comment.item_id,
    details: { comment_id: e.comment.id, mentioned: e.mentioned },
  }));
  audit('settings.updated', 'settings.updated', (e) => ({ actor_id: e.actor_id, target_type: 'settings', details: { changed: e.changed } }));
  audit('export.downloaded', 'export.downloaded', (e) => ({
    actor_id: e.actor_id,
    target_type: 'export',
    target_id: e.format,
    details: { format: e.format, name: e.name, full: e.full, items: e.items },
  }));
  audit('hf_dataset.downloaded', 'export.downloaded', (e) => ({
    actor_id: e.actor_id,
    target_type: 'export',
    target_id: 'hf-dataset',
    details: { format: 'hf-dataset', name: e.name, items: e.items, images: e.images },
  }));
  audit('folder.imported', 'split.imported', (e) => ({
    actor_id: e.actor_id,
    target_type: 'split',
    target_id: e.split,
    details: {
      format: e.format,
      charts_imported: e.charts_imported,
      charts_updated: e.charts_updated,
      qas_imported: e.qas_imported,
      items_requeued: e.items_requeued,
      errors: e.errors,
    },
  }));
  audit('eval_run.imported', 'eval.imported', (e) => ({
    actor_id: e.actor_id,
    target_type: 'eval_run',
    target_id: e.run_id,
    details: { model: e.model, mode: e.mode, predictions: e.predictions },
  }));
  audit('run.created', 'run.started', (e) => ({ actor_id: e.actor_id, target_type: 'run', target_id: e.run_id, details: { engine: e.engine, model: e.model, stage: e.stage } }));
  audit('run.resumed', 'run.resumed', (e) => ({ actor_id: e.actor_id, target_type: 'run', target_id: e.run_id }));
  audit('run.stopped', 'run.paused', (e) => (e.to === 'paused' ? { actor_id: e.actor_id, target_type: 'run', target_id: e.run_id } : null));
  audit('run.stopped', 'run.cancelled', (e) => (e.to === 'cancelled' ? { actor_id: e.actor_id, target_type: 'run', target_id: e.run_id } : null));
  audit('eval_run.created', 'eval.started', (e) => ({
    actor_id: e.actor_id,
    target_type: 'eval_run',
    target_id: e.run_id,
    details: { model: e.model, engine: e.engine, mode: e.mode, conditions: e.conditions, questions: e.questions, batch: e.batch },
  }));
  audit('eval_run.resumed', 'eval.resumed', (e) => ({ actor_id: e.actor_id, target_type: 'eval_run', target_id: e.run_id, details: { model: e.model, reason: e.reason } }));
  audit('eval_run.cancelled', 'eval.cancelled', (e) => ({ actor_id: e.actor_id, target_type: 'eval_run', target_id: e.run_id, details: { model: e.model, was: e.was } }));
  audit('extraction_job.created', 'extraction.started', (e) => ({
    actor_id: e.actor_id,
    target_type: 'extraction_job',
    target_id: e.job_id,
    details: { model: e.model, split: e.split, chart_type: e.chart_type, force: e.force, charts: e.charts },
  }));
  audit('chart_type_job.created', 'chart_type_job.started', (e) => ({
    actor_id: e.actor_id,
    target_type: 'chart_type_job',
    target_id: e.job_id,
    details: { model: e.model, split: e.split, charts: e.charts },
  }));
  audit('chart.table_saved', 'chart.table_saved', (e) => ({
    actor_id: e.actor_id,
    target_type: 'chart',
    target_id: e.chart_id,
    details: { changed: e.changed, source: e.source, was: e.was, rows: e.rows, series: e.series, ...e.reverified },
  }));
  audit('chart.type_changed', 'chart.type_changed', (e) => ({ actor_id: e.actor_id, target_type: 'chart', target_id: e.chart_id, details: { chart: e.chart, from: e.from, to: e.to } }));
  audit('chart.type_change_undone', 'chart.type_change_undone', (e) => ({
    actor_id: e.actor_id,
    target_type: 'chart',
    target_id: e.chart_id,
    details: { chart: e.chart, from: e.from, to: e.to, undoes: e.undoes },
  }));
  audit('chart.table_confirmed', 'chart.table_confirmed', (e) => ({ actor_id: e.actor_id, target_type: 'chart', target_id: e.chart_id, details: { source: e.source } }));
  audit('chart.table_unconfirmed', 'chart.table_unconfirmed', (e) => ({ actor_id: e.actor_id, target_type: 'chart', target_id: e.chart_id, details: { source: e.source } }));
  audit('chart_group.created', 'chart_group.created', (e) => ({
    actor_id: e.actor_id,
    target_type: 'chart_group',
    target_id: e.group_id,
    details: { split: e.split, name: e.name, chart_ids: e.chart_ids },
  }));
  audit('chart_group.edited', 'chart_group.edited', (e) => ({ actor_id: e.actor_id, target_type: 'chart_group', target_id: e.group_id, details: e.changes }));
  audit('chart_group.question_added', 'chart_group.question_added', (e) => ({
    actor_id: e.actor_id,
    target_type: 'chart_group',
    target_id: e.group_id,
    details: { qa_id: e.qa_id, query: e.query, label: e.label },
  }));
  audit('chart_group.deleted', 'chart_group.deleted', (e) => ({
    actor_id: e.actor_id,
    target_type: 'chart_group',
    target_id: e.group_id,
    details: { split: e.split, name: e.name, questions: e.questions },
  }));
  audit('split.relabelled', 'split.relabelled', (e) => ({ actor_id: e.actor_id, target_type: 'split', target_id: e.name, details: { from: e.from, to: e.to } }));
  audit('split.archived', 'split.archived', (e) => ({ actor_id: e.actor_id, target_type: 'split', target_id: e.name }));
  audit('split.unarchived', 'split.unarchived', (e) => ({ actor_id: e.actor_id, target_type: 'split', target_id: e.name }));
  audit('split.deleted', 'split.deleted', (e) => ({ actor_id: e.actor_id, target_type: 'split', target_id: e.name, details: e.deleted }));
  audit('login.succeeded', 'login.succeeded', (e) => ({ actor_id: e.user_id, target_type: 'user', target_id: e.user_id }));
  audit('login.failed', 'login.failed', (e) => ({ actor_id: null, ...(e.user_id === null ? {} : { target_type: 'user', target_id: e.user_id }), details: { username: e.username } }));
  audit('user.created', 'user.created', (e) => ({ actor_id: e.actor_id, target_type: 'user', target_id: e.user_id, details: { username: e.username, role: e.role } }));
  audit('user.role_changed', 'user.role_changed', (e) => ({ actor_id: e.actor_id, target_type: 'user', target_id: e.user_id, details: { from: e.from, to: e.to } }));
  audit('user.disabled', 'user.disabled', (e) => ({
    actor_id: e.actor_id,
    target_type: 'user',
    target_id: e.user_id,
    details: { revoked_sessions: e.revoked_sessions, items_unassigned: e.items_unassigned },
  }));
  audit('user.enabled', 'user.enabled', (e) => ({ actor_id: e.actor_id, target_type: 'user', target_id: e.user_id }));
  audit('user.sessions_revoked', 'user.sessions_revoked', (e) => ({ actor_id: e.actor_id, target_type: 'user', target_id: e.user_id, details: { revoked_sessions: e.revoked_sessions } }));
  // Who reset it and when; never the password or its hash.
  audit('user.password_reset', 'user.password_reset', (e) => ({ actor_id: e.actor_id, target_type: 'user', target_id: e.user_id, details: { revoked_sessions: e.revoked_sessions } }));
}

/** Domain events for a process with no sockets or jobs (the CLI, first start): only the audit log subscribes. */
export function auditedEvents(db: Db): DomainEvents {
  const events = new DomainEvents(db, pino({ level: 'silent' }));
  registerAuditSubscribers(events, db);
  return events;
}
