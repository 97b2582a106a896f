import type { QuestionRelation } from '../../shared/domain/generation';
import { infinitive } from './word-forms';

/**
 * Is an item's question the factual question under an assumption? The Chart-HQA paper
 * "imposes assumptions on the same question": the hypothetical question may change only the
 * grammar a hypothetical needs ("is" → "would be", "did X grow" → "would X grow", "led" →
 * "would lead", a "then"). So both questions are reduced to their content words — auxiliaries,
 * modals and "then" dropped, verb forms compared by their infinitive — and the item's words
 * after its assumption must be the factual question's words, in order.
 */

/** Words a hypothetical adds, drops or moves without changing what is asked. */
const GRAMMATICAL = new Set([
  ...['is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', "'s", "'re"],
  ...['would', 'will', 'do', 'does', 'did', 'has', 'have', 'had'],
  ...['then', 'now'],
  // "the light blue bar" for "light blue bar": an article asks nothing of its own.
  'the',
]);

/** "what's" → "what is", so a contraction on either side compares with the full form. */
const CONTRACTIONS: [RegExp, string][] = [
  [/\b(what|who|where|which|how|that|it|there|here)'s\b/g, '$1 is'],
  [/\b(what|who|where|which|how|they|we|you)'re\b/g, '$1 are'],
  [/n't\b/g, ' not'],
];

/** A question's content words, lower case, with the grammatical words dropped. */
export function contentWords(text: string): string[] {
  let t = text.toLowerCase().replace(/[’‘]/g, "'").replace(/[“”]/g, '"');
  for (const [pattern, replacement] of CONTRACTIONS) t = t.replace(pattern, replacement);
  const words = t.match(/[\p{L}\p{N}]+(?:[.,/'’-][\p{L}\p{N}]+)*%?/gu) ?? [];
  return words.filter((word) => !GRAMMATICAL.has(word));
}

/** Two words are the same when they are equal or forms of one verb ("accounted" / "account"). */
function sameWord(a: string, b: string): boolean {
  return a === b || infinitive(a) === infinitive(b);
}

/** An assumption written into the question itself ("If X doubled, what would Y be?"). */
const INLINE_ASSUMPTION = /^(suppose|supposing|if|assume|assuming|imagine|given that|let's say|say|hypothetically)\b/;

/**
 * `same` when the item's question, after its assumption, asks the factual question word for
 * word (up to the grammar of a hypothetical); else `different`. A question that carries its
 * assumption inline instead ("If X doubled, what would Y be?") must end with the factual words.
 */
export function questionRelation(factualQuery: string, itemQuestion: string, assumption: string): QuestionRelation {
  const q = itemQuestion.trim();
  const a = assumption.trim();
  const stripped = a !== '' && q.startsWith(a);
  const factual = contentWords(factualQuery);
  const asked = contentWords(stripped ? q.slice(a.length) : q);
  if (factual.length === 0 || asked.length < factual.length) return 'different';
  const lead = asked.length - factual.length;
  if (!asked.slice(lead).every((word, i) => sameWord(word, factual[i] ?? ''))) return 'different';
  if (lead === 0) return 'same';
  // Words before the factual ones may only be an inline assumption, never more question.
  return !stripped && INLINE_ASSUMPTION.test(q.toLowerCase()) ? 'same' : 'different';
}
