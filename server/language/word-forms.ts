import { nlp } from './nlp';

/**
 * Word forms by compromise, one word at a time. compromise parses a whole sentence for each
 * answer (milliseconds), and its answer about a single word never changes, so each is
 * computed once per process.
 */

function perWord<T>(compute: (word: string) => T): (word: string) => T {
  const cache = new Map<string, T>();
  return (word) => {
    if (!cache.has(word)) cache.set(word, compute(word));
    return cache.get(word) as T;
  };
}

/** "halved" → "halve", "shrank" → "shrink", "led" → "lead"; the word itself when compromise knows no verb form. */
export const infinitive = perWord((word) => nlp(`they ${word}`).verbs().toInfinitive().text().trim().toLowerCase() || word);

/** Whether the word can be a verb: compromise tags it so in "they ___ it". */
export const canBeVerb = perWord((word) => nlp(`they ${word} it`).docs[0]?.[1]?.tags?.has('Verb') === true);

/** "bars" → "bar", "categories" → "category". */
export const singular = perWord((word) => {
  const text = nlp(`the ${word}`).nouns().toSingular().text().toLowerCase();
  return text.startsWith('the ') ? text.slice(4) : word;
});
