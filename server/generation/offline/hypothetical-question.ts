import { nlp } from '../../language/nlp';
import { canBeVerb, infinitive } from '../../language/word-forms';

/**
 * The factual question in the grammar of a hypothetical, and nothing more: "What is the
 * value of X?" → "What would be the value of X?", "How many stores did Y operate?" → "How
 * many stores would Y operate?", "Which country led the list?" → "Which country would lead
 * the list?". The words stay the factual question's own (question-relation.ts checks that);
 * a question no rule fits is kept as it is.
 */

const COPULAS = new Set(['is', 'are', 'was', 'were']);
const DO_FORMS = new Set(['do', 'does', 'did']);
const HAVE_FORMS = new Set(['has', 'have', 'had']);
const WH_WORDS = new Set(['what', 'which', 'who', 'whom', 'whose', 'how', 'when', 'where', 'why']);
/** Words after which a number is a place on an axis ("in 2019"), not what the copula says. */
const PREPOSITIONS = new Set(['in', 'of', 'from', 'to', 'between', 'by', 'for', 'since', 'at', 'on', 'during', 'than', 'and', 'until', 'after', 'before', 'per', 'top']);
/** Words that start what a copula predicates: "would the rate *be* higher / 9.4 / the same". */
const PREDICATE_WORDS = new Set([
  ...['greater', 'less', 'higher', 'lower', 'more', 'fewer', 'larger', 'smaller', 'bigger', 'equal', 'same', 'above', 'below'],
  ...['over', 'under', 'twice', 'double', 'half', 'lowest', 'highest', 'largest', 'smallest', 'biggest', 'most', 'least', 'exactly'],
  ...['two', 'three', 'four', 'five', 'ten', 'hundred', 'positive', 'negative', 'zero'],
]);
/** Comparatives that take a "than": where a Yes/No comparison's predicate starts. */
const COMPARATIVES = new Set(['greater', 'less', 'higher', 'lower', 'more', 'fewer', 'larger', 'smaller', 'bigger', 'longer', 'shorter', 'lowet']);
/** "a higher share of votes than": how far a comparative's "than" may follow it. */
const WORDS_BEFORE_THAN = 5;
/** Irregular past participles a "has … scored" question may end in. */
const IRREGULAR_PARTICIPLES = new Set(['been', 'done', 'grown', 'won', 'made', 'spent', 'led', 'held', 'seen', 'taken', 'given', 'risen', 'fallen']);

interface Word {
  text: string;
  /** Lower case, without surrounding punctuation. */
  core: string;
  /** Part of a table label the question names. */
  inLabel?: boolean;
}

/** Marks the words that spell a table label, so no rule rewrites inside a name. */
function markLabels(list: Word[], labels: readonly string[]): void {
  const cores = list.map((w) => w.core);
  for (const label of labels) {
    const parts = label.toLowerCase().replace(/\*+$/, '').split(/\s+/).filter(Boolean);
    if (parts.length === 0) continue;
    for (let i = 0; i + parts.length <= cores.length; i++) {
      if (parts.every((part, j) => cores[i + j] === part.replace(/^[("'“]+|[?.,!;:)"'”]+$/g, ''))) {
        for (let j = 0; j < parts.length; j++) (list[i + j] as Word).inLabel = true;
      }
    }
  }
}

function words(question: string): Word[] {
  return question
    .trim()
    .replace(/\b(what|who|where|which|how|that|there)'s\b/gi, '$1 is')
    .split(/\s+/)
    .map((text) => ({ text, core: text.toLowerCase().replace(/^[("'“]+|[?.,!;:)"'”]+$/g, '') }));
}

function join(list: Word[]): string {
  return list.map((w) => w.text).join(' ');
}

/** "would", or "Would" at the start of the question. */
function would(at: number): Word {
  return { text: at === 0 ? 'Would' : 'would', core: 'would' };
}

const word = (text: string): Word => ({ text, core: text });

/**
 * `labels`: the table's row and series names. A word inside one ("Very satisfied", "Online
 * sales") is never where "be" goes, and a question is never rewritten inside a name.
 */
export function hypotheticalQuestion(question: string, labels: readonly string[] = []): string {
  const list = words(question);
  if (list.length === 0) return question;
  markLabels(list, labels);
  // "What percentage would be willing to pay …?" is a hypothetical already; "will … by 2024" becomes "would".
  const modal = list.findIndex((w) => (w.core === 'would' || w.core === 'will') && !w.inLabel);
  if (modal !== -1) {
    const at = list[modal] as Word;
    if (at.core === 'would') return question;
    const out = [...list];
    out[modal] = { text: at.text.replace(/^(w|W)ill/, '$1ould'), core: 'would' };
    return join(out);
  }
  const wh = list.findIndex((w) => WH_WORDS.has(w.core) && !w.inLabel);
  // "For Performance, is the value …": the clause after a leading comma phrase is the question.
  const clause = wh === -1 ? list.findIndex((w, i) => i > 0 && /,$/.test(list[i - 1]?.text ?? '') && !w.inLabel) : -1;
  if (clause > 0 && (COPULAS.has(list[clause]?.core ?? '') || DO_FORMS.has(list[clause]?.core ?? '') || HAVE_FORMS.has(list[clause]?.core ?? ''))) {
    return withAuxiliary(list, clause, clause);
  }
  const start = Math.max(0, wh);
  const k = list.findIndex((w, i) => i >= start && (COPULAS.has(w.core) || DO_FORMS.has(w.core) || HAVE_FORMS.has(w.core)));
  // A question-initial auxiliary ("Is the value …", "Does X exceed …") counts wherever a wh-word stands.
  const first = list[0]?.core ?? '';
  const aux = COPULAS.has(first) || DO_FORMS.has(first) || HAVE_FORMS.has(first) ? 0 : k;
  if (aux !== -1) return withAuxiliary(list, aux, start);
  return withMainVerb(list, start) ?? question;
}

function withAuxiliary(list: Word[], k: number, start: number): string {
  const aux = list[k]?.core ?? '';
  const out = [...list];
  const next = list[k + 1]?.core ?? '';
  const keepPunctuation = (replacement: string) => replacement + (list[k]?.text.match(/[?.,!;:]+$/)?.[0] ?? '');
  if (DO_FORMS.has(aux)) {
    out[k] = { ...would(k), text: keepPunctuation(would(k).text) };
    // "Does the sum of … is greater then …" (as ChartQA's writers have it): the stray copula is the verb.
    const copula = list.findIndex((w, i) => i > k && COPULAS.has(w.core) && !w.inLabel);
    if (copula !== -1 && comparisonSlot(list, k) === copula + 1) out[copula] = { text: list[copula]?.text.replace(/^\w+/, 'be') ?? 'be', core: 'be' };
    return join(out);
  }
  if (HAVE_FORMS.has(aux)) {
    // "has scored" / "have been taken": the auxiliary stays beside its participle.
    const participle = isParticiple(next) ? -1 : list.findIndex((w, i) => i > k + 1 && i <= k + 5 && isParticiple(w.core) && !breaksBefore(list, i));
    if (participle !== -1 && !/^(a|an|the|\d.*)$/.test(next)) {
      out.splice(participle, 0, word('have'));
      out[k] = would(k);
    } else {
      out.splice(k, 1, would(k), word('have'));
    }
    return join(out);
  }
  // A second copula ("In which year is the score is lowest?") is where "be" goes — unless a clause
  // of its own holds it ("… of respondents who think food is not safe").
  const second = list.findIndex((w, i) => i > k && COPULAS.has(w.core));
  const ownClause = second !== -1 && list.slice(k + 1, second).some((w) => CLAUSE_WORDS.has(w.core));
  if (second !== -1 && !ownClause) {
    out[second] = { text: list[second]?.text.replace(/^\w+/, 'be') ?? 'be', core: 'be' };
    out[k] = would(k);
    return join(out);
  }
  if (next === 'there') {
    out.splice(k, 2, would(k), list[k + 1] as Word, word('be'));
    return join(out);
  }
  // "What is X" / "Which name is represented": the copula stays beside the question word. Only
  // when the subject follows it ("Is the value 35 …", "In what year was the rate 9.4 …") does
  // "be" move to where the predicate starts.
  const subjectFollows = k === 0 || k === start || (start > 0 && PREPOSITIONS.has(list[start - 1]?.core ?? ''));
  // "How many times was X watched?": a passive whose subject follows the copula; "be" goes before the participle.
  const passive = !subjectFollows && list[start]?.core === 'how' ? passiveSlot(list, k) : null;
  const slot = subjectFollows ? predicateSlot(list, k) : passive;
  if (slot === null || slot === k + 1) {
    out.splice(k, 1, would(k), { text: keepPunctuation('be'), core: 'be' });
  } else {
    out.splice(slot, 0, word('be'));
    out[k] = would(k);
  }
  return join(out);
}

/** Words that open a clause of its own, whose copula is not the question's. */
const CLAUSE_WORDS = new Set(['who', 'that', 'which', 'whose', 'where', 'when', 'think', 'thinks', 'thought', 'say', 'says', 'said', 'believe', 'believes', 'feel', 'feels']);

/** The participle ending a "how many … was X <participle>" question (at most three words after it), past its subject. */
function passiveSlot(list: Word[], k: number): number | null {
  for (let i = list.length - 1; i > k + 1 && i >= list.length - 4; i--) {
    const w = list[i] as Word;
    if (!w.inLabel && isParticiple(w.core)) return i;
  }
  return null;
}

/** A comma or other break between two words. */
function breaksBefore(list: Word[], i: number): boolean {
  return list.slice(0, i).some((w, j) => j >= i - 4 && /[,;:]$/.test(w.text));
}

/**
 * Where the copula's predicate starts, after its subject: a comparative or superlative, a
 * number that is not a place on an axis, a participle ("were enrolled"). Null when none.
 */
function predicateSlot(list: Word[], k: number): number | null {
  const comparison = comparisonSlot(list, k);
  if (comparison !== null) return comparison;
  for (let i = k + 1; i < list.length; i++) {
    const w = list[i] as Word;
    if (w.inLabel) continue;
    const previous = list[i - 1]?.core ?? '';
    if (w.core === 'the' && PREDICATE_WORDS.has(list[i + 1]?.core ?? '')) return i;
    if (PREDICATE_WORDS.has(w.core) && previous !== 'the' && !PREPOSITIONS.has(previous)) return i;
    if (/^-?[$€£]?\d/.test(w.core) && !PREPOSITIONS.has(previous)) return i;
    if (i > k + 1 && isParticiple(w.core)) return i;
  }
  return null;
}

/**
 * Where a Yes/No comparison starts ("greater then", "a higher share than", "equal to", "the same
 * as"): the predicate, even when a number stands in its subject first ("Is the sum of two smallest
 * segment greater than …" → "Would the sum of two smallest segment be greater than …").
 */
function comparisonSlot(list: Word[], k: number): number | null {
  for (let i = k + 1; i < list.length; i++) {
    const w = list[i] as Word;
    if (w.inLabel) continue;
    const than = list.slice(i + 1, i + 1 + WORDS_BEFORE_THAN).some((next) => next.core === 'than' || next.core === 'then');
    if (COMPARATIVES.has(w.core) && than) return i;
    if (w.core === 'equal' || (w.core === 'same' && list[i + 1]?.core === 'as')) return list[i - 1]?.core === 'the' ? i - 1 : i;
  }
  return null;
}

function isParticiple(core: string): boolean {
  if (IRREGULAR_PARTICIPLES.has(core)) return true;
  return /(ed|en)$/.test(core) && canBeVerb(core) && infinitive(core) !== core;
}

/** A question's terms as compromise tags them (a few milliseconds, so only where no auxiliary helps). */
function verbTags(list: Word[]): boolean[] {
  const terms = nlp(join(list)).json() as { terms: { text: string; tags: string[] }[] }[];
  const tagged = terms.flatMap((sentence) => sentence.terms);
  // compromise splits as we do (on spaces) except for punctuation-only words, which it drops.
  const out: boolean[] = [];
  let t = 0;
  for (const w of list) {
    if (!/[\p{L}\p{N}]/u.test(w.text)) {
      out.push(false);
      continue;
    }
    const tags = tagged[t++]?.tags ?? [];
    // "to represent" is an infinitive; "bars exceed" is a finite verb compromise also tags Infinitive.
    const afterTo = /^to$/i.test(out.length > 0 ? (list[out.length - 1]?.core ?? '') : '');
    out.push(tags.includes('Verb') && !tags.includes('Modal') && !tags.includes('Gerund') && !(tags.includes('Infinitive') && afterTo));
  }
  return out;
}

/** No auxiliary: the first inflected verb after the question word becomes "would" + its infinitive ("accounted" → "would account"). */
function withMainVerb(list: Word[], start: number): string | null {
  const verbs = verbTags(list);
  const candidate = (i: number) => verbs[i] === true && list[i]?.inLabel !== true && /^[a-z]+$/.test(list[i]?.core ?? '');
  const inflected = (i: number) => candidate(i) && infinitive(list[i]?.core ?? '') !== list[i]?.core;
  for (let i = start + 1; i < list.length; i++) {
    const w = list[i] as Word;
    if (!candidate(i)) continue;
    // "Which color Bar shows …": a bare word right after "which" or "what" is the noun it asks
    // about, which the tagger may call a verb, when an inflected verb follows.
    if (i === start + 1 && /^(which|what)$/.test(list[start]?.core ?? '') && !inflected(i) && list.some((_, j) => j > i && inflected(j))) continue;
    // "Honduras exports came from": a present-tense word right before a past-tense verb is that verb's subject.
    if (inflected(i + 1) && !/s$/.test(list[i + 1]?.core ?? '') && /s$/.test(w.core)) continue;
    const base = infinitive(w.core);
    const out = [...list];
    const punctuation = w.text.match(/[?.,!;:]+$/)?.[0] ?? '';
    out.splice(i, 1, would(i), word(`${base}${punctuation}`));
    return join(out);
  }
  return null;
}
