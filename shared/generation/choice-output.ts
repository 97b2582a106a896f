import { z } from 'zod';
import { freeText } from '../domain/text-input';
import { ModelItemOutputSchema, type Converted, type ModelItem, type ModelItemOutput } from './model-output';

/**
 * Stage 2's wire when the request lists proposals to choose from (a task paired `choose`,
 * shared/generation/pairing.ts): the item's keys after two more, `proposal` — the number of the
 * listed proposal the item performs — and `decline` — null, or why no listed proposal can change
 * the answer. Strict structured output wants every key, so a decline still carries the item's
 * keys, empty: `answer_type` and `affects_answer` are nullable here, and required again (by
 * `toChosenItem`) when the reply does not decline.
 */

const CHOICE_KEYS = {
  proposal: z.number().int().nullable().describe('The number of the listed proposal the item performs (1 for the first); null when declining.'),
  decline: z
    .string()
    .nullable()
    .describe('null; or, only when no listed proposal can change this answer, one sentence saying why: the other keys may then be empty.'),
};

export const ModelChoiceItemOutputSchema = z.object(CHOICE_KEYS).extend(ModelItemOutputSchema.shape).extend({
  answer_type: ModelItemOutputSchema.shape.answer_type.nullable(),
  affects_answer: ModelItemOutputSchema.shape.affects_answer.nullable(),
});
export type ModelChoiceItemOutput = z.infer<typeof ModelChoiceItemOutputSchema>;

/** A choose-mode reply read: the model declined, or wrote the item under the candidate it numbers (1-based). */
export type Chosen<I = ModelItem> = { declined: string } | { candidate: number; item: I };

/** The longest decline reason kept: a sentence, as the prompt asks. */
const MAX_DECLINE_CHARS = 600;
const DeclineSchema = freeText().trim().min(1).max(MAX_DECLINE_CHARS);

/**
 * Reads a choose-mode reply: a decline (with no proposal number) ends there, whatever the item
 * keys hold; otherwise the number must name a listed candidate, and the rest is read as an item
 * by `readItem` (the one-chart or the group reader). Reasons name the key, for the repair turn.
 */
export function toChosenItem<W extends { proposal: number | null; decline: string | null; answer_type: ModelItemOutput['answer_type'] | null; affects_answer: boolean | null }, I>(
  wire: W,
  candidateCount: number,
  readItem: (item: Omit<W, 'proposal' | 'decline' | 'answer_type' | 'affects_answer'> & { answer_type: ModelItemOutput['answer_type']; affects_answer: boolean }) => Converted<I>,
): Converted<Chosen<I>> {
  const { proposal, decline, answer_type, affects_answer, ...rest } = wire;
  // Strict output fills every key: an empty decline is "no decline".
  if (decline !== null && decline.trim() !== '') {
    if (proposal !== null) return { ok: false, reason: `proposal: ${proposal} with a decline; a reply either chooses a listed proposal (decline null) or declines (proposal null)` };
    const reason = DeclineSchema.safeParse(decline);
    if (!reason.success) return { ok: false, reason: `decline: ${reason.error.issues[0]?.message ?? 'invalid'}` };
    return { ok: true, value: { declined: reason.data } };
  }
  if (proposal === null) return { ok: false, reason: `proposal: the number of the listed proposal the item performs (1 to ${candidateCount}), or a decline saying why none can change the answer` };
  if (proposal < 1 || proposal > candidateCount) return { ok: false, reason: `proposal: ${proposal} is not a listed proposal (1 to ${candidateCount})` };
  if (answer_type === null) return { ok: false, reason: 'answer_type: required unless the reply declines' };
  if (affects_answer === null) return { ok: false, reason: 'affects_answer: required unless the reply declines' };
  const item = readItem({ ...rest, answer_type, affects_answer });
  return item.ok ? { ok: true, value: { candidate: proposal, item: item.value } } : item;
}
