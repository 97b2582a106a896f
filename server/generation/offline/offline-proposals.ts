import type { ChartType } from '../../../shared/domain/chart-types';
import { DEFAULT_ROUGE_THRESHOLD, rougeLF } from '../../../shared/generation/similarity';
import type { DataTable } from '../../../shared/table/model';
import { offlineItem } from './offline-item';
import { PROPOSAL_TEMPLATES, slotsFor, TAILS, type ProposalTemplate, type Slots } from './proposal-vocabulary';
import { mulberry32, pick, seedFor, shuffled, type Rng } from './rng';

export interface OfflineProposalsInput {
  chartType: ChartType;
  /** Proposals already in the pool (the sampled seeds): new ones must not be near-copies of them. */
  examples: readonly string[];
  count: number;
  seed: number;
  /** ROUGE-L F at which a proposal counts as a copy (Self-Instruct's 0.7 by default). */
  threshold?: number;
  /**
   * Questions of the chart type the pool is grown for (a sample of the run's), and the pool's
   * active proposals: proposals that can change an answer no pool proposal can change come first.
   */
  targets?: readonly ProposalTarget[];
  pool?: readonly string[];
}

/** A factual question over one chart, as Stage 1 grows the pool for it. */
export interface ProposalTarget {
  table: DataTable;
  chartType: ChartType;
  title: string;
  qa: { query: string; label: string };
}

/** Candidates drawn per wanted proposal when there are targets, so the coverage pick has a choice. */
const CANDIDATES_PER_PROPOSAL = 8;
/**
 * Candidate × question tries per task: a try the rules cannot make searches every row and
 * column (up to a few hundred milliseconds), so a task stays near a second whatever the pool.
 */
const MAX_TRIES = 400;

/**
 * The changes that apply to any question, offered first in a new pool: the element the question
 * reads raised, lowered or traded with a ranked one ("which country has 5 %?" moves only so), and
 * a whole series scaled (a rank, "the largest bar", moves only the questions that read it).
 */
const ASKED = /^Raise the \w+ the question asks about by a noticeable amount|^Let the value asked about in the question fall noticeably|^Swap the (value|share) of the \w+ the question asks about|^(Increase|Lift) every \w+/;

/** Draws per wanted proposal before giving up: the vocabulary is finite, and a crowded pool leaves little room. */
const DRAWS_PER_PROPOSAL = 40;

/**
 * Stage 1 without a model: new general proposals for a chart type from the offline
 * vocabulary, none within `threshold` ROUGE-L of an example or of each other. Deterministic
 * for a seed; may return fewer than `count` when the pool already holds most of what the
 * vocabulary can say.
 */
export function offlineProposals(input: OfflineProposalsInput): string[] {
  const targets = input.targets ?? [];
  if (targets.length === 0) return drawProposals(input, input.count);
  const candidates = drawProposals(input, input.count * CANDIDATES_PER_PROPOSAL);
  return coverageFirst(candidates, targets, input.pool ?? input.examples, input.count, input.seed);
}

/**
 * The candidates that change the answer of a target no pool proposal (nor an earlier pick)
 * can change, greedily in draw order, then the rest in draw order: the pool grows toward the
 * questions it cannot serve yet ("which country led in 2012?" needs a whole line lifted, and
 * a pool of single-point changes leaves it without an item), and stays as varied as before.
 */
function coverageFirst(candidates: readonly string[], targets: readonly ProposalTarget[], pool: readonly string[], count: number, seed: number): string[] {
  const moves = (target: ProposalTarget, texts: readonly string[]) => {
    const [first, ...rest] = texts.map((text, index) => ({ id: index + 1, text }));
    return first !== undefined && offlineItem({ ...target, proposal: first, alternatives: rest, seed }).ok;
  };
  const open = targets.filter((target) => !moves(target, pool));
  const picked: string[] = [];
  let tries = 0;
  for (const text of candidates) {
    if (picked.length === count || open.length === 0 || tries >= MAX_TRIES) break;
    const served = open.filter((target) => tries++ < MAX_TRIES && moves(target, [text]));
    if (served.length === 0) continue;
    picked.push(text);
    for (const target of served) open.splice(open.indexOf(target), 1);
  }
  return [...picked, ...candidates.filter((text) => !picked.includes(text))].slice(0, count);
}

function drawProposals({ chartType, examples, seed, threshold = DEFAULT_ROUGE_THRESHOLD }: OfflineProposalsInput, count: number): string[] {
  const rng = mulberry32(seedFor(seed, 'proposals', chartType));
  const templates = PROPOSAL_TEMPLATES[chartType];
  const slots = slotsFor(chartType);
  const out: string[] = [];
  const seen = new Set<string>();
  // The first round offers the changes that apply to any question first (see ASKED).
  const asked = templates.filter((template) => ASKED.test(template.text));
  let round: ProposalTemplate[] = [...shuffled(rng, templates.filter((template) => !asked.includes(template))), ...shuffled(rng, asked)];
  for (let draw = 0; draw < count * DRAWS_PER_PROPOSAL && out.length < count; draw++) {
    // Templates come in shuffled rounds, so a batch mixes operations instead of repeating one.
    if (round.length === 0) round = shuffled(rng, templates);
    const template = round.pop();
    if (!template) break;
    const text = fill(template.text, slots, rng);
    // A text drawn before was kept or refused then, and the texts it is compared with only grow since.
    if (seen.has(text)) continue;
    seen.add(text);
    const operation = operationOf(text);
    if ([...examples, ...out].some((other) => operationOf(other) === operation || rougeLF(text, other) >= threshold)) continue;
    out.push(text);
  }
  return out;
}

/** Fills `{slot}`s; `{pos2}` never repeats `{pos}` (nor `{low}` `{high}`), and the sentence ends with a full stop. */
export function fill(template: string, slots: Slots, rng: Rng): string {
  const pos = pick(rng, slots.pos);
  const high = pick(rng, slots.high);
  const text = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'pos') return pos;
    if (name === 'pos2') return pick(rng, slots.pos.filter((word) => word !== pos && !sameRank(word, pos)));
    if (name === 'high') return high;
    if (name === 'low') return pick(rng, slots.low.filter((word) => word !== high));
    const choices = (slots as Record<string, readonly string[]>)[name];
    return choices ? pick(rng, choices) : '';
  });
  return `${text}.`;
}

/** Synonyms for one rank ("largest" and "tallest") would make a partner the row itself. */
function sameRank(a: string, b: string): boolean {
  const groups = [['largest', 'tallest', 'highest', 'peak'], ['smallest', 'shortest', 'lowest'], ['first', 'earliest'], ['last', 'latest']];
  return groups.some((group) => group.includes(a) && group.includes(b));
}

/** A proposal without the closing clause that says what it is for: two that differ only there are one operation. */
function operationOf(text: string): string {
  const base = text.trim().replace(/\.$/, '');
  const tail = TAILS.find((clause) => clause !== '' && base.endsWith(clause));
  return (tail ? base.slice(0, -tail.length) : base).toLowerCase();
}
