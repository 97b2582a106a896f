import { nlp } from '../language/nlp';
import type { Operation } from '../../shared/api/analytics';
import { canBeVerb, infinitive, singular } from '../language/word-forms';

/*
 * The counterfactual operation a proposal names, as the paper's Figure 3 draws it: the main
 * verb (infinitive) and the head noun of what it acts on (singular), both lower case. A rule
 * layer over compromise's part-of-speech tags, since compromise has no dependency parse.
 */

/**
 * Verbs that frame a hypothesis rather than name a change: the operation is the verb of the
 * clause they introduce ("Suppose every bar were reduced" → reduce/bar), never themselves.
 */
const FRAME_VERBS = new Set(['suppose', 'imagine', 'assume', 'consider', 'pretend', 'say', 'hypothesize', 'hypothesise', 'picture', 'envision']);
/** Light verbs: used only when no better verb follows ("Let the bar grow" → grow/bar, "Make the bar the largest" → make/bar). */
const LIGHT_VERBS = new Set(['make', 'let', 'have', 'get']);
const AUXILIARIES = new Set([
  ...['be', 'is', 'are', 'was', 'were', 'been', 'being', 'am', 'had', 'has', 'have', 'do', 'does', 'did'],
  ...['would', 'could', 'should', 'will', 'shall', 'may', 'might', 'must', 'can', 'not', 'never'],
]);
/** Openers that carry no operation: "What if …", "Hypothetically, …", "Then …". */
const OPENERS = new Set(['what', 'if', 'hypothetically', 'please', 'then', 'now', 'instead', 'and', 'so', 'that']);
/** Words that only select or count what follows: determiners and quantifiers, whatever compromise tags them. */
const SELECTORS = new Set([
  ...['the', 'a', 'an', 'this', 'that', 'these', 'those', 'every', 'each', 'all', 'both', 'another', 'other', 'some', 'any', 'no'],
  ...['its', 'their', 'his', 'her', 'our', 'my', 'your', 'more', 'most', 'same'],
]);
/** "part of one segment", "the rest of the bars": the operation acts on what comes after "of". */
const PARTITIVES = new Set(['part', 'portion', 'rest', 'some', 'half', 'all', 'each', 'any', 'most', 'none', 'both', 'one', 'two', 'either', 'neither', 'many', 'few']);
/** Particles that may sit between a verb and its object ("Shift up the line"). */
const PARTICLES = new Set(['up', 'down', 'out', 'back', 'away', 'off', 'over']);
/** Words that end the clause holding the operation. */
const CLAUSE_ENDS = new Set(['and', 'while', 'but', 'so', 'until', 'because', 'whereas', 'then', 'or']);

interface Token {
  word: string;
  tags: ReadonlySet<string>;
  /** Punctuation after the word ends the clause (comma, semicolon, dash …). */
  breaks: boolean;
}

/** compromise's terms, with hyphenated parts joined back ("re-normalise") and possessive marks dropped. */
function tokenize(sentence: readonly { text: string; normal: string; post: string; tags?: Set<string> }[]): Token[] {
  const tokens: Token[] = [];
  let prefix = '';
  for (const term of sentence) {
    if (term.text === '') continue;
    const part = term.normal.replace(/[^a-z0-9'-]/g, '');
    const tags = new Set(term.tags ?? []);
    if (term.post.trim() === '-') {
      prefix = `${prefix}${part}-`;
      continue;
    }
    const word = `${prefix}${part}`;
    prefix = '';
    const possessive = /'s?$/.test(word) || term.post.startsWith("'");
    if (possessive) tags.add('Possessive');
    tokens.push({ word: word.replace(/'s?$/, ''), tags, breaks: /[,;:–—()]/.test(term.post) });
  }
  return tokens;
}

const isAuxiliary = (t: Token) => AUXILIARIES.has(t.word) || t.tags.has('Auxiliary') || t.tags.has('Copula') || t.tags.has('Modal');
const isPronoun = (t: Token) => t.tags.has('Pronoun');
const isNoun = (t: Token) => t.tags.has('Noun') && !isPronoun(t) && !SELECTORS.has(t.word);
const isModifier = (t: Token) =>
  SELECTORS.has(t.word) || ['Determiner', 'Value', 'Adjective', 'Adverb'].some((tag) => t.tags.has(tag)) || /^\d/.test(t.word);

/** An inflected verb form compromise may take for a noun ("were halved", "the slice halved its share"). */
const isInflectedVerb = (t: Token) => /(ed|en)$/.test(t.word) && !isAuxiliary(t) && canBeVerb(t.word) && infinitive(t.word) !== t.word;

/** A possible verb of the clause from `from` on, before it ends. */
function verbAhead(tokens: readonly Token[], from: number): boolean {
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (CLAUSE_ENDS.has(t.word)) return false;
    if ((t.tags.has('Verb') && !isAuxiliary(t)) || isInflectedVerb(t)) return true;
    if (t.breaks) return false;
  }
  return false;
}

/**
 * A present-tense "verb" right after a head noun and before a preposition is the compound's
 * real head when the clause has its verb elsewhere: "the sales figure for 2019 doubled",
 * "Shrink the median slice by a quarter", "Move 5 percentage points from …".
 */
function continuesCompound(tokens: readonly Token[], i: number, isObject: boolean): boolean {
  const t = tokens[i] as Token;
  if (!t.tags.has('Verb') || isAuxiliary(t) || PARTICLES.has(t.word) || t.tags.has('PastTense') || t.tags.has('Gerund') || t.breaks) return false;
  if (!tokens[i + 1]?.tags.has('Preposition')) return false;
  return isObject || verbAhead(tokens, i + 1);
}

/**
 * The head noun of the noun phrase starting at `start`: modifiers and possessors are passed
 * over ("every point's horizontal value" → value), a partitive gives way to its complement
 * ("part of one segment" → segment), and compound nouns keep their last word.
 */
function nounPhrase(tokens: readonly Token[], start: number, isObject: boolean): { head: string | null; end: number } {
  let head: Token | null = null;
  let modified = false;
  let i = start;
  while (i < tokens.length) {
    const t = tokens[i] as Token;
    const next = tokens[i + 1];
    if (head === null && PARTITIVES.has(t.word) && next?.word === 'of') {
      i += 2;
      continue;
    }
    const possessive = t.tags.has('Possessive') && !isPronoun(t);
    const coordinated = head === null && modified && (t.word === 'and' || t.word === 'or') && next !== undefined && isModifier(next);
    if (possessive && (isNoun(t) || head !== null)) {
      head = null;
      modified = true;
    } else if (coordinated || (head === null && isModifier(t))) {
      modified = true;
    } else if (isInflectedVerb(t)) {
      break;
    } else if (isNoun(t) || (head === null && modified && t.tags.has('Verb') && !isAuxiliary(t)) || (head !== null && continuesCompound(tokens, i, isObject))) {
      // After "the"/"one"/an adjective a word compromise took for a verb is a noun ("Shift one line up").
      head = t;
    } else {
      break;
    }
    i++;
    if (t.breaks) break;
  }
  return { head: head ? singular(head.word) : null, end: i };
}

/**
 * A declarative clause from `start`: its subject is what the operation acts on, its first
 * full verb (past participles after "were" included, which compromise often takes for nouns)
 * the operation ("one series' values were halved" → halve/value).
 */
function clauseOperation(tokens: readonly Token[], start: number): Operation | null {
  const from = skipFraming(tokens, start);
  const subject = nounPhrase(tokens, from, false);
  if (subject.head === null) return null;
  for (let i = subject.end; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (CLAUSE_ENDS.has(t.word)) return null;
    // "a scenario where the second series grows": the operation is in the inner clause.
    if (t.word === 'where') return clauseOperation(tokens, i + 1);
    if (isAuxiliary(t)) continue;
    if ((t.tags.has('Verb') && !t.tags.has('Gerund')) || isInflectedVerb(t)) {
      const verb = infinitive(t.word);
      return FRAME_VERBS.has(verb) ? null : { verb, noun: subject.head };
    }
    if (t.breaks) return null;
  }
  return null;
}

/** The sentence opens with a verb in its base form that takes what follows as its object. */
function opensWithVerb(tokens: readonly Token[], i: number): boolean {
  const first = tokens[i];
  if (!first || isModifier(first) || isPronoun(first) || !canBeVerb(first.word) || infinitive(first.word) !== first.word) return false;
  if (first.tags.has('Verb')) return true;
  // compromise takes many sentence-initial imperatives for nouns ("Swap the values"): accept the
  // verb reading when an object follows, not when the word is itself a subject ("Bar heights are …").
  const next = tokens[i + 1];
  if (!next) return false;
  if (isModifier(next) || PARTITIVES.has(next.word)) return true;
  const after = tokens[i + 2];
  return isNoun(next) && !(after && (isAuxiliary(after) || after.tags.has('Verb')));
}

/**
 * Skips what frames the operation without naming it: openers ("What if", "Then") and a
 * leading phrase set off by a comma ("Within one legend group, swap …").
 */
function skipFraming(tokens: readonly Token[], start: number): number {
  let i = start;
  for (;;) {
    const t = tokens[i];
    if (!t) return i;
    if (OPENERS.has(t.word) || t.tags.has('QuestionWord')) {
      i++;
      continue;
    }
    const comma = tokens.findIndex((u, j) => j >= i && u.breaks);
    if (!t.tags.has('Preposition') || comma < 0 || comma + 1 >= tokens.length) return i;
    i = comma + 1;
  }
}

/** The verb's object; past a preposition when the verb has none before it ("Subtract 3 from each value"). */
function objectOf(tokens: readonly Token[], verbAt: number): string | null {
  let start = verbAt + 1;
  while (PARTICLES.has(tokens[start]?.word ?? '')) start++;
  const object = nounPhrase(tokens, start, true);
  if (object.head !== null || !tokens[object.end]?.tags.has('Preposition')) return object.head;
  return nounPhrase(tokens, object.end + 1, true).head;
}

function sentenceOperation(tokens: readonly Token[]): Operation | null {
  const i = skipFraming(tokens, 0);
  if (!opensWithVerb(tokens, i)) return clauseOperation(tokens, i);
  let verbAt = i;
  const verb = infinitive((tokens[i] as Token).word);
  if (FRAME_VERBS.has(verb) || LIGHT_VERBS.has(verb)) {
    const next = tokens[i + 1];
    if (next?.tags.has('Gerund')) {
      // "Consider removing the largest slice": the gerund is the operation.
      verbAt = i + 1;
    } else {
      const embedded = clauseOperation(tokens, i + 1);
      if (embedded || FRAME_VERBS.has(verb)) return embedded;
    }
  }
  const noun = objectOf(tokens, verbAt);
  return noun === null ? null : { verb: infinitive((tokens[verbAt] as Token).word), noun };
}

/** The number of proposal texts whose operation is remembered; far above any pool's size. */
const OPERATION_CACHE_LIMIT = 20_000;
const operationCache = new Map<string, Operation | null>();

/**
 * The verb–object pair of a proposal's operation, from compromise's part-of-speech tags:
 * the first sentence that names one decides. Null when no verb with a noun object is found.
 * Pure and cached per text.
 */
export function extractOperation(text: string): Operation | null {
  const cached = operationCache.get(text);
  if (cached !== undefined) return cached;
  let result: Operation | null = null;
  for (const sentence of nlp(text).docs) {
    result = sentenceOperation(tokenize(sentence));
    if (result) break;
  }
  // Callers share the cached object.
  if (result) Object.freeze(result);
  if (operationCache.size >= OPERATION_CACHE_LIMIT) operationCache.clear();
  operationCache.set(text, result);
  return result;
}

/** "raise/category": the key that diversity counts and coverage cells use. */
export const operationKey = (op: Operation): string => `${op.verb}/${op.noun}`;

/**
 * The operation an item carries out: its proposal's, or — for an item written without one,
 * as hand-written items usually are — the one its assumption names.
 */
export function itemOperation(proposalText: string | null, assumption: string): Operation | null {
  return extractOperation(proposalText ?? assumption);
}
