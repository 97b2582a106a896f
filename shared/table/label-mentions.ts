import { normalizeLabel } from './labels';

/**
 * Where a question names a table's rows and series. Questions are written by people looking at
 * the chart: they drop footnote marks and parentheses, say "first quarter of 2018" for
 * "Q1 2018", and name a multi-word label by its distinctive word ("online" for "Online sales").
 * The offline engine programs questions from these mentions, and the item checks hold a
 * program's reads against them.
 */

export interface Mention {
  label: string;
  /** Offsets into the normalised question text (see `questionText`). */
  at: number;
  end: number;
}

/** Words too common to name a label on their own. */
const STOPWORDS = new Set(['the', 'of', 'and', 'in', 'for', 'to', 'a', 'an', 'on', 'by', 'at', 'with', 'from', 'value', 'values', 'share', 'number', 'total', 'rate']);

/** A question as mentions are found in it: lower case, one space between words, padded. */
export function questionText(query: string): string {
  return ` ${query.toLowerCase().replace(/[’]/g, "'").replace(/\s+/g, ' ').trim()} `;
}

export function overlaps(a: { at: number; end: number }, b: { at: number; end: number }): boolean {
  return a.at < b.end && b.at < a.end;
}

/** Spellings a question may use for a label: as written, without a parenthesis or footnote mark, its distinctive words. */
export function spellings(label: string, all: readonly string[]): string[] {
  const full = normalizeLabel(label).replace(/[?!"]/g, '');
  const out = new Set([full, full.replace(/\s*\([^)]*\)\s*/g, ' ').trim()]);
  // "craft" for "Crafts": a question may name one of a plural category.
  if (/[a-z]{3}s$/.test(full)) out.add(full.slice(0, -1));
  const quarter = /^q([1-4])\s+(\d{4})$/.exec(full);
  if (quarter) out.add(`${['first', 'second', 'third', 'fourth'][Number(quarter[1]) - 1]} quarter of ${quarter[2]}`);
  // A multi-word label ("Domestic market", "Online sales") is also named by the words no other label has.
  const words = full.split(' ').filter((w) => w.length > 2 && !STOPWORDS.has(w));
  const others = all.filter((other) => other !== label).map((other) => normalizeLabel(other).split(' '));
  const distinctive = words.filter((w) => !others.some((other) => other.includes(w)));
  if (words.length > 1 && distinctive.length > 0) out.add(distinctive.join(' '));
  if (words.length > 1 && distinctive.length === 1 && distinctive[0]) out.add(distinctive[0]);
  // "Facebook page" for "Facebook fans": each distinctive word of some length names it alone.
  if (words.length > 1) for (const word of distinctive) if (word.length >= 5 && !/^\d+$/.test(word)) out.add(word);
  // "Airlines" for "Thomas Cook Airline", "newsagents" for "Newsagent": a question may use the plural.
  for (const spelling of [...out]) if (/[a-z]$/.test(spelling) && !/s$/.test(spelling) && spelling.length >= 3) out.add(`${spelling}s`);
  return [...out].filter((s) => s.length >= 2 || /^\d$/.test(s));
}

const BEFORE = '(?<![\\p{L}\\p{N}])';
const AFTER = "(?:'s)?(?![\\p{L}\\p{N}])";
/**
 * Below this many letters a label could be spaced into a question by chance ("u s" for "US").
 * ChartQA squashes short labels too ("Notsafe", "Atall"): 6 letters and up are read spaced.
 */
const MIN_LOOSE_LETTERS = 6;

/** One spelling of a label as `mentions` looks for it: as written, and spaced or hyphenated otherwise. */
interface Pattern {
  label: string;
  /** The spelling, which a question must contain for `exact` to match. */
  spelling: string;
  exact: RegExp;
  /** Its letters without spaces or hyphens, which a question so written must contain for `loose` to match. */
  letters: string;
  /** The same letters spaced or hyphenated otherwise; null for a spelling too short to risk it. */
  loose: RegExp | null;
}

/**
 * A table's patterns by its labels. The offline engine and the item checks ask about the same
 * table once per question, program and check, and each call made every label's spellings (each
 * against all the other labels) and their expressions anew.
 */
const patternsByLabels = new Map<string, readonly Pattern[]>();
/** Tables whose patterns are kept; the oldest goes first. */
const KEPT_TABLES = 256;

function patternsFor(labels: readonly string[]): readonly Pattern[] {
  const key = labels.join('\u0000');
  const kept = patternsByLabels.get(key);
  if (kept) return kept;
  const options = labels.flatMap((label) => spellings(label, labels).map((spelling) => ({ label, spelling })));
  options.sort((a, b) => b.spelling.length - a.spelling.length);
  const patterns = options.map(({ label, spelling }): Pattern => {
    const letters = [...spelling.replace(/[\s-]+/g, '')];
    return {
      label,
      spelling,
      letters: letters.join(''),
      exact: new RegExp(`${BEFORE}${escapeRegExp(spelling)}${AFTER}`, 'gu'),
      loose: letters.length < MIN_LOOSE_LETTERS ? null : new RegExp(`${BEFORE}${letters.map(escapeRegExp).join('[\\s-]?')}${AFTER}`, 'gu'),
    };
  });
  if (patternsByLabels.size >= KEPT_TABLES) patternsByLabels.delete(patternsByLabels.keys().next().value as string);
  patternsByLabels.set(key, patterns);
  return patterns;
}

/** Every label of `labels` that `q` (a `questionText`) names, longest spelling first, no two overlapping, in the order they appear. */
export function mentions(q: string, labels: readonly string[]): Mention[] {
  const found: Mention[] = [];
  // A question names few of a table's spellings: looking for the text first spares running the
  // expressions (a look-behind at every position) for all the others.
  const compact = q.replace(/[\s-]+/g, '');
  const find = (label: string, pattern: RegExp) => {
    // matchAll works on a copy of the expression: the kept one's lastIndex is never moved.
    for (const match of q.matchAll(pattern)) {
      const m = { label, at: match.index, end: match.index + match[0].length };
      if (found.some((f) => overlaps(f, m) || f.label === label)) continue;
      found.push(m);
    }
  };
  // Each spelling as written, then, for a label not found so, the same letters spaced or
  // hyphenated otherwise ("military force" for "Use militaryforce wisely", "hand-washing" for
  // "handwashing") — before any shorter spelling, so a whole label wins over one of its words.
  for (const { label, spelling, exact, letters, loose } of patternsFor(labels)) {
    if (q.includes(spelling)) find(label, exact);
    if (loose === null || !compact.includes(letters) || found.some((f) => f.label === label)) continue;
    find(label, loose);
  }
  return found.sort((a, b) => a.at - b.at);
}

/** The rows and series a question names; a series named by the same words as a row counts as the row. */
export function tableMentions(query: string, rows: readonly string[], series: readonly string[]): { rows: Mention[]; series: Mention[] } {
  const q = questionText(query);
  const rowMentions = mentions(q, rows);
  const seriesMentions = series.length > 1 ? mentions(q, series).filter((s) => !rowMentions.some((r) => overlaps(r, s))) : [];
  return { rows: rowMentions, series: seriesMentions };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
