import { l as rougeL } from 'js-rouge';

/** Self-Instruct's filter: a new instruction this close (ROUGE-L F) to one in the pool is a duplicate. */
export const DEFAULT_ROUGE_THRESHOLD = 0.7;

/** ROUGE-L F1 between two proposal texts, case-insensitive. */
export function rougeLF(a: string, b: string): number {
  if (a.trim() === '' || b.trim() === '') return 0;
  return rougeL(a, b, { beta: 1, caseSensitive: false });
}

/** The pool proposal most similar to `text`, when it reaches the threshold. */
export function findNearDuplicate<P extends { id: number; text: string }>(
  text: string,
  pool: readonly P[],
  threshold = DEFAULT_ROUGE_THRESHOLD,
): { proposal: P; score: number } | null {
  let best: { proposal: P; score: number } | null = null;
  for (const proposal of pool) {
    const score = rougeLF(text, proposal.text);
    if (score >= threshold && (!best || score > best.score)) best = { proposal, score };
  }
  return best;
}
