import { z } from 'zod';

/** The longest guideline an admin may write for one criterion (Markdown). */
export const MAX_GUIDELINE_CHARS = 10_000;

/**
 * What each review criterion asks of an item, in Markdown, shown to reviewers one key (`g`)
 * away on the review screen and edited by admins (settings `review_guidelines`). The defaults
 * are the strict reading of DESIGN.md's review section and its list of what a strict reviewer
 * rejects.
 */
export const ReviewGuidelinesSchema = z.object({
  rationality: z.string().max(MAX_GUIDELINE_CHARS),
  correctness: z.string().max(MAX_GUIDELINE_CHARS),
  layout: z.string().max(MAX_GUIDELINE_CHARS),
});
export type ReviewGuidelines = z.infer<typeof ReviewGuidelinesSchema>;

export const DEFAULT_REVIEW_GUIDELINES: ReviewGuidelines = {
  rationality: [
    'The assumption is **sensible** and the question **clear**.',
    '',
    '- The question is the factual question under the assumption: only the grammar a hypothetical needs changes ("is" → "would be").',
    '- The premise is plausible for this chart: a value halved or doubled at most, over time no jump past what the series does.',
    '- **Fail** when the assumption gives the answer away (a rank clause naming it), when the answer follows from the assumption alone, or when the question asks something else than the factual one.',
  ].join('\n'),
  correctness: [
    'The **answer is right for the assumed chart**: apply the assumption to the data table, then answer the question.',
    '',
    '- Compare with the verifier\'s recomputed answer; the verifier is advice, you decide.',
    '- Counts stay whole numbers; the program reads the row and year the question asks about.',
    '- When only the answer is wrong, fail correctness and give the **corrected answer** (`c`): the item can still be accepted.',
  ].join('\n'),
  layout: [
    'The assumption **respects the chart\'s structure**.',
    '',
    '- Shares that summed to 100 (pie slices, 100% stacked bars) still do; shares stay within 0–100.',
    '- A part is never larger than its whole; a total is not left stale after its parts change.',
    '- Named categories and series exist; an added row is not the answer.',
  ].join('\n'),
};
