import { afterEach, describe, expect, it } from 'vitest';
import type { QueueFilters, ReviewTask, SubmitReviewRequest } from '@shared/api/review';
import { ApiError } from '../../api/http';
import type { ReviewApi, SubmitResult } from './review-api';
import { ReviewSession } from './review-session';

const NO_FILTERS: QueueFilters = { mismatch_first: false };
const ACCEPT: SubmitReviewRequest = {
  decision: 'accept',
  criteria: { rationality: { pass: true }, correctness: { pass: true }, layout: { pass: true } },
  time_spent_ms: 1000,
};

/** Only the ids matter to the session; the rest of a task is the page's business. */
function task(id: number): ReviewTask {
  return { item: { id }, lease_expires_at: new Date(Date.now() + 300_000).toISOString(), lease_token: `lease-of-${id}` } as unknown as ReviewTask;
}

/** A promise the test settles by hand, to hold a request on the wire. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * The server's queue in miniature: items handed out in id order, own leases first, at most two
 * leases per reviewer, every call recorded.
 */
class FakeApi implements ReviewApi {
  queue: number[];
  held: number[] = [];
  calls: string[] = [];
  releasedTokens: string[] = [];
  submitGate: ReturnType<typeof deferred<void>> | null = null;
  submitError: unknown = null;

  constructor(ids: number[]) {
    this.queue = [...ids];
  }

  async next(filters: QueueFilters, exclude: number[]): Promise<ReviewTask | null> {
    this.calls.push(`next ${JSON.stringify(filters)} ${exclude.join(',')}`);
    const own = this.held.find((id) => !exclude.includes(id));
    if (own !== undefined) return task(own);
    if (this.held.length >= 2) return null;
    const id = this.queue.find((candidate) => !exclude.includes(candidate));
    if (id === undefined) return null;
    this.queue = this.queue.filter((candidate) => candidate !== id);
    this.held.push(id);
    return task(id);
  }

  async renew(itemId: number): Promise<string> {
    this.calls.push(`renew ${itemId}`);
    return new Date(Date.now() + 300_000).toISOString();
  }

  async release(given: ReviewTask): Promise<void> {
    const itemId = given.item.id;
    this.calls.push(`release ${itemId}`);
    this.releasedTokens.push(given.lease_token);
    this.held = this.held.filter((id) => id !== itemId);
    this.queue.unshift(itemId);
  }

  async submit(itemId: number): Promise<SubmitResult> {
    this.calls.push(`submit ${itemId}`);
    await this.submitGate?.promise;
    if (this.submitError) throw this.submitError;
    this.held = this.held.filter((id) => id !== itemId);
    return { review_id: 1000 + itemId, item_status: 'accepted', undo_until: new Date(Date.now() + 30_000).toISOString() };
  }

  async undo(reviewId: number): Promise<ReviewTask> {
    this.calls.push(`undo ${reviewId}`);
    const itemId = reviewId - 1000;
    this.held.push(itemId);
    return task(itemId);
  }
}

let session: ReviewSession | null = null;

async function started(api: FakeApi): Promise<ReviewSession> {
  session = new ReviewSession(api, NO_FILTERS);
  session.start();
  await settled(session);
  return session;
}

/** Lets the session's chain of steps run to its end. */
async function settled(s: ReviewSession): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
  void s;
}

const shownId = (s: ReviewSession) => s.getSnapshot().current?.task.item.id ?? null;

/** Submits a review of the item on screen, as its workspace does (naming the item it was written for). */
function submitShown(s: ReviewSession, onStored: (itemId: number) => void, body: SubmitReviewRequest = ACCEPT): void {
  const id = shownId(s);
  if (id === null) throw new Error('no item on screen');
  s.submit(id, body, onStored);
}

/** Every item id the session put on screen, in order, one entry per showing. */
function shownHistory(s: ReviewSession): number[] {
  const history: number[] = [];
  let last = s.getSnapshot().current;
  if (last) history.push(last.task.item.id);
  s.subscribe(() => {
    const current = s.getSnapshot().current;
    if (current && current !== last && current.task.item.id !== last?.task.item.id) history.push(current.task.item.id);
    last = current;
  });
  return history;
}
const nextId = (s: ReviewSession) => s.getSnapshot().next?.item.id ?? null;

afterEach(() => {
  session?.dispose();
  session = null;
});

describe('review session', () => {
  it('shows the first item and claims the next one behind it, excluding the one on screen', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    expect(shownId(s)).toBe(1);
    expect(nextId(s)).toBe(2);
    expect(api.calls).toEqual([`next ${JSON.stringify(NO_FILTERS)} `, `next ${JSON.stringify(NO_FILTERS)} 1`]);
  });

  it('shows the next item the moment a review is submitted, before the server answers', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    api.submitGate = deferred<void>();
    const stored: number[] = [];
    submitShown(s, (id) => stored.push(id));
    expect(shownId(s)).toBe(2);
    await settled(s);
    expect(stored).toEqual([]);
    expect(nextId(s)).toBeNull();

    api.submitGate.resolve();
    await settled(s);
    expect(stored).toEqual([1]);
    expect(s.getSnapshot().last).toMatchObject({ reviewId: 1001, itemId: 1, decision: 'accept' });
    // The claim behind waited for the submit: the server would have refused a third lease.
    expect(nextId(s)).toBe(3);
  });

  it('brings an item back with a notice when its review did not reach the server', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    api.submitError = new ApiError(0, 'internal', 'Could not reach the server.');
    submitShown(s, () => undefined);
    await settled(s);
    expect(shownId(s)).toBe(1);
    expect(nextId(s)).toBe(2);
    expect(s.getSnapshot().notice?.text).toContain('was not stored');
  });

  it('does not bring back an item the server refused for good (409), and says why', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    api.submitError = new ApiError(409, 'conflict', 'your lease on item 1 expired and its slot was taken');
    submitShown(s, () => undefined);
    await settled(s);
    expect(shownId(s)).toBe(2);
    expect(s.getSnapshot().notice?.text).toContain('slot was taken');
  });

  it('skip gives the item back and shows the next', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    s.skip();
    expect(shownId(s)).toBe(2);
    await settled(s);
    expect(api.calls).toContain('release 1');
    // The release names the lease the item was served under, so it cannot end a later one.
    expect(api.releasedTokens).toEqual(['lease-of-1']);
  });

  it('does not offer a skipped item again until the reviewer asks for the skipped ones', async () => {
    const api = new FakeApi([1, 2]);
    const s = await started(api);
    s.skip();
    await settled(s);
    expect(shownId(s)).toBe(2);
    expect(nextId(s)).toBeNull();
    expect(api.calls.at(-1)).toBe(`next ${JSON.stringify(NO_FILTERS)} 2,1`);
    s.skip();
    await settled(s);
    expect(s.getSnapshot().phase).toBe('empty');
    expect(s.getSnapshot().skippedCount).toBe(2);
    s.unskip();
    await settled(s);
    expect([shownId(s), nextId(s)]).toEqual([2, 1]);
  });

  it('undo puts the decided item back on screen, the shown one behind it, and gives back the one beyond', async () => {
    const api = new FakeApi([1, 2, 3, 4]);
    const s = await started(api);
    submitShown(s, () => undefined);
    await settled(s);
    expect([shownId(s), nextId(s)]).toEqual([2, 3]);
    const undone: number[] = [];
    s.undo((id) => undone.push(id));
    await settled(s);
    expect(undone).toEqual([1]);
    expect([shownId(s), nextId(s)]).toEqual([1, 2]);
    expect(api.calls).toContain('release 3');
    expect(s.getSnapshot().last).toBeNull();
  });

  it('marks the shown item when its lease expires, and replaces an expired prefetched one', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    s.leaseExpired(1);
    expect(s.getSnapshot().current?.lost).toBe('expired');
    api.held = api.held.filter((id) => id !== 2);
    s.leaseExpired(2);
    await settled(s);
    expect(nextId(s)).toBe(3);
  });

  it('does not send a review of an item whose lease ran out: it stays on screen until claimed again', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    s.leaseExpired(1);
    submitShown(s, () => undefined);
    await settled(s);
    expect(api.calls.some((call) => call.startsWith('submit'))).toBe(false);
    expect(shownId(s)).toBe(1);
    expect(s.getSnapshot().notice?.text).toContain('Press l to claim it again');
    s.claimAgain();
    await settled(s);
    expect(s.getSnapshot().current?.lost).toBeNull();
    submitShown(s, () => undefined);
    await settled(s);
    expect(api.calls).toContain('submit 1');
  });

  it('a filter change gives back the prefetched item and claims again under the new filters', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    const filters: QueueFilters = { chart_type: 'pie', mismatch_first: true };
    s.setFilters(filters);
    await settled(s);
    expect(api.calls).toContain('release 2');
    expect(api.calls.at(-1)).toBe(`next ${JSON.stringify(filters)} 1`);
    expect(shownId(s)).toBe(1);
  });

  it('says the queue is empty when there is nothing to claim, and claims once something arrives', async () => {
    const api = new FakeApi([]);
    const s = await started(api);
    expect(s.getSnapshot().phase).toBe('empty');
    api.queue.push(7);
    s.refill();
    await settled(s);
    expect(shownId(s)).toBe(7);
  });
  it('never shows again an item whose review is still on its way, however fast the reviewer decides', async () => {
    const api = new FakeApi([1, 2, 3, 4]);
    const s = await started(api);
    const history = shownHistory(s);
    // The server is slow: both reviews wait on the wire, the second sent before the first returns.
    api.submitGate = deferred<void>();
    submitShown(s, () => undefined);
    expect(shownId(s)).toBe(2);
    submitShown(s, () => undefined);
    expect(shownId(s)).toBeNull();
    api.submitGate.resolve();
    await settled(s);
    // Item 2's lease was still the reviewer's when the claim after item 1's review ran: the
    // claim excluded it, so the server claimed item 3 instead of handing item 2 back.
    expect(history).toEqual([1, 2, 3]);
    expect(api.calls.filter((call) => call.startsWith('submit'))).toEqual(['submit 1', 'submit 2']);
    expect(api.calls).toContain(`next ${JSON.stringify(NO_FILTERS)} 2`);
    expect(s.getSnapshot().notice).toBeNull();
  });

  it('ignores a review for an item no longer on screen (a key pressed twice before the page caught up)', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    submitShown(s, () => undefined);
    expect(shownId(s)).toBe(2);
    // The second press still carried item 1's workspace.
    s.submit(1, ACCEPT, () => undefined);
    await settled(s);
    expect(api.calls.filter((call) => call.startsWith('submit'))).toEqual(['submit 1']);
    expect(shownId(s)).toBe(2);
  });

  it('an item reviewed in another tab: marked decided, a decision says why it is not sent, s moves on without skipping it', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    api.held = api.held.filter((id) => id !== 1);
    s.reviewedElsewhere(1, 501);
    expect(s.getSnapshot().current?.lost).toBe('decided');
    // A renewal refused after it does not turn it into a lost lease.
    s.leaseExpired(1);
    expect(s.getSnapshot().current?.lost).toBe('decided');
    submitShown(s, () => undefined);
    await settled(s);
    expect(api.calls.some((call) => call.startsWith('submit'))).toBe(false);
    expect(s.getSnapshot().notice?.text).toContain('Item #1 was decided elsewhere');
    expect(s.getSnapshot().notice?.text).toContain('press s for the next item');
    s.skip();
    expect(shownId(s)).toBe(2);
    await settled(s);
    expect(api.calls).not.toContain('release 1');
    expect(s.getSnapshot().skippedCount).toBe(0);
  });

  it("drops a prefetched item reviewed in another tab and claims another; this tab's own reviews are not news", async () => {
    const api = new FakeApi([1, 2, 3, 4]);
    const s = await started(api);
    api.held = api.held.filter((id) => id !== 2);
    s.reviewedElsewhere(2, 502);
    await settled(s);
    expect([shownId(s), nextId(s)]).toEqual([1, 3]);
    api.submitGate = deferred<void>();
    submitShown(s, () => undefined);
    // The push for this tab's own review may come before the answer to its request, or after.
    s.reviewedElsewhere(1, 1001);
    api.submitGate.resolve();
    await settled(s);
    s.reviewedElsewhere(1, 1001);
    expect(shownId(s)).toBe(3);
    expect(s.getSnapshot().current?.lost).toBeNull();
    expect(s.getSnapshot().last?.itemId).toBe(1);
  });

  it('the push for a review this session stored, arriving after an undo brought the item back, is still its own', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    submitShown(s, () => undefined);
    await settled(s);
    s.undo(() => undefined);
    await settled(s);
    expect(shownId(s)).toBe(1);
    s.reviewedElsewhere(1, 1001);
    expect(s.getSnapshot().current?.lost).toBeNull();
    // A review of it from another tab after that is news.
    s.reviewedElsewhere(1, 1002);
    expect(s.getSnapshot().current?.lost).toBe('decided');
  });

  it('a review refused because the item was decided elsewhere keeps the draft and quotes the feedback back', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    api.submitError = new ApiError(409, 'conflict', 'you already reviewed item 1');
    const stored: number[] = [];
    submitShown(s, (id) => stored.push(id), { ...ACCEPT, feedback: 'The bars no longer add up.' });
    await settled(s);
    expect(stored).toEqual([]);
    expect(shownId(s)).toBe(2);
    expect(s.getSnapshot().notice?.text).toBe('Your review of item #1 was not stored: you already reviewed item 1. Your draft of it is kept; your feedback was: “The bars no longer add up.”');
  });

  it('a lost lease is claimed again with its key; a decision before that says which key', async () => {
    const api = new FakeApi([1, 2, 3]);
    const s = await started(api);
    s.leaseExpired(1);
    submitShown(s, () => undefined);
    expect(s.getSnapshot().notice?.text).toContain('Press l to claim it again');
    s.claimAgain();
    await settled(s);
    expect(s.getSnapshot().current?.lost).toBeNull();
    expect(s.getSnapshot().notice).toBeNull();
  });

  it('keeps every claim within the API’s ten exclusions, the held items first', async () => {
    const api = new FakeApi(Array.from({ length: 20 }, (_, i) => i + 1));
    const s = await started(api);
    for (let i = 0; i < 12; i++) {
      s.skip();
      await settled(s);
    }
    const lastNext = api.calls.filter((call) => call.startsWith('next')).at(-1) ?? '';
    const excluded = lastNext.split(' ').at(-1)?.split(',').map(Number) ?? [];
    expect(excluded.length).toBeLessThanOrEqual(10);
    expect(excluded[0]).toBe(shownId(s));
  });
});
