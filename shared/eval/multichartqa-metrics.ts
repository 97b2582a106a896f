import { relaxedCorrect, toFloat } from '../table/answers';
import { pythonRound, pythonStrip } from '../table/python-float';
import { percent } from './metrics';

/**
 * MultiChartQA's scoring (Zivenzhu/Multi-chart-QA, code/mmmu_utils.py and calculate_acc.py,
 * adapted from MMMU's eval utils): the answer is read after an answer indicator, numbers are
 * compared with pix2struct's relaxed rule, strings count when the gold string is contained in
 * the reply, and an answer of several `;`-joined parts earns each part's share when the whole
 * is not right. docs/benchmark-metrics.md lists where we differ from the reference and why.
 */

export const MULTICHARTQA_CHOICES = ['A', 'B', 'C', 'D'] as const;

/** Python's `str.strip(char)` for one character. */
function stripChar(text: string, char: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === char) start += 1;
  while (end > start && text[end - 1] === char) end -= 1;
  return text.slice(start, end);
}

const lastIndex = (text: string, needle: string) => text.lastIndexOf(needle);

/**
 * The chosen letter of a multiple-choice reply, as MultiChartQA's parse_multi_choice_response:
 * letters in "(A)" form first, else " A " (a lone capital), else "A.", else — in a reply of more
 * than five words — "answer: a". Of several "(A)", " A " or "answer: a" candidates the last in the
 * reply wins; of several "A." candidates the first in choice order (A–D) does, because the
 * reference ranks them by where " A " occurs, which is nowhere for all of them, and `np.argmax`
 * of a tie is the first. Null when no letter is found (the reference then picks one at random; we
 * count the reply wrong).
 */
export function parseMultiChoice(reply: string, choices: readonly string[] = MULTICHARTQA_CHOICES): string | null {
  let response = reply;
  for (const char of [',', '.', '!', '?', ';', ':', "'"]) response = stripChar(response, char);
  response = ` ${response.replace(/\n/g, ' ')} `;
  const forms: ((choice: string) => string)[] = [(c) => `(${c})`, (c) => ` ${c} `];
  for (const form of forms) {
    const found = choices.filter((choice) => response.includes(form(choice)));
    if (found.length > 0) return lastOf(found, (choice) => lastIndex(response, form(choice)));
  }
  const dotted = choices.find((choice) => response.includes(`${choice}.`));
  if (dotted !== undefined) return dotted;
  if (response.split(/\s+/).filter((word) => word !== '').length > 5) {
    const lower = response.toLowerCase();
    const found = choices.filter((choice) => lower.includes(`answer: ${choice.toLowerCase()}`));
    if (found.length > 0) return lastOf(found, (choice) => lastIndex(lower, `answer: ${choice.toLowerCase()}`));
  }
  return null;
}

function lastOf(candidates: readonly string[], position: (candidate: string) => number): string | null {
  let best: string | null = null;
  let bestAt = -Infinity;
  for (const candidate of candidates) {
    const at = position(candidate);
    if (at > bestAt) {
      best = candidate;
      bestAt = at;
    }
  }
  return best;
}

/** What follows these is taken as the answer ("Answer: " in the reference list never matches its lowercased text, so is left out). */
const ANSWER_INDICATORS = ['answer: ', 'could be ', 'so ', 'is ', 'thus ', 'therefore ', 'final ', 'answer ', 'result '];
/** Only the last line may be an equation whose right side is the answer. */
const LAST_LINE_INDICATORS = [...ANSWER_INDICATORS, '='];
const TRIVIAL = new Set([':', ',', '.', '!', '?', ';', "'"]);

/**
 * The reply's key parts, as get_key_subresponses: per line (the reference also splits at ". " before a
 * capital, but only after lowercasing, so never), the shortest tail after any indicator's last
 * occurrence; the whole reply when no line has one.
 */
function keyResponses(reply: string): string[] {
  const response = stripChar(reply.trim(), '.').toLowerCase();
  const lines = response.split('\n');
  const keys: string[] = [];
  lines.forEach((line, index) => {
    let shortest: string | null = null;
    for (const indicator of index === lines.length - 1 ? LAST_LINE_INDICATORS : ANSWER_INDICATORS) {
      const at = line.lastIndexOf(indicator);
      if (at === -1) continue;
      // Python's `line.split(indicator)[-1]`: no indicator overlaps itself, so that is what follows its last occurrence.
      const tail = line.slice(at + indicator.length).trim();
      // Python's `if not shortest`: an empty tail is as good as none, so a later indicator replaces it.
      if (shortest === null || shortest === '' || tail.length < shortest.length) shortest = tail;
    }
    if (shortest !== null && shortest !== '' && !TRIVIAL.has(shortest)) keys.push(shortest);
  });
  return keys.length === 0 ? [response] : keys;
}

/**
 * The reference's patterns as Python 3 runs them on a str: `\d` is any Unicode decimal digit
 * (category Nd: "١٢", "５") and `\b` a boundary between a word character — a letter, a number
 * (`str.isalnum()`) or "_" — and anything else, so "5µm" holds no number ("µ" is a letter) and
 * "6́" does (a combining mark is no word character). JavaScript's `\d` and `\b` are ASCII-only.
 */
const D = String.raw`\p{Nd}`;
const W = String.raw`[\p{L}\p{N}_]`;
const B = String.raw`(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
const NUMBER_PATTERNS = [
  String.raw`-?${B}${D}{1,3}(?:,${D}{3})+${B}`, // 1,234,567
  String.raw`-?${D}+(?:\.${D}+)?[eE][+-]?${D}+`, // 1.5e3
  String.raw`-?(?:${D}+\.${D}+|\.${D}+|${D}+${B})(?![eE][+-]?${D}+)(?![,${D}])`, // 12, 3.5, .5
].map((source) => new RegExp(source, 'gu'));

const ANY_DIGIT = /\p{Nd}/u;

/**
 * extract_numbers: every number written in `text`, in the reference's order (with commas,
 * scientific, plain), as written: a number in other digits ("١٢") is read by `normalizeAnswer`,
 * which reads digits as Python's `float()` does.
 */
export function extractNumbers(text: string): string[] {
  // Every pattern needs a digit: most key parts (a word, a letter) have none and skip the three scans.
  if (!ANY_DIGIT.test(text)) return [];
  return NUMBER_PATTERNS.flatMap((pattern) => text.match(pattern) ?? []);
}

/** A parsed reply or gold part: a number (rounded to 2 decimals) or a lowercased string. */
export type Normalized = number | string;

/**
 * normalize_str: a number when Python's float() reads it with commas removed, rounded to 2
 * decimals as Python's `round(x, 2)` rounds (half to even on the exact value: 0.125 → 0.12,
 * where `toFixed(2)` gives 0.13); else lowercased.
 */
export function normalizeAnswer(text: string): Normalized {
  const trimmed = pythonStrip(text);
  const value = trimmed.endsWith('%') ? null : toFloat(trimmed.includes(',') ? trimmed.replace(/,/g, '') : trimmed);
  if (value === null) return trimmed.toLowerCase();
  return pythonRound(value, 2);
}

/** parse_open_response: the key parts, the numbers in them, each normalised, without repeats. */
export function parseOpenResponse(reply: string): Normalized[] {
  const keys = keyResponses(reply);
  const all = [...keys, ...keys.flatMap(extractNumbers)].map(normalizeAnswer);
  return [...new Set(all)];
}

/** Python's `str(float)`, for the relaxed rule's string fallback (`600.0`, not `600`). */
function pythonFloatString(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return Object.is(value, -0) ? '-0.0' : `${value}.0`;
  return String(value);
}

/** One normalised gold part matched by one parsed reply part (eval_open, relaxed_acc). */
function partMatched(gold: Normalized, predicted: Normalized): boolean {
  if (typeof predicted === 'string') return typeof gold === 'string' && predicted.includes(gold);
  const target = typeof gold === 'number' ? pythonFloatString(gold) : gold;
  return relaxedCorrect(pythonFloatString(predicted), target);
}

/** Share (0–1) of the gold parts some parsed reply part matches. */
export function openShare(goldParts: readonly string[], predicted: readonly Normalized[]): number {
  if (goldParts.length === 0) return 0;
  const golds = goldParts.map(normalizeAnswer);
  const matched = golds.filter((gold) => predicted.some((p) => partMatched(gold, p))).length;
  return matched / golds.length;
}

/** The gold answer's `;`-separated parts, trimmed. */
export function answerParts(answer: string): string[] {
  return answer.split(';').map((part) => part.trim());
}

export type MultiChartQaType = 'multiple-choice' | 'open-ended';

/**
 * One question's credit, 0–1. Multiple choice: the share of gold parts equal to the parsed
 * letter. Open-ended: 1 when the whole answer matches, else each `;` part's share.
 */
export function scoreMultiChartQaAnswer(type: MultiChartQaType, answer: string, reply: string | null): number {
  if (reply === null) return 0;
  if (type === 'multiple-choice') {
    const chosen = parseMultiChoice(reply);
    const parts = answerParts(answer);
    return chosen === null ? 0 : parts.filter((part) => part === chosen).length / parts.length;
  }
  const predicted = parseOpenResponse(reply);
  const whole = openShare([answer], predicted);
  // One part is the whole answer again (normalising trims): its share is the whole's.
  if (whole === 1 || !answer.includes(';')) return whole;
  return openShare(answerParts(answer), predicted);
}

export interface MultiChartQaQuestion {
  task: string;
  type: MultiChartQaType;
  answer: string;
  /** The model's reply, whole (the parsing reads its reasoning too); null when it gave none. */
  reply: string | null;
}

export interface CreditScore {
  questions: number;
  /** Sum of the questions' credits (partial credit makes it fractional). */
  credit: number;
  /** Questions earning full credit. */
  fullyRight: number;
  missing: number;
  /** credit / questions in percent, unrounded; null over none. */
  accuracy: number | null;
}

export interface MultiChartQaScore {
  overall: CreditScore;
  /** Per task label, in the order labels first appear. */
  byTask: Map<string, CreditScore>;
  /** Per question type (multiple-choice, open-ended). */
  byType: Map<string, CreditScore>;
}

const emptyCredit = (): CreditScore => ({ questions: 0, credit: 0, fullyRight: 0, missing: 0, accuracy: null });

function addCredit(score: CreditScore, credit: number, missing: boolean): void {
  score.questions += 1;
  score.credit += credit;
  if (credit === 1) score.fullyRight += 1;
  if (missing) score.missing += 1;
  score.accuracy = percent(score.credit, score.questions);
}

/** Accuracy with partial credit, overall (sum of credit over all questions, as calculate_acc) and per task and type. */
export function scoreMultiChartQa(questions: readonly MultiChartQaQuestion[]): MultiChartQaScore {
  const result: MultiChartQaScore = { overall: emptyCredit(), byTask: new Map(), byType: new Map() };
  const slice = (map: Map<string, CreditScore>, key: string) => {
    let score = map.get(key);
    if (!score) {
      score = emptyCredit();
      map.set(key, score);
    }
    return score;
  };
  for (const question of questions) {
    const credit = scoreMultiChartQaAnswer(question.type, question.answer, question.reply);
    const missing = question.reply === null;
    addCredit(result.overall, credit, missing);
    addCredit(slice(result.byTask, question.task), credit, missing);
    addCredit(slice(result.byType, question.type), credit, missing);
  }
  return result;
}
