import { colourWordsIn } from '../../../shared/domain/colour-words';
import { orderKey } from '../../../shared/table/axis-order';
import { questionText, tableMentions } from '../../../shared/table/label-mentions';
import type { DataTable } from '../../../shared/table/model';
import { runProgram } from '../../../shared/table/program';
import { programReads, rowsNamed, seriesNamed } from '../../../shared/table/program/reads';
import { readingFindings } from '../../../shared/table/reading-checks';
import { literal } from './phrasing';
import { ProgramWriter, countOf, kth } from './yes-no-render';
import { SideReader, type Ref } from './yes-no-sides';
import { GREATER_WORDS, LESS_WORDS, isGrammarWord, isMeaningful, tokenize, wordOf, type Token } from './yes-no-words';

/**
 * Yes/No chart questions as programs, read compositionally: the question is split at its one
 * comparison ("greater then", "exceed", "equal to", "one third of", "1/5th") and each side is
 * read into an expression (yes-no-sides.ts); a few whole-question shapes ("Is X the highest?",
 * "Are all the bars the same?", "Does the line increase from A to B?") are read on their own.
 *
 * A Yes/No label proves little — a wrong program reproduces it half the time — so a program is
 * kept only when the whole question was read: every table label and number it names is used,
 * every word that changes meaning (a position, a quantifier, an aggregate, a comparison) was
 * parsed, and the program reads no row or series the question does not name. Questions about
 * the drawing (colours, "leftmost") are refused: the table does not say which bar that is.
 */

export interface YesNoProgram {
  program: string;
  /** Rows the program reads by name. */
  rows: string[];
  /** Series it reads; empty on a one-series table. */
  series: string[];
  /**
   * Programs that are true where the question asks of a table what it asks of this one: the
   * ranks it reads are not tied (nested where() skips ties), the count it states ("all three
   * countries") is the count. An edit after which one fails makes the question another.
   */
  conditions: string[];
}

const TREND_UP = new Set(['increase', 'increases', 'increased', 'rise', 'rises', 'grow', 'grows']);
const TREND_DOWN = new Set(['decrease', 'decreases', 'decreased', 'fall', 'falls', 'decline', 'declines', 'drop', 'drops']);
/** Words a question opens or closes with that ask for Yes/No and say nothing about the data. */
const PREFIXES = [['say', 'yes', 'or', 'no'], ['yes', 'or', 'no'], ['can', 'you', 'say', 'that'], ['can', 'you', 'say'], ['is', 'it', 'true', 'that'], ['true', 'or', 'false']];
const SUFFIXES = [['is', 'this', 'statement', 'correct'], ['is', 'the', 'statement', 'correct'], ['is', 'it', 'correct'], ['is', 'this', 'correct'], ['is', 'it', 'true'], ['is', 'this', 'true'], ['yes', 'or', 'no']];
/** "a higher share of the vote than": how many words of the measure may stand between the comparative and its "than". */
const MAX_WORDS_BEFORE_THAN = 4;
/** A measure phrase from the series name ("tax on goods and services") is this long at least before its words count as read. */
const MEASURE_PHRASE_WORDS = 3;
const YEAR = /^(1[89]|20)\d\d$/;
/** Words a question and a label both use without naming anything. */
const COMMON_WORDS = new Set(['the', 'and', 'for', 'with', 'from', 'that', 'this', 'value', 'values', 'share', 'number', 'total', 'rate', 'are', 'was', 'were', 'has', 'have', 'does', 'bar', 'bars']);

export function yesNoProgram(query: string, table: DataTable): YesNoProgram | null {
  const labels = [...table.series, ...table.rows.map((row) => row.label)];
  if (colourWordsIn(query, labels).length > 0) return null;
  const { rows, series } = tableMentions(query, table.rows.map((row) => row.label), table.series);
  const tokens = tokenize(questionText(query), rows, series);
  // A label that is itself a word of the grammar (a row "Total", a series "More") could be read either way.
  if (tokens.some((t) => t.kind === 'label' && !t.text.includes(' ') && isGrammarWord(t.text))) return null;
  const reader = new QuestionReader(table, tokens);
  const program = reader.program();
  if (program === null || !reader.everythingRead() || reader.namesUnmatchedLabel()) return null;
  const result = runProgram(table, program);
  if (!result.ok || typeof result.value !== 'boolean') return null;
  if (readingFindings({ question: query, program, title: '', original: table, edited: table }).length > 0) return null;
  const reads = programReads(program, table);
  const readSeries = reads && table.series.length > 1 ? seriesNamed(reads, table) : [];
  return { program, rows: reads ? rowsNamed(reads, table) : [], series: readSeries, conditions: reader.conditions };
}

type Op = '>' | '<' | '>=' | '<=' | '==';
/** "two times the value of B" multiplies the other side; "one third of B" divides it. */
type Scale = { times: number } | { per: number } | null;
interface Comparator {
  start: number;
  end: number;
  op: Op;
  scale: Scale;
}
class QuestionReader {
  private readonly used = new Set<number>();
  private readonly sides: SideReader;
  private readonly writer: ProgramWriter;

  constructor(
    private readonly table: DataTable,
    private readonly tokens: readonly Token[],
  ) {
    this.sides = new SideReader(tokens, this.used);
    this.writer = new ProgramWriter(table, tokens, this.used);
  }

  get conditions(): string[] {
    return this.writer.conditions;
  }

  private word(i: number | undefined): string | null {
    return wordOf(i === undefined ? undefined : this.tokens[i]);
  }

  program(): string | null {
    this.readUnitsAndMeasure();
    const body = this.body();
    if (body.some((i) => TREND_UP.has(this.word(i) ?? '') || TREND_DOWN.has(this.word(i) ?? ''))) return this.trend(body);
    const same = body.findIndex((i, p) => this.word(i) === 'same' && this.word(body[p + 1]) !== 'as');
    if (same !== -1) return this.allSame(body, same);
    const comparators = this.comparators(body);
    if (comparators.length > 1) return null;
    const [comparator] = comparators;
    return comparator ? this.comparison(body, comparator) : this.ranked(body);
  }

  /** Every label, every number and every meaningful word of the question was read. */
  everythingRead(): boolean {
    return this.tokens.every((t, i) => this.used.has(i) || (t.kind === 'word' && !isMeaningful(t.text)));
  }

  /**
   * Whether a word nobody read belongs to a label the question did not name: "Use military force
   * wisely" for the row "Use militaryforce wisely" is a row the mentions missed, and reading the
   * question without it would compare another cell. (A one-series chart's series name is its
   * measure, which questions paraphrase freely.)
   */
  namesUnmatchedLabel(): boolean {
    const named = new Set(this.tokens.flatMap((t) => (t.kind === 'label' ? [t.label] : [])));
    const labels = [...this.table.rows.map((row) => row.label), ...(this.table.series.length > 1 ? this.table.series : [])];
    const words = new Set(labels.filter((label) => !named.has(label)).flatMap((label) => label.toLowerCase().match(/\p{L}{3,}/gu) ?? []));
    return this.tokens.some((t, i) => t.kind === 'word' && !this.used.has(i) && !COMMON_WORDS.has(t.text) && words.has(t.text));
  }

  /**
   * Numbers that are units or the chart's own period, not values: "deaths per 100000", and
   * "in 2002" on a chart whose labels hold no year (the chart is of that year). And the
   * one-series chart's measure named at length ("tax on goods and services"), whose words are
   * the measure's, not the grammar's.
   */
  private readUnitsAndMeasure(): void {
    const yearLabels = [...this.table.series, ...this.table.rows.map((row) => row.label)].some((label) => /\b(1[89]|20)\d\d\b/.test(label));
    this.tokens.forEach((t, i) => {
      if (t.kind !== 'number' || t.form !== 'cardinal' || t.spelled) return;
      const before = this.word(i - 1);
      if (before === 'per') this.used.add(i);
      if (!yearLabels && YEAR.test(t.text) && ['in', 'of', 'year', 'for'].includes(before ?? '')) this.used.add(i);
    });
    if (this.table.series.length !== 1) return;
    const measure = [this.table.series[0] ?? '', this.table.label_header].map((text) => ` ${text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu)?.join(' ') ?? ''} `);
    for (let start = 0; start < this.tokens.length; start++) {
      let end = start;
      while (end < this.tokens.length && this.tokens[end]?.kind === 'word' && measure.some((m) => m.includes(` ${this.phrase(start, end + 1)} `))) end++;
      if (end - start >= MEASURE_PHRASE_WORDS) for (let i = start; i < end; i++) this.used.add(i);
    }
  }

  private phrase(start: number, end: number): string {
    return this.tokens.slice(start, end).map((t) => (t.kind === 'word' ? t.text : '')).join(' ');
  }

  /** The question without its opening ("Can you say", "Say, Yes or No,") and closing ("Is this statement correct?"). */
  private body(): number[] {
    const punctuation = (i: number) => ['?', '.', '!', ',', ':'].includes(this.word(i) ?? '');
    let body = this.tokens.map((_, i) => i);
    const words = () => body.filter((i) => !punctuation(i));
    const opening = PREFIXES.find((phrase) => phrase.every((w, n) => this.word(words()[n]) === w));
    if (opening) {
      const last = words()[opening.length - 1] ?? -1;
      body.filter((i) => i <= last).forEach((i) => this.used.add(i));
      body = body.filter((i) => i > last);
    }
    const closing = SUFFIXES.find((phrase) => phrase.every((w, n) => this.word(words().slice(-phrase.length)[n]) === w));
    if (closing) {
      const first = words().slice(-closing.length)[0] ?? Number.POSITIVE_INFINITY;
      body.filter((i) => i >= first).forEach((i) => this.used.add(i));
      body = body.filter((i) => i < first);
    }
    while (body.length > 0 && punctuation(body[body.length - 1] ?? -1)) body.pop();
    return body;
  }

  /** Where the question compares: "more than", "exceeds", "equal to", "the same as", "two times", "one third of", "1/5th". */
  private comparators(body: readonly number[]): Comparator[] {
    const found: Comparator[] = [];
    const w = (p: number) => this.word(body[p]);
    const of = (p: number) => (w(p) === 'of' ? p + 1 : p);
    for (let p = 0; p < body.length; p++) {
      const word = w(p) ?? '';
      const token = this.tokens[body[p] ?? -1];
      const than = GREATER_WORDS.has(word) || LESS_WORDS.has(word) ? this.thanAfter(body, p) : -1;
      if (than !== -1) {
        // "a higher share than": the measure's words between are the measure's.
        let end = than + 1;
        while (w(end) === 'than') end++;
        found.push({ start: p, end, op: GREATER_WORDS.has(word) ? '>' : '<', scale: null });
      } else if (word === 'at' && (w(p + 1) === 'least' || w(p + 1) === 'most')) {
        found.push({ start: p, end: p + 2, op: w(p + 1) === 'least' ? '>=' : '<=', scale: null });
      } else if (['exceed', 'exceeds', 'exceeding', 'above', 'below'].includes(word)) {
        found.push({ start: p, end: p + 1, op: word === 'below' ? '<' : '>', scale: null });
      } else if (word === 'equal' || word === 'equals') {
        found.push({ start: p, end: w(p + 1) === 'to' ? p + 2 : p + 1, op: '==', scale: null });
      } else if (word === 'same' && w(p + 1) === 'as') {
        found.push({ start: w(p - 1) === 'the' ? p - 1 : p, end: p + 2, op: '==', scale: null });
      } else if (token?.kind === 'number' && token.form === 'cardinal' && w(p + 1) === 'times') {
        found.push({ start: p, end: p + 2, op: '==', scale: { times: token.value } });
      } else if (word === 'twice' || word === 'double' || word === 'triple') {
        found.push({ start: p, end: of(p + 1), op: '==', scale: { times: word === 'triple' ? 3 : 2 } });
      } else if (word === 'half') {
        found.push({ start: p, end: of(p + 1), op: '==', scale: { per: 2 } });
      } else if (token?.kind === 'number' && token.form === 'fraction' && /^1\s*\//.test(token.text)) {
        found.push({ start: p, end: of(p + 1), op: '==', scale: { per: Math.round(1 / token.value) } });
      } else if ((word === 'one' || word === 'a') && (w(p + 1) === 'quarter' || this.spelledOrdinal(body[p + 1]) !== null)) {
        found.push({ start: p, end: of(p + 2), op: '==', scale: { per: this.spelledOrdinal(body[p + 1]) ?? 4 } });
      }
    }
    return found;
  }

  /** The position of the "than" a comparative word takes, across at most a few words of the measure ("higher share of votes than"), or -1. */
  private thanAfter(body: readonly number[], p: number): number {
    for (let q = p + 1; q <= p + 1 + MAX_WORDS_BEFORE_THAN && q < body.length; q++) {
      const t = this.tokens[body[q] ?? -1];
      if (t?.kind === 'word' && t.text === 'than') return q;
      if (t?.kind !== 'word' || isMeaningful(t.text)) return -1;
    }
    return -1;
  }

  private spelledOrdinal(i: number | undefined): number | null {
    const t = i === undefined ? undefined : this.tokens[i];
    return t?.kind === 'number' && t.form === 'ordinal' && t.spelled && t.value >= 3 ? t.value : null;
  }

  private comparison(body: readonly number[], c: Comparator): string | null {
    body.slice(c.start, c.end).forEach((i) => this.used.add(i));
    const left = this.sides.side(body.slice(0, c.start));
    const right = this.sides.side(body.slice(c.end));
    if (!left || !right || right.kind === 'quantified') return null;
    const r = this.writer.render(right);
    if (r === null) return null;
    if (left.kind === 'quantified') {
      // "Is any of the bars less than 10%?": the smallest is; "Are all the bars above 5?": the smallest is.
      if (c.scale !== null || c.op === '==') return null;
      const list = this.writer.list(left.over, true);
      if (!list || !this.writer.counted(list, left.count, 1)) return null;
      const fn = (c.op === '<' || c.op === '<=') === left.all ? 'max' : 'min';
      return `${fn}(${list.text}) ${c.op} ${r}`;
    }
    const l = this.writer.render(left);
    // Both sides the same cell: one of them named a label the mentions did not find.
    if (l === null || l === r) return null;
    const scaled = c.scale === null ? r : 'times' in c.scale ? `${c.scale.times} * ${r}` : `${r} / ${c.scale.per}`;
    return `${l} ${c.op} ${scaled}`;
  }

  /** "Is Denmark the highest?", "Can you say Denmark has the highest tax …", "Is X the second largest?". */
  private ranked(body: readonly number[]): string | null {
    const p = body.findIndex((i) => this.sides.superlative(i) !== null);
    const sup = body[p];
    const dir = sup === undefined ? null : this.sides.superlative(sup);
    const ordinal = this.tokens[body[p - 1] ?? -1];
    const k = ordinal?.kind === 'number' && ordinal.form === 'ordinal' ? ordinal.value : 1;
    const the = p - (k === 1 ? 1 : 2);
    // "Is X the highest …" or "(Can you say) X has the highest …".
    const verb = body.slice(0, the).some((i) => ['is', 'has', 'have', 'was', 'are'].includes(this.word(i) ?? ''));
    if (dir === null || this.word(body[the]) !== 'the' || !verb) return null;
    const subject = body.slice(0, the).filter((i) => this.tokens[i]?.kind === 'label');
    const candidate = this.tokens[subject[subject.length - 1] ?? -1];
    const context = body.filter((i) => this.tokens[i]?.kind === 'label' && i !== subject[subject.length - 1]);
    if (candidate?.kind !== 'label' || context.length > 1) return null;
    const other = this.tokens[context[0] ?? -1];
    if (other?.kind === 'label' && other.dim === candidate.dim) return null;
    const contextLabel = other?.kind === 'label' ? other.label : null;
    // On a table of several series the candidate is ranked within the line the question names.
    if (this.table.series.length > 1 && contextLabel === null) return null;
    const over: Ref = candidate.dim === 'row' ? { row: null, series: contextLabel } : { row: contextLabel, series: null };
    const list = this.writer.list(over, false);
    // The candidate alone holds the k-th value, and the ranks above it are k - 1 different values.
    if (!list || list.parts.length > 1 || !this.writer.require(`${countOf(list)} >= 2`) || !this.writer.require(`count(where(${list.text}, "${dir === 'max' ? '>=' : '<='}", ${kth(dir, k, list.text)})) == ${k}`)) return null;
    [sup, body[p - 1], subject[subject.length - 1], ...context].forEach((i) => i !== undefined && this.used.add(i));
    const arg = dir === 'max' ? 'argmax' : 'argmin';
    const pool = k === 1 ? list.text : `where(${list.text}, "${dir === 'max' ? '<' : '>'}", ${kth(dir, k - 1, list.text)})`;
    return `${arg}(${pool}) == ${literal(candidate.label)}`;
  }

  /** "All the bars showing same values", "Are all the bars the same?": the largest is the smallest. */
  private allSame(body: readonly number[], same: number): string | null {
    const subject = this.sides.side(body.slice(0, same));
    if (subject?.kind !== 'quantified' || !subject.all) return null;
    const list = this.writer.list(subject.over, true);
    if (!list || !this.writer.counted(list, subject.count, 2)) return null;
    this.used.add(body[same] ?? -1);
    return `max(${list.text}) == min(${list.text})`;
  }

  /** "Does the line increase or decrease from 2000 to 2014?": the later value against the earlier. */
  private trend(body: readonly number[]): string | null {
    const moves = body.filter((i) => TREND_UP.has(this.word(i) ?? '') || TREND_DOWN.has(this.word(i) ?? ''));
    const up = moves.some((i) => TREND_UP.has(this.word(i) ?? ''));
    const down = moves.some((i) => TREND_DOWN.has(this.word(i) ?? ''));
    const or = body.filter((i) => this.word(i) === 'or');
    if (moves.length > 2 || or.length !== moves.length - 1) return null;
    const from = body.findIndex((i) => this.word(i) === 'from');
    const [a, to, b] = [body[from + 1], body[from + 2], body[from + 3]].map((i) => (i === undefined ? undefined : this.tokens[i]));
    if (from === -1 || a?.kind !== 'label' || b?.kind !== 'label' || a.dim !== b.dim || this.word(body[from + 2]) !== 'to' || !to) return null;
    const [ka, kb] = [orderKey(a.label), orderKey(b.label)];
    if (ka === null || kb === null || ka >= kb) return null;
    const others = body.filter((i) => this.tokens[i]?.kind === 'label' && i !== body[from + 1] && i !== body[from + 3]);
    const context = this.tokens[others[0] ?? -1];
    if (others.length > 1 || (context?.kind === 'label' && context.dim === a.dim)) return null;
    // "The line" on a chart of one line is that line.
    const lines = a.dim === 'row' ? this.table.series : this.table.rows.map((row) => row.label);
    const line = context?.kind === 'label' ? context.label : lines.length === 1 ? (lines[0] ?? null) : null;
    if (line === null) return null;
    const single = this.table.series.length === 1;
    const cell = (label: string) => (a.dim === 'row' ? this.writer.cell({ row: label, series: single ? null : line }) : this.writer.cell({ row: line, series: label }));
    const [va, vb] = [cell(a.label), cell(b.label)];
    if (va === null || vb === null) return null;
    [...moves, ...or, ...body.slice(from, from + 4), ...others].forEach((i) => this.used.add(i));
    return `${vb} ${up && down ? '!=' : up ? '>' : '<'} ${va}`;
  }
}
