import type { PairWording } from '../export/pairs-record';

/**
 * A hypothetical item worded as an assertion about a value: "Suppose X were doubled. What would
 * be the value of Y in 2019?" with 70 → "Suppose X were doubled; then the value of Y in 2019
 * would be 70." The question's own words are kept, in their order, except where English needs
 * "would" after the subject ("How many stores would Saint Laurent operate" → "the number of
 * stores that Saint Laurent would operate"). A question no rule fits confidently is asserted as
 * its answer, quoted: `…; then the answer to "How …?" would be 70.` — still one yes/no claim
 * about the same question, never a different question.
 */

export interface WordingOptions {
  /**
   * Whether a word can be a verb (compromise's answer on the server). Without it only "be" and
   * "have" are recognised as the verb after a subject, and other such questions take the quoted form.
   */
  isVerb?: (word: string) => boolean;
}

export interface Worded {
  text: string;
  wording: PairWording;
}

/** Openings of an assumption that make it a conditional clause: "Suppose …; then …". */
const CONDITIONAL = /^(suppose|supposing|assume|assuming|imagine|say|let's say|given that|hypothetically|if)\b/i;
/** An assumption written into the question ("If X doubled, what would Y be?"), split before the question word. */
const INLINE = /^((?:suppose|supposing|assume|assuming|imagine|if|given that)\b[^?]*?),\s+((?:what|how|which|who)\b[^?]*\?)$/i;
const DETERMINERS = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her', 'our', 'this', 'that', 'these', 'those', 'each', 'every', 'all', 'of', 'in', 'on', 'for', 'to', 'by', 'at', 'from', 'with']);
const AUXILIARIES = new Set(['be', 'have']);
/** "How many times would A be B?" counts a ratio, not things: no "the number of times that …". */
const NOT_COUNTED = /^(times|more|less|fewer|percent|percentage)\b/i;
const MEASURE_OF = /^what (percentage|percent|share|proportion|fraction|portion|number|amount) of (.+?) would (.+)$/i;
/** A full stop, or ; :, between two sentences — not the one in "U.S. dollars" or "2.5". */
const SENTENCE_BREAK = /(?:[a-z]{2}|\d|["'”)])[.!?]["'”)]?\s+[A-Z]|[;:]\s/;

/** The item's question and assumption as a claim that the answer is `value`. */
export function assertValue(question: string, assumption: string, value: string, options: WordingOptions = {}): Worded {
  const { clause, ask } = splitAssumption(question.trim(), assumption.trim());
  const statement = ask === null ? null : statementOf(ask, value, options);
  if (statement !== null) return { text: compose(clause, statement), wording: 'statement' };
  return { text: compose(clause, `the answer to "${ask ?? question.trim()}" would be ${value}`), wording: 'answer_to_question' };
}

/** The assumption (as written) and the question asked under it; `ask` null when the question cannot be told from its assumption. */
function splitAssumption(question: string, assumption: string): { clause: string; ask: string | null } {
  if (assumption !== '' && question.startsWith(assumption)) {
    const rest = question.slice(assumption.length).trim();
    return { clause: assumption, ask: rest === '' ? null : rest };
  }
  const inline = INLINE.exec(question);
  if (inline?.[1] && inline[2]) return { clause: inline[1], ask: inline[2].charAt(0).toUpperCase() + inline[2].slice(1) };
  return { clause: '', ask: null };
}

/** "Suppose …; then S.", "If …, then S.", or "<assumption> Then S." for an assumption that is not one conditional clause. */
function compose(clause: string, statement: string): string {
  const trimmed = clause.trim();
  const bare = trimmed.replace(/[.!;,]+$/, '');
  if (bare === '') return `${statement.charAt(0).toUpperCase()}${statement.slice(1)}.`;
  if (!SENTENCE_BREAK.test(bare) && CONDITIONAL.test(bare)) return /^if\b/i.test(bare) ? `${bare}, then ${statement}.` : `${bare}; then ${statement}.`;
  return `${/[.!?]["'”)]?$/.test(trimmed) ? trimmed : `${trimmed}.`} Then ${statement}.`;
}

/** The question as a statement of `value`, or null when no rule fits it confidently. */
export function statementOf(ask: string, value: string, options: WordingOptions = {}): string | null {
  // One question, ending in its only question mark; no second sentence before it.
  if (!/\?$/.test(ask) || ask.indexOf('?') !== ask.length - 1) return null;
  const body = ask.replace(/\s*\?$/, '').replace(/\s+/g, ' ');
  if (SENTENCE_BREAK.test(body)) return null;
  let m = /^what would be (.+)$/i.exec(body);
  if (m?.[1]) return `${m[1]} would be ${value}`;
  m = /^what would (.+?) be\b(.*)$/i.exec(body);
  if (m?.[1] && !/\bwould\b/i.test(m[1])) return `${m[1]} would be ${value}${m[2] ?? ''}`;
  m = /^what (is|was|are|were) (.+)$/i.exec(body);
  if (m?.[1] && m[2]) return `${m[2]} ${m[1].toLowerCase()} ${value}`;
  m = /^in how many (\w+) would (.+?) be (.+)$/i.exec(body);
  if (m?.[1] && m[2] && m[3] && !/\bwould\b/i.test(m[2])) return `the number of ${m[1]} in which ${m[2]} would be ${m[3]} would be ${value}`;
  m = /^how many (.+?) would there be\b(.*)$/i.exec(body);
  if (m?.[1]) return `there would be ${value} ${m[1]}${m[2] ?? ''}`;
  m = /^how (many|much) (.+?) would (.+)$/i.exec(body);
  if (m?.[1] && m[2] && m[3]) {
    if (NOT_COUNTED.test(m[2]) || /\bwould\b/i.test(m[2])) return null;
    const clause = relativeClause(m[3], options);
    return clause === null ? null : `the ${m[1].toLowerCase() === 'many' ? 'number' : 'amount'} of ${m[2]} ${clause} would be ${value}`;
  }
  m = MEASURE_OF.exec(body);
  if (m?.[1] && m[2] && m[3]) {
    if (/\bwould\b/i.test(m[2])) return null;
    const clause = relativeClause(m[3], options);
    return clause === null ? null : `the ${m[1].toLowerCase()} of ${m[2]} ${clause} would be ${value}`;
  }
  return null;
}

/**
 * What follows "How many N would": either N's own verb phrase ("be shown in the graph" → "that
 * would be shown in the graph") or a subject and its verb ("Saint Laurent operate in 2020" →
 * "that Saint Laurent would operate in 2020"). Null when the verb cannot be found.
 */
function relativeClause(rest: string, { isVerb }: WordingOptions): string | null {
  const words = rest.split(' ');
  const first = words[0] ?? '';
  const verbAt = (i: number): boolean => {
    const word = words[i] ?? '';
    if (AUXILIARIES.has(word)) return true;
    if (!isVerb || !/^[a-z]+$/.test(word)) return false;
    const previous = (words[i - 1] ?? '').toLowerCase();
    // After a determiner, a possessive or a number a word is a noun ("the chart", "520000 values").
    return !DETERMINERS.has(previous) && !/'s$/.test(previous) && !/^[-$€£]?\d/.test(previous) && isVerb(word);
  };
  // "be"/"have" anywhere after a subject, else the first verb after one.
  const auxiliary = words.findIndex((w, i) => i > 0 && AUXILIARIES.has(w));
  const later = auxiliary !== -1 ? auxiliary : words.findIndex((_w, i) => i > 0 && verbAt(i));
  if (AUXILIARIES.has(first)) return `that would ${rest}`;
  if (verbAt(0)) return later === -1 ? `that would ${rest}` : null; // "would smartphone users … spend": which word is the verb is not clear
  if (later === -1) return null;
  return `that ${words.slice(0, later).join(' ')} would ${words.slice(later).join(' ')}`;
}
