import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { afterCommit, immediateTransaction } from '../../db/transactions';
import type { DomainEventMap, DomainEventType } from './domain-events';

/**
 * When a subscriber runs. `in_transaction`: inside the write that emitted the event, so its own
 * writes (the audit row) commit or roll back with it, and what it throws undoes the write.
 * `after_commit`: once that write committed, never if it rolled back — effects outside the
 * database (a socket push, a job started) must not announce what never happened.
 */
export type SubscriberPhase = 'in_transaction' | 'after_commit';

interface Subscriber<T extends DomainEventType> {
  readonly name: string;
  readonly phase: SubscriberPhase;
  readonly handle: (payload: DomainEventMap[T]) => void;
}

type Subscribers = { [T in DomainEventType]?: Subscriber<T>[] };

/** What a command needs of the bus: to say what its write did. */
export interface DomainEventEmitter {
  emit<T extends DomainEventType>(type: T, payload: DomainEventMap[T]): void;
}

/**
 * One database's domain events: commands `emit` inside their write transaction, subscribers
 * (registered in one place, `subscribers.ts`) react in their phase. An event emitted outside any
 * transaction (its write committed by another connection, a worker thread's) is its own: the
 * in-transaction subscribers get one, the others run after it.
 */
export class DomainEvents implements DomainEventEmitter {
  private readonly subscribers: Subscribers = {};

  constructor(
    private readonly db: Db,
    private readonly logger: Pick<Logger, 'error'>,
  ) {}

  /** Adds a named subscriber of `type`; names make the subscriber table (`table()`) readable. */
  on<T extends DomainEventType>(type: T, phase: SubscriberPhase, name: string, handle: (payload: DomainEventMap[T]) => void): void {
    const list: Subscriber<T>[] = (this.subscribers[type] as Subscriber<T>[] | undefined) ?? [];
    if (list.some((subscriber) => subscriber.name === name)) throw new Error(`domain events: "${name}" already subscribes to ${type}`);
    list.push({ name, phase, handle });
    (this.subscribers as Record<T, Subscriber<T>[]>)[type] = list;
  }

  emit<T extends DomainEventType>(type: T, payload: DomainEventMap[T]): void {
    const list = (this.subscribers[type] as Subscriber<T>[] | undefined) ?? [];
    if (list.length === 0) return;
    const dispatch = () => {
      for (const subscriber of list) if (subscriber.phase === 'in_transaction') subscriber.handle(payload);
      const later = list.filter((subscriber) => subscriber.phase === 'after_commit');
      if (later.length > 0) afterCommit(this.db, () => this.runAfterCommit(type, later, payload));
    };
    // Inside the command's write its subscribers join it. Alone, the event is a write of its own
    // only when a subscriber writes: taking the write lock to tell sockets would wait on any writer.
    if (this.db.inTransaction || !list.some((subscriber) => subscriber.phase === 'in_transaction')) dispatch();
    else immediateTransaction(this.db, dispatch);
  }

  /** Each subscriber of each type, by phase, in the order they run: the after-effects of every event. */
  table(): Record<string, Record<SubscriberPhase, string[]>> {
    const table: Record<string, Record<SubscriberPhase, string[]>> = {};
    for (const [type, list] of Object.entries(this.subscribers) as [DomainEventType, Subscriber<DomainEventType>[]][]) {
      table[type] = {
        in_transaction: list.filter((s) => s.phase === 'in_transaction').map((s) => s.name),
        after_commit: list.filter((s) => s.phase === 'after_commit').map((s) => s.name),
      };
    }
    return table;
  }

  /**
   * The write committed: a subscriber that throws now has no caller to tell (the command's
   * answer stands), so it is logged and the others still run.
   */
  private runAfterCommit<T extends DomainEventType>(type: T, list: readonly Subscriber<T>[], payload: DomainEventMap[T]): void {
    for (const subscriber of list) {
      try {
        subscriber.handle(payload);
      } catch (error) {
        this.logger.error({ err: error, event: type, subscriber: subscriber.name }, 'a subscriber failed after its event committed');
      }
    }
  }
}
