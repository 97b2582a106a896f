import { z } from 'zod';
import { ChartSummarySchema } from './api/charts';
import { ImportReportSchema } from './api/import';
import { ItemSummarySchema } from './api/items';
import { ProposalSchema } from './api/pool';
import { RunSchema } from './api/runs';
import { RoleSchema } from './domain/roles';

/**
 * Server → client events: name → payload schema. Names read `entity.pastTenseVerb`.
 * The same map types socket.io on both sides.
 */
export const ServerEventSchemas = {
  'chart.updated': z.object({ chart: ChartSummarySchema }),
  'charts.imported': z.object({ report: ImportReportSchema }),
  'run.created': z.object({ run: RunSchema }),
  /** Counters, tokens, cost or status changed; throttled while a run is busy. */
  'run.progressed': z.object({ run: RunSchema }),
  'proposal.created': z.object({ proposal: ProposalSchema }),
  'proposal.updated': z.object({ proposal: ProposalSchema }),
  'item.created': z.object({ item: ItemSummarySchema }),
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
