import { z } from 'zod';

/**
 * How a model's Stage 2 task is paired with a proposal, decided by the server before its request
 * is built (server/generation/pairing.ts) and stored on the task (`run_tasks.pairing`, migration
 * 029), so every request for the task — a retry, a repair, a batch file read back — offers the
 * same:
 * - `paired`: the rules programmed the question and this proposal's operation moves its answer
 *   (for a control task, keeps it); the request asks for the item under this proposal.
 * - `choose`: the rules could not program the question; the request lists these proposals (the
 *   task's own first) and the model picks one by its number, or declines.
 * - `none`: the question was programmed, but no proposal's operation moves its answer (or the
 *   table has nothing to compute): no request is sent, and the task ends declined with `reason`.
 */
export const PairingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('paired'), proposalId: z.number().int() }),
  z.object({ kind: z.literal('choose'), candidateIds: z.array(z.number().int()).min(1) }),
  z.object({ kind: z.literal('none'), reason: z.string().min(1) }),
]);
export type Pairing = z.infer<typeof PairingSchema>;

/** The most proposals a `choose` request lists: enough to hold a working one, few enough to read. */
export const MAX_CANDIDATES = 5;
