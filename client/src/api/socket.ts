import { io, type Socket } from 'socket.io-client';
import type { QueryClient } from '@tanstack/react-query';
import type { ChartDetailResponse, ChartListResponse, ChartSummary } from '../../../shared/api/charts';
import {
  ServerEventSchemas,
  type ClientToServerEvents,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
} from '../../../shared/events';
import { queryKeys } from './query-keys';

export type WorkbenchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export type PresenceUsers = ServerEventPayload<'presence.changed'>['users'];

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

/**
 * The one place server pushes reach the react-query cache. Returns a function that detaches
 * the handlers.
 */
export function feedQueryCache(socket: WorkbenchSocket, queryClient: QueryClient): () => void {
  const onChartUpdated = (payload: unknown) => {
    const data = parsePayload('chart.updated', payload);
    if (data) applyChartUpdate(queryClient, data.chart);
  };
  const onChartsImported = (payload: unknown) => {
    if (parsePayload('charts.imported', payload)) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.all() });
    }
  };
  const onPresenceChanged = (payload: unknown) => {
    const data = parsePayload('presence.changed', payload);
    if (data) queryClient.setQueryData<PresenceUsers>(queryKeys.presence(), data.users);
  };
  socket.on('chart.updated', onChartUpdated);
  socket.on('charts.imported', onChartsImported);
  socket.on('presence.changed', onPresenceChanged);
  return () => {
    socket.off('chart.updated', onChartUpdated);
    socket.off('charts.imported', onChartsImported);
    socket.off('presence.changed', onPresenceChanged);
  };
}
