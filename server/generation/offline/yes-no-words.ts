import type { Mention } from '../../../shared/table/label-mentions';

/**
 * The words of a Yes/No chart question as the Yes/No grammar (yes-no-program.ts) reads them:
 * table labels as single tokens (so "Asia and Oceania" is never split at its "and"), numbers
 * with their form ("3rd", "1/5th", "90%", "two"), and words. The vocabulary below says which
 * words carry meaning: a program is accepted only when every one of them was read by the
 * grammar, so a question is never answered with a word of it ignored.
 */

export type Token = { at: number } & (
  | { kind: 'label'; dim: 'row' | 'series'; label: string; text: string }
  | { kind: 'number'; value: number; form: 'cardinal' | 'ordinal' | 'fraction'; spelled: boolean; text: string }
  | { kind: 'word'; text: string }
);

const CARDINALS: Record<string, number> = {
  two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};
/** "first" is left out: "the first bar" is a position, not a rank. */
export const ORDINALS: Record<string, number> = {
  second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
};
/** Misspellings seen in ChartQA's human questions, read as meant. */
const TYPOS: Record<string, string> = { then: 'than', lowet: 'lower', grater: 'greater' };

export const SUM_WORDS = new Set(['sum', 'total', 'combined', 'together', 'altogether', 'add']);
export const AVERAGE_WORDS = new Set(['average', 'mean']);
export const MAX_WORDS = new Set(['largest', 'highest', 'biggest', 'greatest', 'maximum', 'max', 'tallest', 'longest']);
export const MIN_WORDS = new Set(['smallest', 'lowest', 'least', 'minimum', 'min', 'shortest']);
export const GREATER_WORDS = new Set(['greater', 'more', 'higher', 'larger', 'bigger', 'longer', 'taller']);
export const LESS_WORDS = new Set(['less', 'lower', 'smaller', 'fewer', 'shorter']);

/**
 * Words that change what a question asks. Each must be read by the grammar, or the question is
 * refused: a position ("leftmost", "last three places") or a quantifier the grammar did not
 * parse would otherwise be silently dropped, and a Yes/No label is reproduced by a wrong
 * program half the time.
 */
const MEANINGFUL = new Set([
  // what the grammar reads: aggregates, ranks, comparisons
  ...SUM_WORDS, ...AVERAGE_WORDS, 'median', 'difference', 'product', 'up',
  ...MAX_WORDS, ...MIN_WORDS, ...GREATER_WORDS, ...LESS_WORDS, ...Object.keys(ORDINALS),
  'than', 'exceed', 'exceeds', 'exceeding', 'above', 'below', 'equal', 'equals', 'same', 'times', 'twice', 'double',
  'triple', 'half', 'quarter', 'and', 'or', 'any', 'all', 'every',
  // positions on the drawing, which the table does not hold
  'left', 'right', 'leftmost', 'rightmost', 'left-side', 'right-side', 'first', 'last', 'top', 'bottom', 'middle',
  'center', 'centre', 'starting', 'start', 'initial', 'beginning', 'end', 'ending', 'final', 'latest', 'earliest',
  'recent', 'previous', 'next', 'side', 'upper', 'front', 'places', 'place', 'position', 'extreme', 'extremes',
  // quantifiers and negation
  'each', 'both', 'either', 'neither', 'only', 'except', 'excluding', 'other', 'others', 'rest', 'remaining',
  'besides', 'none', 'some', 'most', 'majority', 'minority', 'many', 'few', 'several', 'not', 'no', 'never', 'nor',
  'without', "don't", "doesn't", "isn't", "aren't", "wasn't", "weren't", "didn't", "can't", 'cannot', 'non',
  // nearness, change over time, arithmetic the grammar does not parse
  'almost', 'nearly', 'approximately', 'approx', 'about', 'around', 'roughly', 'close', 'closer', 'closest',
  'similar', 'merged', 'near', 'nearest', 'over', 'under', 'increase', 'increases', 'increased', 'increasing',
  'decrease', 'decreases', 'decreased', 'decreasing', 'rise', 'rises', 'rose', 'rising', 'fall', 'falls', 'fell',
  'falling', 'drop', 'drops', 'dropped', 'grow', 'grows', 'grew', 'growth', 'change', 'changes', 'changed',
  'decline', 'declines', 'declined', 'trend', 'down', 'since', 'before', 'after', 'between', 'during', 'until',
  'till', 'through', 'throughout', 'reach', 'reached', 'peak', 'peaks', 'peaked', 'sorted', 'order', 'plus',
  'minus', 'multiply', 'multiplied', 'divide', 'divided', 'ratio', 'gap', 'percent', 'if', 'whether', 'when',
  'which', 'what', 'how', 'who', 'why', 'where',
  // symbols outside labels
  '+', '=', '/', '<', '>',
]);

export function isMeaningful(word: string): boolean {
  return MEANINGFUL.has(word);
}

/** Words the grammar itself reads: a table label spelled as one of them ("Total", "More", "No") could be either. */
const GRAMMAR = new Set([
  ...SUM_WORDS, ...AVERAGE_WORDS, 'median', 'difference', 'product', ...MAX_WORDS, ...MIN_WORDS, ...GREATER_WORDS,
  ...LESS_WORDS, 'than', 'equal', 'same', 'all', 'any', 'every', 'and', 'or', 'not', 'no',
]);

export function isGrammarWord(text: string): boolean {
  return GRAMMAR.has(text);
}

const NUMBER = /(\d+)\s*\/\s*(\d+)(?:st|nd|rd|th)?(?![\p{L}\p{N}])|(\d[\d,]*(?:\.\d+)?)(st|nd|rd|th)?(?![\p{N}])/uy;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'-]*/uy;
const PERCENT = /\s*(%|percent(?![\p{L}]))/uy;

/**
 * The tokens of `q` (a `questionText`), with the mentions `tableMentions` found in it as
 * label tokens. A mention's surface text is kept: a label that is also a word of the grammar
 * (a row "Total", a series "More") makes the question ambiguous.
 */
export function tokenize(q: string, rows: readonly Mention[], series: readonly Mention[]): Token[] {
  const mentions = [...rows.map((m) => ({ m, dim: 'row' as const })), ...series.map((m) => ({ m, dim: 'series' as const }))];
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const ch = q.charAt(i);
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const mention = mentions.find(({ m }) => m.at === i);
    if (mention) {
      tokens.push({ at: i, kind: 'label', dim: mention.dim, label: mention.m.label, text: q.slice(mention.m.at, mention.m.end).replace(/'s$/, '') });
      i = mention.m.end;
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(q);
    if (number) {
      i = NUMBER.lastIndex;
      if (number[1] && number[2]) {
        tokens.push({ at: number.index, kind: 'number', value: Number(number[1]) / Number(number[2]), form: 'fraction', spelled: false, text: number[0] });
        continue;
      }
      const value = Number((number[3] ?? '').replace(/,/g, ''));
      PERCENT.lastIndex = i;
      if (!number[4] && PERCENT.exec(q)) i = PERCENT.lastIndex;
      tokens.push({ at: number.index, kind: 'number', value, form: number[4] ? 'ordinal' : 'cardinal', spelled: false, text: number[0] });
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(q);
    if (word) {
      i = WORD.lastIndex;
      const text = TYPOS[word[0]] ?? word[0].replace(/'s$/, '');
      const cardinal = CARDINALS[text];
      const ordinal = ORDINALS[text];
      if (cardinal !== undefined) tokens.push({ at: word.index, kind: 'number', value: cardinal, form: 'cardinal', spelled: true, text });
      else if (ordinal !== undefined) tokens.push({ at: word.index, kind: 'number', value: ordinal, form: 'ordinal', spelled: true, text });
      else tokens.push({ at: word.index, kind: 'word', text });
      continue;
    }
    i += 1;
    // Quotes and brackets only set off words; "&" outside a label joins like "and".
    if (/["'()[\]“”‘’`]/.test(ch)) continue;
    tokens.push({ at: i - 1, kind: 'word', text: ch === '&' ? 'and' : ch });
  }
  return tokens;
}

/** The word a token is, or null for a label or number. */
export function wordOf(token: Token | undefined): string | null {
  return token?.kind === 'word' ? token.text : null;
}
