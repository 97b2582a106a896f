import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { AdjudicateRequestSchema, SubmitReviewRequestSchema } from '../../shared/api/review';
import { DomainEvents } from '../../server/events/event-bus';
import { registerSubscribers, type SubscriberTargets } from '../../server/events/subscribers';
import { ReviewCommands } from '../../server/review/review-commands';
import { putSettings } from '../../server/settings/settings-queries';
import { buildChart, buildItem, buildQa, buildUser } from '../support/factories';
import { acceptReview, rejectReview } from '../support/review-fixtures';

/**
 * Review's commands say what their writes did as domain events; the subscribers registered at
 * start-up (`registerSubscribers`, here over recorders) tell clients and the feedback loop. A
 * route calls one method; these tests call the same method and see every after-effect, in order.
 */

const dir = mkdtempSync(join(tmpdir(), 'hqa-review-commands-'));
let db: Db;
let reviewer: number;
let second: number;
let curator: number;
let effects: string[];
let commands: ReviewCommands;

const recorder: SubscriberTargets['reviewEvents'] = {
  claimed: (itemId, reviewerId) => effects.push(`claimed ${itemId} by ${reviewerId}`),
  prefetched: () => effects.push('prefetched'),
  released: (itemId) => effects.push(`released ${itemId}`),
  decided: (itemId, status, sealedFrom = []) => effects.push(`decided ${itemId} ${status}${sealedFrom.length > 0 ? ` sealed from ${sealedFrom.join(',')}` : ''}`),
  goldReviewed: (itemId, reviewerId, shown) => effects.push(`gold reviewed ${itemId} by ${reviewerId}, shown ${shown}`),
  goldUndone: (itemId, reviewerId) => effects.push(`gold undone ${itemId} by ${reviewerId}`),
  expired: (leases) => leases.forEach((lease) => effects.push(`expired ${lease.item_id}`)),
  // The reviewer's own tabs' event (review.submitted): its test is review-own-tabs.test.ts.
  reviewed: () => undefined,
};
const filters = { mismatch_first: false, exclude_item_ids: [] };
const newItem = () => buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db) }) });

beforeAll(async () => {
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
  reviewer = (await buildUser(db)).id;
  second = (await buildUser(db)).id;
  curator = (await buildUser(db, { role: 'curator' })).id;
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  effects = [];
  putSettings(db, { reviews_per_item: 1 });
  const events = new DomainEvents(db, pino({ level: 'silent' }));
  registerSubscribers(events, {
    db,
    publish: (event, payload) => effects.push(`publish ${event} ${JSON.stringify(payload)}`),
    publishTo: (userId, event) => effects.push(`publish ${event} to ${userId}`),
    disconnectSockets: () => effects.push('disconnect'),
    reviewEvents: recorder,
    feedbackLoop: { itemDecided: (itemId) => (effects.push(`onDecided ${itemId}`), null) },
    reflectionBatches: { startAutomatic: (proposalId) => effects.push(`reflect on ${proposalId}`) },
    chartTypeJobs: { launchAfterImport: () => null },
  });
  commands = new ReviewCommands(db, events);
});

describe('review commands', () => {
  it('a claim tells clients who claimed; a decision that settles the item tells clients, then the hook', () => {
    const itemId = newItem();
    expect(commands.next(reviewer, filters)?.item.id).toBe(itemId);
    expect(effects).toEqual([`claimed ${itemId} by ${reviewer}`]);
    const result = commands.submit(itemId, reviewer, SubmitReviewRequestSchema.parse(acceptReview()));
    expect(result.item_status).toBe('accepted');
    expect(effects.slice(1)).toEqual([`decided ${itemId} accepted`, `onDecided ${itemId}`]);
  });

  it('a claim made while the reviewer holds an item is a prefetch: nobody is told it was claimed', () => {
    const [first, ahead] = [newItem(), newItem()];
    expect(commands.next(reviewer, filters)?.item.id).toBe(first);
    expect(commands.next(reviewer, { ...filters, exclude_item_ids: [first] })?.item.id).toBe(ahead);
    expect(effects).toEqual([`claimed ${first} by ${reviewer}`, 'prefetched']);
    commands.submit(first, reviewer, SubmitReviewRequestSchema.parse(acceptReview()));
    commands.submit(ahead, reviewer, SubmitReviewRequestSchema.parse(acceptReview()));
  });

  it('a review that leaves the item open tells clients but not the hook; undo claims it again without the hook', () => {
    putSettings(db, { reviews_per_item: 2 });
    const itemId = newItem();
    commands.next(reviewer, filters);
    const { review_id: reviewId, item_status: status } = commands.submit(itemId, reviewer, SubmitReviewRequestSchema.parse(rejectReview()));
    expect(status).toBe('submitted');
    expect(commands.undo(reviewId, reviewer).item.id).toBe(itemId);
    expect(effects).toEqual([
      `claimed ${itemId} by ${reviewer}`,
      `decided ${itemId} in_review sealed from ${reviewer}`,
      `decided ${itemId} in_review`,
      `claimed ${itemId} by ${reviewer}`,
    ]);
    commands.release(itemId, reviewer);
    expect(effects.at(-1)).toBe(`released ${itemId}`);
  });

  it('an adjudication tells clients and the hook; a re-queue tells clients the item is pending and its lease is gone', () => {
    putSettings(db, { reviews_per_item: 2 });
    const itemId = newItem();
    commands.next(reviewer, filters);
    commands.submit(itemId, reviewer, SubmitReviewRequestSchema.parse(acceptReview()));
    commands.next(second, filters);
    effects = [];
    // Blind: the second reviewer is not told the split, and neither reviewer's events carry it.
    expect(commands.submit(itemId, second, SubmitReviewRequestSchema.parse(rejectReview())).item_status).toBe('submitted');
    expect(effects).toEqual([`decided ${itemId} needs_adjudication sealed from ${reviewer},${second}`]);
    effects = [];
    expect(commands.adjudicate(itemId, curator, AdjudicateRequestSchema.parse({ decision: 'accept' }))).toBe('accepted');
    expect(effects).toEqual([`decided ${itemId} accepted sealed from ${reviewer},${second}`, `onDecided ${itemId}`]);

    newItem();
    const leased = commands.next(reviewer, filters)?.item.id ?? -1;
    effects = [];
    expect(commands.requeue([itemId, leased], curator)).toBe(2);
    expect(effects).toEqual([`expired ${leased}`, `decided ${itemId} pending`, `decided ${leased} pending`]);
  });
});
