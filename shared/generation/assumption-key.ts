/**
 * An assumption as "the same assumption" is judged: case, spacing, quotes and the final stop do
 * not make a rejected item new. Generation refuses an item whose QA and assumption a reviewer
 * rejected before, whatever proposal it comes under.
 */
export function assumptionKey(assumption: string): string {
  return assumption
    .toLowerCase()
    .replace(/["'“”‘’]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '');
}
