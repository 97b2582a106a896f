import { z } from 'zod';
import { ChartSummarySchema } from './api/charts';
import { ImportReportSchema } from './api/import';
import { RoleSchema } from './domain/roles';

/**
 * Server → client events: name → payload schema. Names read `entity.pastTenseVerb`.
 * The same map types socket.io on both sides.
 */
export const ServerEventSchemas = {
  'chart.updated': z.object({ chart: ChartSummarySchema }),
  'charts.imported': z.object({ report: ImportReportSchema }),
  'presence.changed': z.object({
    users: z.array(z.object({ id: z.number().int(), username: z.string(), role: RoleSchema })),
  }),
} as const;

export type ServerEventName = keyof typeof ServerEventSchemas;
export type ServerEventPayload<E extends ServerEventName> = z.infer<(typeof ServerEventSchemas)[E]>;

export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerEventPayload<E>) => void;
};

/** Client → server events, parsed at runtime on the server. None are needed yet. */
export type ClientToServerEvents = Record<string, never>;
