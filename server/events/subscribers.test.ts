import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database';
import { DOMAIN_EVENT_TYPES } from './domain-events';
import { DomainEvents } from './event-bus';
import { registerSubscribers } from './subscribers';

/**
 * The after-effects of every domain event, as `registerSubscribers` (the one place) wires them at
 * start-up. An effect added, dropped or moved changes this table: review it here.
 */
describe('domain event subscribers', () => {
  it('are, per event and phase, exactly these', () => {
    const db = openDatabase(':memory:');
    const events = new DomainEvents(db, pino({ level: 'silent' }));
    const unused = () => {
      throw new Error('not called: only the table is read');
    };
    registerSubscribers(events, {
      db,
      publish: unused,
      publishTo: unused,
      disconnectSockets: unused,
      reviewEvents: { claimed: unused, prefetched: unused, released: unused, decided: unused, reviewed: unused, goldReviewed: unused, goldUndone: unused, expired: unused },
      feedbackLoop: { itemDecided: unused },
      reflectionBatches: { startAutomatic: unused },
      chartTypeJobs: { launchAfterImport: unused },
    });
    const after = (...names: string[]) => ({ in_transaction: [], after_commit: names });
    const audited = (action: string) => ({ in_transaction: [`audit: ${action}`], after_commit: [] });
    expect(events.table()).toEqual({
      'item.claimed': after('socket: item.claimed'),
      'item.prefetched': after('socket: queue counts'),
      'lease.released': after('socket: item.released'),
      'leases.ended': after('socket: lease.expired to holders, item.released'),
      'item.reviewed': { in_transaction: ['audit: review.submitted'], after_commit: ["socket: review.submitted to the reviewer's tabs"] },
      'review.undone': audited('review.undone'),
      'item.adjudicated': audited('item.adjudicated'),
      'item.decided': after('socket: item.decided, sealed', 'reflection: retire or start automatic reflection'),
      'gold.reviewed': after('socket: item.released, gold shown to its reviewer'),
      'gold.undone': after('socket: in review again, claimed'),
      'login.succeeded': audited('login.succeeded'),
      'login.failed': audited('login.failed'),
      'session.ended': after("socket: close the session's open sockets"),
      'user.created': audited('user.created'),
      'user.role_changed': audited('user.role_changed'),
      'user.disabled': audited('user.disabled'),
      'user.enabled': audited('user.enabled'),
      'user.sessions_revoked': audited('user.sessions_revoked'),
      'user.password_reset': audited('user.password_reset'),
      'user.access_changed': after("socket: close the user's open sockets"),
      'queue.created': audited('queue.created'),
      'queue.renamed': audited('queue.renamed'),
      'queue.deleted': audited('queue.deleted'),
      'queue.member_added': audited('queue.member_added'),
      'queue.member_removed': audited('queue.member_removed'),
      'item.assigned': audited('item.assigned'),
      'item.unassigned': audited('item.unassigned'),
      'item.retired': audited('item.retired'),
      'item.restored': audited('item.restored'),
      'item.gold_marked': audited('item.gold_marked'),
      'item.decided_by_reviews_per_item': audited('item.decided'),
      'assignment.changed': after('socket: assignment.changed'),
      'item.created': after('socket: item.created'),
      'item.edited': { in_transaction: ['audit: item.edited'], after_commit: ['socket: item.edited'] },
      'comment.posted': { in_transaction: ['audit: comment.posted'], after_commit: ['socket: comment.created, comment.mentioned to the named'] },
      'settings.updated': audited('settings.updated'),
      'proposals.added': after('socket: proposal.created'),
      'proposal.changed': after('socket: proposal.updated'),
      'run.created': { in_transaction: ['audit: run.started'], after_commit: ['socket: run.created'] },
      'run.resumed': audited('run.resumed'),
      'run.stopped': { in_transaction: ['audit: run.paused', 'audit: run.cancelled'], after_commit: [] },
      'eval_run.created': { in_transaction: ['audit: eval.started'], after_commit: ['socket: eval.created'] },
      'eval_run.resumed': audited('eval.resumed'),
      'eval_run.cancelled': audited('eval.cancelled'),
      'extraction_job.created': audited('extraction.started'),
      'chart_type_job.created': audited('chart_type_job.started'),
      'chart.type_changed': audited('chart.type_changed'),
      'chart.type_change_undone': audited('chart.type_change_undone'),
      'chart.table_saved': audited('chart.table_saved'),
      'chart.table_confirmed': audited('chart.table_confirmed'),
      'chart.table_unconfirmed': audited('chart.table_unconfirmed'),
      'chart.updated': after('socket: chart.updated'),
      'chart_group.changed': after('socket: chart_group.changed'),
      'export.downloaded': audited('export.downloaded'),
      'hf_dataset.downloaded': audited('export.downloaded'),
      'folder.imported': audited('split.imported'),
      'eval_run.imported': { in_transaction: ['audit: eval.imported'], after_commit: ['socket: eval.created'] },
      'chart_group.created': audited('chart_group.created'),
      'chart_group.edited': audited('chart_group.edited'),
      'chart_group.question_added': audited('chart_group.question_added'),
      'chart_group.deleted': audited('chart_group.deleted'),
      'split.relabelled': audited('split.relabelled'),
      'split.archived': audited('split.archived'),
      'split.unarchived': audited('split.unarchived'),
      'split.updated': after('socket: split.updated'),
      'split.deleted': { in_transaction: ['audit: split.deleted'], after_commit: ['socket: split.deleted'] },
      'split.imported': after('socket: charts.imported', 'chart types: launch the vision job'),
    });
    // An event nobody subscribes to is dead weight, or an after-effect forgotten.
    expect(Object.keys(events.table()).sort()).toEqual([...DOMAIN_EVENT_TYPES].sort());
    db.close();
  });
});
