import { l as rougeL, sentenceSegment, treeBankTokenize } from 'js-rouge';

/** Self-Instruct's filter: a new instruction this close (ROUGE-L F) to one in the pool is a duplicate. */
export const DEFAULT_ROUGE_THRESHOLD = 0.7;

/** Texts whose sentences and tokens are kept: a pool and a Stage 1 draw compare the same few hundred texts thousands of times. */
const MEMO_LIMIT = 4096;

/**
 * The library's own segmenter and tokenizer, remembered per text: segmenting is most of a
 * comparison's cost (its sentence rules run per call), and the answers are the same each time.
 */
function memoized(fn: (input: string) => string[]): (input: string) => string[] {
  const memo = new Map<string, string[]>();
  return (input) => {
    let found = memo.get(input);
    if (!found) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      found = fn(input);
      memo.set(input, found);
    }
    return found;
  };
}

const segmenter = memoized((input) => sentenceSegment(input, { caseNeutral: true }));
const tokenizer = memoized(treeBankTokenize);

/** ROUGE-L F1 between two proposal texts, case-insensitive (folded here, so the memo holds one form). */
export function rougeLF(a: string, b: string): number {
  if (a.trim() === '' || b.trim() === '') return 0;
  return rougeL(a.toLowerCase(), b.toLowerCase(), { beta: 1, caseSensitive: true, segmenter, tokenizer });
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
