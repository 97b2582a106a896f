import { io, type Socket } from 'socket.io-client';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ChartDetailResponse, ChartListResponse, ChartSummary } from '@shared/api/charts';
import { FINISHED_EVAL_RUN_STATUSES, type EvalRun, type EvalRunDetailResponseSchema, type EvalRunListResponseSchema } from '@shared/api/evaluations';
import type { ItemDetail, ItemListQuery, ItemListResponseSchema } from '@shared/api/items';
import type { QueueResponseSchema } from '@shared/api/review';
import type { ItemStatus } from '@shared/domain/generation';
import type { LeaseEndReason } from '@shared/domain/review';
import type { Proposal, ProposalListResponse } from '@shared/api/pool';
import type { ReflectionBatch } from '@shared/api/reflection';
import type { ExtractionJob } from '@shared/api/tables';
import type { ChartTypeJob } from '@shared/api/chart-types';
import type { Run, RunDetailResponseSchema, RunListResponseSchema } from '@shared/api/runs';
import {
  onServerEvent,
  ServerEventSchemas,
  type ClientToServerEvents,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
} from '@shared/events';
import type { ItemComment } from '@shared/api/item-discussion';
import { addComment } from './item-discussion-api';
import { queryKeys } from './query-keys';

export type WorkbenchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Who is online: counts for everyone, the people themselves for curators and admins only. */
export type Presence = ServerEventPayload<'presence.changed'>;

type RunListResponse = z.infer<typeof RunListResponseSchema>;
type ItemListResponse = z.infer<typeof ItemListResponseSchema>;
type QueueResponse = z.infer<typeof QueueResponseSchema>;

/** A lease of this user's that ran out, as the server told it (`lease.expired`). */
export type ExpiredLease = { item_id: number; at: number; reason?: LeaseEndReason };
/** Only the latest few matter: the review page holds at most two leases. */
const EXPIRED_LEASES_KEPT = 20;
/**
 * A review of this user's the server stored (`review.submitted`, sent to all their tabs).
 * `seq` orders them: several may arrive in one frame, within the same millisecond.
 */
export type OwnReview = { item_id: number; review_id: number; seq: number };
let ownReviewSeq = 0;
/** The latest mentions of this user the notice shows. */
const MENTIONS_KEPT = 20;
type RunDetailResponse = z.infer<typeof RunDetailResponseSchema>;
type EvalRunListResponse = z.infer<typeof EvalRunListResponseSchema>;
type EvalRunDetailResponse = z.infer<typeof EvalRunDetailResponseSchema>;

/** A busy run pushes bursts of events; each burst becomes one refetch per affected query family. */
const COALESCE_MS = 300;
/**
 * Analytics and feedback aggregate the whole pool and item set: while a run or a review
 * session is busy they are fetched again at most once per this interval.
 */
const ANALYTICS_THROTTLE_MS = 2000;

/** Opens the one socket.io connection; same origin, so the session cookie authenticates it. */
export function connectSocket(): WorkbenchSocket {
  return io({ withCredentials: true, transports: ['websocket', 'polling'] });
}

/** Parses a pushed payload like any other input; a malformed push is logged and ignored. */
function parsePayload<E extends ServerEventName>(event: E, payload: unknown): ServerEventPayload<E> | null {
  const parsed = ServerEventSchemas[event].safeParse(payload);
  if (parsed.success) return parsed.data as ServerEventPayload<E>;
  console.warn(`Ignoring malformed "${event}" event`, parsed.error.issues);
  return null;
}

/**
 * Collects invalidations and flushes them together `delayMs` after the first, so a burst of
 * pushes costs one refetch per key.
 */
function coalescingInvalidator(queryClient: QueryClient, delayMs: number) {
  const pending = new Map<string, QueryKey>();
  let timer: number | undefined;
  const flush = () => {
    timer = undefined;
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  return {
    invalidate(queryKey: QueryKey) {
      pending.set(JSON.stringify(queryKey), queryKey);
      timer ??= window.setTimeout(flush, delayMs);
    },
    dispose() {
      window.clearTimeout(timer);
    },
  };
}

function applyChartUpdate(queryClient: QueryClient, chart: ChartSummary): void {
  queryClient.setQueryData<ChartDetailResponse>(queryKeys.charts.detail(chart.id), (old) =>
    old ? { ...old, chart: { ...old.chart, ...chart } } : old,
  );
  queryClient.setQueriesData<ChartListResponse>({ queryKey: queryKeys.charts.lists() }, (old) =>
    old ? { ...old, charts: old.charts.map((c) => (c.id === chart.id ? chart : c)) } : old,
  );
  // A new type may move the chart in or out of a filtered list and changes the facet counts.
  void queryClient.invalidateQueries({ queryKey: queryKeys.charts.lists() });
  void queryClient.invalidateQueries({ queryKey: queryKeys.charts.facets() });
}

/** A run's new counters and status, written straight into every cached view of that run. */
function applyRun(queryClient: QueryClient, run: Run, invalidate: (key: QueryKey) => void): void {
  const detailKey = queryKeys.runs.detail(run.id);
  const before = queryClient.getQueryData<RunDetailResponse>(detailKey);
  queryClient.setQueryData<RunDetailResponse>(detailKey, (old) => (old ? { ...old, run } : old));
  queryClient.setQueriesData<RunListResponse>({ queryKey: queryKeys.runs.lists() }, (old) =>
    old ? { ...old, runs: old.runs.map((r) => (r.id === run.id ? run : r)) } : old,
  );
  // The error and decline lists are not pushed: fetch them again when a failure, a decline or a status change may have added to them.
  const old = before?.run;
  if (old && (old.tasks_failed !== run.tasks_failed || old.items_failed !== run.items_failed || old.items_declined !== run.items_declined || old.status !== run.status)) {
    invalidate(detailKey);
  }
}


/**
 * An evaluation run's pushed state (counters, status and its score so far), written into the
 * list and its detail. The list holds every run unpaged, newest first, so a run the list has
 * not seen yet goes on top.
 */
function applyEvalRun(queryClient: QueryClient, run: EvalRun, invalidate: (key: QueryKey) => void): void {
  queryClient.setQueriesData<EvalRunListResponse>({ queryKey: queryKeys.evals.lists() }, (old) => {
    if (!old) return old;
    return old.runs.some((r) => r.id === run.id) ? { runs: old.runs.map((r) => (r.id === run.id ? run : r)) } : { runs: [run, ...old.runs] };
  });
  queryClient.setQueryData<EvalRunDetailResponse>(queryKeys.evals.detail(run.id), (old) => (old ? { ...old, run } : old));
  // The decline rate (in the detail) and the per-question verdicts are not pushed: they move with every answer.
  invalidate(queryKeys.evals.detail(run.id));
  invalidate(queryKeys.evals.runResults(run.id));
  if (FINISHED_EVAL_RUN_STATUSES.includes(run.status)) {
    // A finished run may become a model's latest of its mode: its comparison row and, for a
    // factual run, the baseline other runs' details are measured against.
    invalidate(queryKeys.evals.comparison());
    invalidate(queryKeys.evals.unsolved());
    invalidate(queryKeys.evals.details());
  }
}

/** An extraction job's pushed state into the recent list (newest first; one the list has not seen goes on top). */
export function applyExtractionJob(queryClient: QueryClient, job: ExtractionJob): void {
  queryClient.setQueryData<ExtractionJob[]>(queryKeys.extractionJobs.list(), (old) => {
    if (!old) return old;
    return old.some((j) => j.id === job.id) ? old.map((j) => (j.id === job.id ? job : j)) : [job, ...old];
  });
}

/** A chart-type job's pushed state into the recent list (newest first; one the list has not seen goes on top). */
export function applyChartTypeJob(queryClient: QueryClient, job: ChartTypeJob): void {
  queryClient.setQueryData<ChartTypeJob[]>(queryKeys.chartTypes.jobs(), (old) => {
    if (!old) return old;
    return old.some((j) => j.id === job.id) ? old.map((j) => (j.id === job.id ? job : j)) : [job, ...old];
  });
}

function applyProposal(queryClient: QueryClient, proposal: Proposal): void {
  queryClient.setQueryData(queryKeys.pool.detail(proposal.id), { proposal });
  queryClient.setQueriesData<ProposalListResponse>({ queryKey: queryKeys.pool.lists() }, (old) =>
    old ? { ...old, proposals: old.proposals.map((p) => (p.id === proposal.id ? proposal : p)) } : old,
  );
}

/**
 * Keeps the latest state of a reflection batch. Its progress only moves forward, and the POST's
 * answer may arrive after the first pushes, so an older snapshot never overwrites a newer one.
 */
export function applyReflectionBatch(queryClient: QueryClient, batch: ReflectionBatch): void {
  queryClient.setQueryData<ReflectionBatch>(queryKeys.reflectionBatches.detail(batch.id), (old) => {
    if (!old) return batch;
    if (old.status === 'done' || old.done > batch.done) return old;
    return batch;
  });
}

/**
 * An item's new status, written into every cached list and detail at once: a list filtered on
 * another status loses the item immediately (the coalesced refetch then fills the page).
 */
function applyItemStatus(queryClient: QueryClient, itemId: number, status: ItemStatus, onlyFrom?: ItemStatus): void {
  const lists = queryClient.getQueriesData<ItemListResponse>({ queryKey: queryKeys.items.lists() });
  for (const [key, data] of lists) {
    const item = data?.items.find((i) => i.id === itemId);
    if (!data || !item || (onlyFrom !== undefined && item.status !== onlyFrom)) continue;
    const query = key[2] as Partial<ItemListQuery> | undefined;
    const stillListed = !query?.status || query.status === status;
    queryClient.setQueryData<ItemListResponse>(key, {
      ...data,
      items: stillListed ? data.items.map((i) => (i.id === itemId ? { ...i, status } : i)) : data.items.filter((i) => i.id !== itemId),
      total: stillListed ? data.total : data.total - 1,
    });
  }
  queryClient.setQueryData<{ item: ItemDetail }>(queryKeys.items.detail(itemId), (old) =>
    old && (onlyFrom === undefined || old.item.status === onlyFrom) ? { item: { ...old.item, status } } : old,
  );
}

/** What each server event does to the cache, given an already parsed payload. */
type CacheHandlers = { [E in ServerEventName]?: (payload: ServerEventPayload<E>) => void };

type Invalidators = {
  /** Coalesced over a short burst. */
  invalidate: (key: QueryKey) => void;
  /** Throttled: for the aggregate figures (analytics, proposals' feedback). */
  invalidateSlowly: (key: QueryKey) => void;
};

/**
 * The handler registry. Charts and runs carry their whole state, so they are written in place;
 * lists that filter, count or page are fetched again, coalesced.
 */
function cacheHandlers(queryClient: QueryClient, { invalidate, invalidateSlowly }: Invalidators): CacheHandlers {
  return {
    'chart.updated': ({ chart }) => {
      applyChartUpdate(queryClient, chart);
      // Its table may have been saved, confirmed or set back: the editor and the group pages show that.
      invalidate(queryKeys.charts.table(chart.id));
      invalidate(queryKeys.charts.groups());
      // A decided type leaves the triage (and a new job's count); an undone one comes back.
      invalidate(queryKeys.chartTypes.triages());
      invalidate(queryKeys.chartTypes.plans());
    },
    'charts.imported': () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.all() });
      invalidate(queryKeys.splits());
      invalidate(queryKeys.chartTypes.triages());
      invalidate(queryKeys.chartTypes.plans());
    },
    'import.progress': (progress) => queryClient.setQueryData(queryKeys.importProgress(progress.upload_id), progress),
    'split.updated': () => invalidate(queryKeys.splits()),
    'split.deleted': () => {
      invalidate(queryKeys.splits());
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.all() });
      invalidate(queryKeys.overview());
    },
    'chart_group.changed': ({ group_id, change, chart_ids }) => {
      // Lists count and page the groups; the group's page shows its name, order and questions.
      invalidate(queryKeys.charts.groups());
      invalidate(queryKeys.charts.group(group_id));
      // Each member's page links the group, "chart n of m".
      for (const chartId of chart_ids) invalidate(queryKeys.charts.groupLinks(chartId));
      if (change === 'question_added' && chart_ids[0] !== undefined) {
        // The question is stored on the first chart: its questions and every list's question count.
        invalidate(queryKeys.charts.detail(chart_ids[0]));
        invalidate(queryKeys.charts.lists());
      }
    },
    'presence.changed': (presence) => queryClient.setQueryData<Presence>(queryKeys.presence(), presence),
    'run.created': () => {
      invalidate(queryKeys.runs.lists());
      invalidate(queryKeys.overview());
    },
    'run.progressed': ({ run }) => {
      applyRun(queryClient, run, invalidate);
      // Only a status change moves the overview's run counts; a busy run pushes often.
      invalidateSlowly(queryKeys.overview());
    },
    'eval.created': ({ run }) => applyEvalRun(queryClient, run, invalidate),
    'eval.progressed': ({ run }) => applyEvalRun(queryClient, run, invalidate),
    'extraction.progressed': ({ job }) => {
      applyExtractionJob(queryClient, job);
      // Charts got tables (each its own chart.updated): what a new job would read moved.
      invalidate(queryKeys.extractionJobs.plans());
    },
    'chart_type_job.progressed': ({ job }) => applyChartTypeJob(queryClient, job),
    'reflection.progressed': ({ batch }) => {
      applyReflectionBatch(queryClient, batch);
      // A batch someone else started: the panel shows the newest one.
      const known = queryClient.getQueryData<ReflectionBatch[]>(queryKeys.reflectionBatches.list());
      if (known && !known.some((b) => b.id === batch.id)) invalidate(queryKeys.reflectionBatches.list());
    },
    'proposal.created': ({ proposal }) => {
      queryClient.setQueryData(queryKeys.pool.detail(proposal.id), { proposal });
      // Lists and counts change, and so do the parents' child links and reflections.
      invalidate(queryKeys.pool.all());
      invalidateSlowly(queryKeys.analytics.all());
    },
    'proposal.updated': ({ proposal }) => {
      applyProposal(queryClient, proposal);
      invalidate(queryKeys.pool.lists());
      invalidateSlowly(queryKeys.analytics.all());
    },
    'item.created': ({ item }) => {
      invalidate(queryKeys.items.lists());
      invalidateSlowly(queryKeys.analytics.all());
      // The proposal's item count went up.
      if (item.proposal_id !== null) {
        invalidate(queryKeys.pool.lists());
        invalidate(queryKeys.pool.detail(item.proposal_id));
      }
    },
    'item.claimed': ({ item_id }) => {
      applyItemStatus(queryClient, item_id, 'in_review', 'pending');
      invalidate(queryKeys.items.lists());
    },
    'item.released': ({ item_id }) => {
      invalidate(queryKeys.items.lists());
      invalidate(queryKeys.items.detail(item_id));
    },
    'item.decided': ({ item_id, status }) => {
      applyItemStatus(queryClient, item_id, status);
      // A decision may set the final answer, and changes counts, stats and the adjudication list.
      invalidate(queryKeys.items.lists());
      invalidate(queryKeys.items.detail(item_id));
      invalidate(queryKeys.review.history(item_id));
      invalidate(queryKeys.review.adjudication());
      invalidate(queryKeys.review.stats());
      invalidate(queryKeys.overview());
      // Pass rates, the comparison and coverage move; the item's proposal gathered feedback.
      invalidateSlowly(queryKeys.analytics.all());
      invalidateSlowly(queryKeys.pool.reflectionLists());
    },
    'lease.expired': ({ item_id, reason }) =>
      queryClient.setQueryData<ExpiredLease[]>(queryKeys.review.expiredLeases(), (old = []) =>
        [...old, { item_id, at: Date.now(), ...(reason ? { reason } : {}) }].slice(-EXPIRED_LEASES_KEPT),
      ),
    'review.submitted': ({ item_id, review_id }) =>
      queryClient.setQueryData<OwnReview[]>(queryKeys.review.ownReviews(), (old = []) => [...old, { item_id, review_id, seq: (ownReviewSeq += 1) }].slice(-EXPIRED_LEASES_KEPT)),
    'comment.created': ({ comment }) =>
      queryClient.setQueryData(queryKeys.items.comments(comment.item_id), (old: Parameters<typeof addComment>[0]) => addComment(old, comment)),
    'comment.mentioned': ({ comment }) =>
      queryClient.setQueryData<ItemComment[]>(queryKeys.mentions(), (old = []) => [...old.filter((c) => c.id !== comment.id), comment].slice(-MENTIONS_KEPT)),
    'item.edited': ({ item_id }) => {
      // The item's text and verdict changed, and its edit history grew.
      invalidate(queryKeys.items.detail(item_id));
      invalidate(queryKeys.items.lists());
    },
    'assignment.changed': () => {
      // This reviewer's "assigned to you", the Items list's assignment tags and the queues' item counts.
      invalidate(queryKeys.review.queue());
      invalidate(queryKeys.items.lists());
      invalidate(queryKeys.queues());
      // The Admin list counts each user's assigned items.
      invalidate(queryKeys.users.list());
    },
    'queue.changed': ({ counts }) => {
      queryClient.setQueryData<QueueResponse>(queryKeys.review.queue(), (old) => (old ? { ...old, counts } : old));
      // What is available to this reviewer is not in the push: fetch it.
      invalidate(queryKeys.review.queue());
      invalidate(queryKeys.overview());
    },
  };
}

/** Attaches one parsed handler; returns the function that detaches it. */
function listen<E extends ServerEventName>(
  socket: WorkbenchSocket,
  event: E,
  handle: (payload: ServerEventPayload<E>) => void,
): () => void {
  const listener = (payload: unknown) => {
    const data = parsePayload(event, payload);
    if (data) handle(data);
  };
  // socket.io's typed `on` cannot relate a generic event name to its listener; the payload is parsed above.
  return onServerEvent(socket as unknown as Socket, event, listener);
}

/**
 * The one place server pushes reach the react-query cache. Returns a function that detaches
 * the handlers.
 */
export function feedQueryCache(socket: WorkbenchSocket, queryClient: QueryClient): () => void {
  const { invalidate, dispose } = coalescingInvalidator(queryClient, COALESCE_MS);
  const slow = coalescingInvalidator(queryClient, ANALYTICS_THROTTLE_MS);
  const handlers = cacheHandlers(queryClient, { invalidate, invalidateSlowly: slow.invalidate });
  const detachers = (Object.keys(handlers) as ServerEventName[]).map(<E extends ServerEventName>(event: E) =>
    listen(socket, event, handlers[event] as (payload: ServerEventPayload<E>) => void),
  );
  // Pushes sent while the connection was down are lost: fetch what they would have changed.
  const onReconnect = () => {
    invalidate(queryKeys.runs.all());
    invalidate(queryKeys.evals.all());
    invalidate(queryKeys.pool.all());
    invalidate(queryKeys.items.all());
    invalidate(queryKeys.review.all());
    invalidate(queryKeys.overview());
    invalidate(queryKeys.analytics.all());
    invalidate(queryKeys.reflectionBatches.list());
    invalidate(queryKeys.charts.groups());
  };
  socket.io.on('reconnect', onReconnect);
  return () => {
    socket.io.off('reconnect', onReconnect);
    for (const detach of detachers) detach();
    dispose();
    slow.dispose();
  };
}
