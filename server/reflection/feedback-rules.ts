import type { FeedbackEntry } from '../../shared/api/reflection';
import type { ChartType } from '../../shared/domain/chart-types';
import type { Criterion } from '../../shared/domain/review';
import { BOUNDED_PERCENT, BOUNDED_POINTS, CONSTRAINT_CLAUSES } from '../../shared/generation/proposal-constraints';

/**
 * The offline reviser's rules: what reviewers' words ask of a proposal, and how its text
 * changes to answer them. Each rule reads the feedback (notes and comments of reviews that
 * failed a criterion) and rewrites the proposal so that the operation the offline engine
 * reads back from it no longer produces the fault — a change too large becomes a bounded one,
 * a rank that misses what the question asks becomes the element the question asks about.
 * Criteria alone, without words a rule knows, add that criterion's constraint.
 */

export const FEEDBACK_RULES = ['implausible_change', 'answer_unchanged', 'states_answer', 'names_answer', 'broken_whole', 'ambiguous'] as const;
export type FeedbackRuleId = (typeof FEEDBACK_RULES)[number];

interface Rule {
  id: FeedbackRuleId;
  /** Words in the reviewers' feedback that name the fault. */
  heard: RegExp;
  /** The proposal rewritten to avoid it; null when its words give the rule nothing to change. */
  revise: (text: string) => string | null;
  /** What the revision does, for the reflection's record. */
  says: string;
}

/** The largest relative change a bounded revision allows, and the points a share may move. */
export const PLAUSIBLE_PERCENT = BOUNDED_PERCENT;
export const PLAUSIBLE_POINTS = BOUNDED_POINTS;

/**
 * Each rule's revision ends in a constraint clause (shared/generation/proposal-constraints.ts):
 * the offline rules size their changes by it, the model reads it, and the verifier holds every
 * later item of the proposal to it — rewording alone would bring the same items back.
 */
const RULES: Rule[] = [
  {
    id: 'implausible_change',
    heard: /\b(not plausible|implausible|unrealistic|unlikely|too (big|large|much|extreme|high|low|drastic|strong)|exaggerat\w*|absurd|far[- ]fetched|wild(ly)?)\b/,
    revise: (text) => appendClause(boundMagnitude(text) ?? text, CONSTRAINT_CLAUSES.bounded_change) ?? boundMagnitude(text),
    says: `bounded every change to at most ${PLAUSIBLE_PERCENT} percent (or ${PLAUSIBLE_POINTS} percentage points)`,
  },
  {
    id: 'answer_unchanged',
    heard: /\b(does(n't| not) (change|affect) the answer|answer (is|stays|remains) the same|no effect on the answer|same answer|answer (is )?unchanged|unchanged answer|irrelevant to the question|does(n't| not) touch)\b/,
    revise: targetAskedElement,
    says: 'made the change act on the element the question asks about',
  },
  {
    id: 'states_answer',
    heard: /\b(states the answer|answer is (in|stated in|given in) the (assumption|premise)|no need to read|trivial|sets the (value|answer)|just reads? (it )?back)\b/,
    revise: (text) => appendClause(text, CONSTRAINT_CLAUSES.not_asked_value),
    says: 'forbade setting the value the question asks for',
  },
  {
    id: 'names_answer',
    heard: /\b(gives? (the answer |it )?away|names the (answer|winner)|reveals? the (answer|winner|ranking|order)|says (which|who) (is|would be)|taking it (above|below)|rank(ing)? (is )?(given|stated)|gives the answer)\b/,
    revise: (text) => appendClause(text, CONSTRAINT_CLAUSES.answer_unnamed),
    says: 'forbade naming the answer in the assumption',
  },
  {
    id: 'broken_whole',
    heard: /\b(more than 100|over 100|above 100|(do(es)?n't|do(es)? not|no longer) (add|sum) up|(do(es)?n't|do(es)? not|no longer) sums? to 100|sums? to \d+(\.\d+)? instead of 100|not a whole|whole is broken|shares? (exceed|pass) 100)/,
    revise: (text) => appendClause(text, CONSTRAINT_CLAUSES.keep_whole),
    says: 'required the change to come from the other parts so the shares still sum to 100',
  },
  {
    id: 'ambiguous',
    heard: /\b(ambiguous|unclear|tie|tied|two answers|several answers|more than one answer)\b/,
    revise: (text) => appendClause(text, CONSTRAINT_CLAUSES.single_answer),
    says: 'required the question to keep a single answer',
  },
];

/** The clause the reviser adds for a failed criterion no rule's words explain. */
const CRITERION_CLAUSES: Record<Criterion, Record<'general' | 'share', string>> = {
  layout: {
    general: 'keeping every named category on the chart and every value within its axis',
    share: CONSTRAINT_CLAUSES.keep_whole,
  },
  correctness: {
    general: 'stating the exact new value so the answer can be computed from the chart',
    share: 'stating the exact new share so the answer can be computed from the chart',
  },
  rationality: {
    general: CONSTRAINT_CLAUSES.bounded_change,
    share: CONSTRAINT_CLAUSES.bounded_change,
  },
};

const SHARE_TYPES: readonly ChartType[] = ['pie', 'stacked_bar'];
/** A proposal is one sentence of at most this many characters (the pool's limit). */
const MAX_PROPOSAL_CHARS = 400;
/** Quotes of feedback the record keeps per rule. */
const QUOTES = 2;

export interface Revision {
  text: string;
  /** What changed and which feedback it answers, quoted. */
  addressed: string;
  rules: FeedbackRuleId[];
}

/**
 * Revises a proposal from its feedback: every rule whose words reviewers used (most often
 * heard first) rewrites the text; without one, the most failed criterion adds its clause.
 * Null when nothing failed and no feedback names a fault.
 */
export function reviseFromFeedback(proposal: { text: string; chart_type: ChartType }, feedback: readonly FeedbackEntry[]): Revision | null {
  const complaints = feedback.filter((entry) => entry.decision === 'reject' || entry.failed.length > 0);
  const heard = RULES.map((rule) => ({ rule, entries: complaints.filter((entry) => rule.heard.test(words(entry))) }))
    .filter((hit) => hit.entries.length > 0)
    .sort((a, b) => b.entries.length - a.entries.length);
  let text = proposal.text.trim();
  const applied: string[] = [];
  const rules: FeedbackRuleId[] = [];
  for (const { rule, entries } of heard) {
    const revised = rule.revise(text);
    if (revised === null || revised === text) continue;
    text = revised;
    rules.push(rule.id);
    applied.push(`${rule.says}, as ${entries.length} of ${complaints.length} reviews asked (${quotes(entries)})`);
  }
  if (rules.length === 0) {
    const top = topCriterion(complaints);
    if (!top) return null;
    const clause = CRITERION_CLAUSES[top.criterion][SHARE_TYPES.includes(proposal.chart_type) ? 'share' : 'general'];
    const revised = appendClause(text, clause);
    if (revised === null) return null;
    text = revised;
    applied.push(`${top.criterion} failed in ${top.count} of ${complaints.length} reviews; added its constraint`);
  }
  return { text: text.length > MAX_PROPOSAL_CHARS ? `${text.slice(0, MAX_PROPOSAL_CHARS - 3)}...` : text, addressed: applied.join('; '), rules };
}

function words(entry: FeedbackEntry): string {
  return `${entry.comment} ${entry.notes}`.toLowerCase();
}

function quotes(entries: readonly FeedbackEntry[]): string {
  return entries
    .slice(0, QUOTES)
    .map((entry) => `item ${entry.item_id}: "${(entry.comment || entry.notes).trim().slice(0, 80)}"`)
    .join('; ');
}

function topCriterion(entries: readonly FeedbackEntry[]): { criterion: Criterion; count: number } | null {
  const tally = new Map<Criterion, number>();
  for (const entry of entries) for (const criterion of entry.failed) tally.set(criterion, (tally.get(criterion) ?? 0) + 1);
  const top = [...tally.entries()].sort((a, b) => b[1] - a[1])[0];
  return top ? { criterion: top[0], count: top[1] } : null;
}

/** The sentence with a clause added before its final stop; null when it already says it. */
function appendClause(text: string, clause: string): string | null {
  const base = text.trim().replace(/[.!?]+$/, '');
  if (base.toLowerCase().includes(clause.toLowerCase())) return null;
  return `${base}, ${clause}.`;
}

/** Verb forms that multiply, and the bounded verb that replaces each form. */
const GROWTH: [RegExp, Record<'base' | 'ed' | 's' | 'ing', string>][] = [
  [/\b(doubl|tripl|quadrupl)(e|es|ed|ing)\b/gi, { base: 'raise', ed: 'raised', s: 'raises', ing: 'raising' }],
  [/\b(halv)(e|es|ed|ing)\b/gi, { base: 'lower', ed: 'lowered', s: 'lowers', ing: 'lowering' }],
];

/**
 * "Triple the largest bar" → "Raise the largest bar by 20 percent"; "by 50 percent" → "by 20
 * percent"; "15 percentage points" → "5 percentage points". The operation and its object stay;
 * only the size of the change shrinks to what the chart could plausibly show.
 */
export function boundMagnitude(text: string): string | null {
  let out = text;
  let bounded = false;
  for (const [pattern, forms] of GROWTH) {
    out = out.replace(pattern, (match: string, _stem: string, ending: string) => {
      bounded = true;
      const key = ending === 'e' ? 'base' : ending === 'es' ? 's' : ending === 'ed' ? 'ed' : 'ing';
      const verb = forms[key];
      const replaced = `${verb}§`;
      return /^[A-Z]/.test(match) ? replaced.charAt(0).toUpperCase() + replaced.slice(1) : replaced;
    });
  }
  // The bounded verb takes its amount at the end of its clause: "Raise the largest bar by 20 percent, then …".
  out = out.replace(/§([^,.;]*?)(?=(,| and | then | so that |\.|$))/, (_, clause: string) => `${clause} by ${PLAUSIBLE_PERCENT} percent`).replace(/§/g, '');
  out = out.replace(/\b(?:twice|two times|three times|four times)\b/gi, () => {
    bounded = true;
    return `${PLAUSIBLE_PERCENT} percent more`;
  });
  out = out.replace(/\bby (\d+(?:\.\d+)?)\s*(percent|%)(?!age)/gi, (match: string, amount: string, unit: string) => {
    if (Number(amount) <= PLAUSIBLE_PERCENT) return match;
    bounded = true;
    return `by ${PLAUSIBLE_PERCENT} ${unit}`;
  });
  out = out.replace(/\bby (a |one )?(half|third|quarter)\b/gi, () => {
    bounded = true;
    return 'by a fifth';
  });
  out = out.replace(/\b(\d+(?:\.\d+)?) (percentage points|points)\b/gi, (match: string, amount: string, unit: string) => {
    if (Number(amount) <= PLAUSIBLE_POINTS) return match;
    bounded = true;
    return `${PLAUSIBLE_POINTS} ${unit}`;
  });
  return bounded ? out : null;
}

/** Ranks a proposal may name its element by. */
const RANKED_ELEMENT =
  /\bthe (second[- ])?(largest|smallest|highest|lowest|tallest|shortest|biggest|median|middle|first|last|earliest|latest|top|peak|top-ranked|lowest-ranked)( (bar|slice|point|category|entry|period|segment|value|one|group|row))?\b/i;

/**
 * "Double the largest bar" → "Double the bar the question asks about": when the change keeps
 * missing what the question reads, it acts on that element instead of a ranked one.
 */
export function targetAskedElement(text: string): string | null {
  const match = RANKED_ELEMENT.exec(text);
  if (match) {
    const noun = match[4] ?? 'value';
    return text.replace(match[0], `the ${noun === 'one' ? 'value' : noun} the question asks about`);
  }
  return appendClause(text, 'changing the value the question asks about');
}
