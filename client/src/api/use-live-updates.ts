import { useEffect } from 'react';
import { skipToken, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ItemSummary } from '../../../shared/api/items';
import type { Proposal, ProposalListResponse } from '../../../shared/api/pool';
import type { Run, RunDetailResponseSchema, RunListResponseSchema } from '../../../shared/api/runs';
import { ServerEventSchemas, type ServerEventName, type ServerEventPayload } from '../../../shared/events';
import { connectSocket, feedQueryCache, type PresenceUsers, type WorkbenchSocket } from './socket';
import { queryKeys } from './query-keys';

type RunListResponse = z.infer<typeof RunListResponseSchema>;
type RunDetailResponse = z.infer<typeof RunDetailResponseSchema>;

/** A busy run pushes bursts of events; each burst becomes one refetch per affected query family. */
const COALESCE_MS = 300;

/** Parses a pushed payload like any other input; a malformed push is logged and ignored. */
function parsePush<E extends ServerEventName>(event: E, payload: unknown): ServerEventPayload<E> | null {
  const parsed = ServerEventSchemas[event].safeParse(payload);
  if (parsed.success) return parsed.data as ServerEventPayload<E>;
  console.warn(`Ignoring malformed "${event}" event`, parsed.error.issues);
  return null;
}

/** Collects invalidations and flushes them together, so a burst of pushes costs one refetch per key. */
function coalescingInvalidator(queryClient: QueryClient) {
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
      timer ??= window.setTimeout(flush, COALESCE_MS);
    },
    dispose() {
      window.clearTimeout(timer);
    },
  };
}

/** A run's new counters and status, written straight into every cached view of that run. */
function applyRun(queryClient: QueryClient, run: Run, invalidate: (key: QueryKey) => void): void {
  const detailKey = queryKeys.runs.detail(run.id);
  const before = queryClient.getQueryData<RunDetailResponse>(detailKey);
  queryClient.setQueryData<RunDetailResponse>(detailKey, (old) => (old ? { ...old, run } : old));
  queryClient.setQueriesData<RunListResponse>({ queryKey: queryKeys.runs.lists() }, (old) =>
    old ? { ...old, runs: old.runs.map((r) => (r.id === run.id ? run : r)) } : old,
  );
  // The error list is not pushed: fetch it again when a failure or a status change may have added to it.
  const old = before?.run;
  if (old && (old.tasks_failed !== run.tasks_failed || old.items_failed !== run.items_failed || old.status !== run.status)) {
    invalidate(detailKey);
  }
}

function applyProposal(queryClient: QueryClient, proposal: Proposal): void {
  queryClient.setQueryData(queryKeys.pool.detail(proposal.id), { proposal });
  queryClient.setQueriesData<ProposalListResponse>({ queryKey: queryKeys.pool.lists() }, (old) =>
    old ? { ...old, proposals: old.proposals.map((p) => (p.id === proposal.id ? proposal : p)) } : old,
  );
}

/**
 * Generation pushes (runs, proposals, items) into the cache. Runs carry their whole state, so
 * they are written in place; lists that filter, count or page are fetched again, coalesced.
 */
function feedGenerationCache(socket: WorkbenchSocket, queryClient: QueryClient): () => void {
  const { invalidate, dispose } = coalescingInvalidator(queryClient);
  const onRunCreated = (payload: unknown) => {
    if (parsePush('run.created', payload)) invalidate(queryKeys.runs.lists());
  };
  const onRunProgressed = (payload: unknown) => {
    const data = parsePush('run.progressed', payload);
    if (data) applyRun(queryClient, data.run, invalidate);
  };
  const onProposalCreated = (payload: unknown) => {
    const data = parsePush('proposal.created', payload);
    if (!data) return;
    queryClient.setQueryData(queryKeys.pool.detail(data.proposal.id), { proposal: data.proposal });
    // Lists and counts change, and so do the parents' child links.
    invalidate(queryKeys.pool.all());
  };
  const onProposalUpdated = (payload: unknown) => {
    const data = parsePush('proposal.updated', payload);
    if (!data) return;
    applyProposal(queryClient, data.proposal);
    invalidate(queryKeys.pool.lists());
  };
  const onItemCreated = (payload: unknown) => {
    const data = parsePush('item.created', payload);
    if (!data) return;
    const item: ItemSummary = data.item;
    invalidate(queryKeys.items.lists());
    // The proposal's item count went up.
    if (item.proposal_id !== null) {
      invalidate(queryKeys.pool.lists());
      invalidate(queryKeys.pool.detail(item.proposal_id));
    }
  };
  // Pushes sent while the connection was down are lost: fetch what they would have changed.
  const onReconnect = () => {
    invalidate(queryKeys.runs.all());
    invalidate(queryKeys.pool.all());
    invalidate(queryKeys.items.all());
  };
  socket.io.on('reconnect', onReconnect);
  socket.on('run.created', onRunCreated);
  socket.on('run.progressed', onRunProgressed);
  socket.on('proposal.created', onProposalCreated);
  socket.on('proposal.updated', onProposalUpdated);
  socket.on('item.created', onItemCreated);
  return () => {
    socket.io.off('reconnect', onReconnect);
    socket.off('run.created', onRunCreated);
    socket.off('run.progressed', onRunProgressed);
    socket.off('proposal.created', onProposalCreated);
    socket.off('proposal.updated', onProposalUpdated);
    socket.off('item.created', onItemCreated);
    dispose();
  };
}

/**
 * Keeps one socket.io connection open while the signed-in app frame is mounted and lets it
 * feed the query cache. Mount it once, in the frame.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = connectSocket();
    const detachCharts = feedQueryCache(socket, queryClient);
    const detachGeneration = feedGenerationCache(socket, queryClient);
    return () => {
      detachCharts();
      detachGeneration();
      socket.disconnect();
    };
  }, [queryClient]);
}

/** Who is online, as last pushed by the server (empty until the first push). */
export function usePresence(): PresenceUsers {
  const { data } = useQuery<PresenceUsers>({ queryKey: queryKeys.presence(), queryFn: skipToken, staleTime: Infinity });
  return data ?? [];
}
