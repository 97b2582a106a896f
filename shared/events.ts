import { z } from 'zod';
import { ChartSummarySchema } from './api/charts';
import { ImportReportSchema } from './api/import';
import { ImportProgressSchema, SplitSummarySchema } from './api/splits';
import { ItemSummarySchema } from './api/items';
import { ItemCommentSchema } from './api/item-discussion';
import { ProposalSchema } from './api/pool';
import { ReflectionBatchSchema } from './api/reflection';
import { RunSchema } from './api/runs';
import { EvalRunSchema } from './api/evaluations';
import { ExtractionJobSchema } from './api/tables';
import { ChartTypeJobSchema } from './api/chart-types';
import { RoleSchema } from './domain/roles';
import { ItemStatusSchema } from './domain/generation';
import { LeaseEndReasonSchema } from './domain/review';
import { StatusCountsSchema } from './api/review';

/** What happened to a chart group (`chart_group.changed`). */
export const ChartGroupChangeSchema = z.enum(['created', 'edited', 'question_added', 'deleted']);
export type ChartGroupChange = z.infer<typeof ChartGroupChangeSchema>;

/**
 * Server → client events: name → payload schema. Names read `entity.pastTenseVerb`.
 * The same map types socket.io on both sides.
 */
export const ServerEventSchemas = {
  'chart.updated': z.object({ chart: ChartSummarySchema }),
  'charts.imported': z.object({ report: ImportReportSchema }),
  /** A browser import's upload, unzip and import steps (curators and admins). */
  'import.progress': ImportProgressSchema,
  /** A split was renamed or archived. */
  'split.updated': z.object({ split: SplitSummarySchema }),
  /** A split nothing was made from was deleted, with its charts and questions. */
  'split.deleted': z.object({ name: z.string() }),
  /**
   * A curator created, renamed or reordered a chart group, asked a question over it or deleted it
   * (server/charts/chart-group-commands.ts). `chart_ids`: its charts in order (a deleted group's,
   * as they were): their pages link to the group, and a question is stored on the first.
   */
  'chart_group.changed': z.object({ group_id: z.number().int(), change: ChartGroupChangeSchema, chart_ids: z.array(z.number().int()) }),
  'run.created': z.object({ run: RunSchema }),
  /** Counters, tokens, cost or status changed; throttled while a run is busy. */
  'run.progressed': z.object({ run: RunSchema }),
  'eval.created': z.object({ run: EvalRunSchema }),
  /** An evaluation run answered more questions or changed status; throttled while busy. */
  'eval.progressed': z.object({ run: EvalRunSchema }),
  'proposal.created': z.object({ proposal: ProposalSchema }),
  'proposal.updated': z.object({ proposal: ProposalSchema }),
  'item.created': z.object({ item: ItemSummarySchema }),
  /** Progress of a reflection batch, like run.progressed for generation runs. */
  'reflection.progressed': z.object({ batch: ReflectionBatchSchema }),
  /** A table-extraction job was created, read more charts or changed status; throttled while busy. */
  'extraction.progressed': z.object({ job: ExtractionJobSchema }),
  /** A vision job over unconfirmed chart types was created, answered more charts or changed status; throttled while busy. */
  'chart_type_job.progressed': z.object({ job: ChartTypeJobSchema }),
  /** Someone claimed an item (lists hide it) or gave it back (released, expired, requeued). Who: curators and admins only (blind review). */
  'item.claimed': z.object({ item_id: z.number().int(), reviewer_id: z.number().int().optional() }),
  'item.released': z.object({ item_id: z.number().int() }),
  /** A review was submitted or undone, or a curator adjudicated: the item's status now. */
  'item.decided': z.object({ item_id: z.number().int(), status: ItemStatusSchema }),
  /**
   * Sent only to the reviewer whose lease ended: it ran out (no `reason`), or the workbench ended
   * it (`reason`: a change of the reviews per item decided the item or took the lease's slot).
   */
  'lease.expired': z.object({ item_id: z.number().int(), reason: LeaseEndReasonSchema.optional() }),
  /**
   * Sent only to the reviewer who submitted: the server stored their review of the item. Their
   * other tabs and windows showing that item (or holding it next) learn it is done there too.
   * `review_id` is the id the submit answered with, so the tab that sent it knows it for its own.
   * It says nothing of the item's outcome (blind review).
   */
  'review.submitted': z.object({ item_id: z.number().int(), review_id: z.number().int() }),
  'queue.changed': z.object({ counts: StatusCountsSchema }),
  /** Curators assigned, unassigned, retired or restored items, or changed a named queue's members: each reviewer's "assigned to you" may have moved. Names nobody. */
  'assignment.changed': z.object({ items: z.number().int() }),
  /** A comment on an item's thread: to everyone (pages showing that item add it). */
  /** `staff_only`: a reviewer's comment on an undecided item; other reviewers do not get it (blind review). */
  'comment.created': z.object({ comment: ItemCommentSchema, staff_only: z.boolean() }),
  /** Sent only to the sockets of a user the comment mentions as @username. */
  'comment.mentioned': z.object({ comment: ItemCommentSchema }),
  /** A curator edited the item's assumption, question or answer (its verdict may have changed). */
  'item.edited': z.object({ item_id: z.number().int() }),
  /** Distinct users online and how many of them hold a lease; who they are: curators and admins only (blind review). */
  'presence.changed': z.object({
    online: z.number().int(),
    reviewing: z.number().int(),
    users: z.array(z.object({ id: z.number().int(), username: z.string(), role: RoleSchema, reviewing: z.number().int().default(0) })).optional(),
  }),
} as const;

export type ServerEventName = keyof typeof ServerEventSchemas;
export type ServerEventPayload<E extends ServerEventName> = z.infer<(typeof ServerEventSchemas)[E]>;

/**
 * Several events in one frame: what the server sends a socket when more than one event waits
 * for it (server/realtime/realtime.ts), each as [name, payload], in the order published. Under
 * load a frame per event per socket was most of the server's socket cost (bench/review.ts).
 * Listen with `onServerEvent`, which sees an event the same whether it came alone or batched.
 */
export const BATCH_EVENT = 'events.batched';
export type BatchedEvent = { [E in ServerEventName]: [E, ServerEventPayload<E>] }[ServerEventName];

export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerEventPayload<E>) => void;
} & { [BATCH_EVENT]: (events: BatchedEvent[]) => void };

/** The part of a socket.io client socket `onServerEvent` needs (shared/ does not depend on socket.io). */
export interface EventSource {
  on(event: string, listener: (payload: unknown) => void): unknown;
  off(event: string, listener: (payload: unknown) => void): unknown;
}

/**
 * Calls `listener` with every payload of `event` the socket receives, alone or inside a batch,
 * in order, unparsed (callers parse with ServerEventSchemas). Returns the function that stops it.
 */
export function onServerEvent(socket: EventSource, event: ServerEventName, listener: (payload: unknown) => void): () => void {
  const fromBatch = (events: unknown) => {
    if (!Array.isArray(events)) return;
    for (const entry of events as unknown[]) if (Array.isArray(entry) && entry[0] === event) listener(entry[1]);
  };
  socket.on(event, listener);
  socket.on(BATCH_EVENT, fromBatch);
  return () => {
    socket.off(event, listener);
    socket.off(BATCH_EVENT, fromBatch);
  };
}

/** Client → server events, parsed at runtime on the server. None are needed yet. */
export type ClientToServerEvents = Record<string, never>;
