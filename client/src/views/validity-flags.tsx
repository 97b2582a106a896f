import type { ItemDetail, ItemSummary } from '@shared/api/items';
import type { VerifierResult } from '@shared/table/verify';
import { UnconfirmedTableNotice, UnconfirmedTableTag } from './unconfirmed-table';

/**
 * Whether an item is the benchmark's task: the factual question under an assumption that
 * changes its answer, made by the operation its proposal names. Reviewers see the flags next to
 * the question, before they judge it; the items list shows them as tags.
 */

export const DIFFERENT_QUESTION_TEXT =
  'Asks a different question than the factual one — not the benchmark’s task (left out of decline and bias rates)';
export const UNCLASSIFIED_TEXT = 'question relation not classified yet';
export const INCONSISTENT_TEXT = 'Does not do what its proposal says';

type ValidityFields = Pick<ItemSummary, 'question_relation' | 'answer_unchanged' | 'is_control' | 'proposal_consistent' | 'table_state'>;

/** "27.23 before and after", or both answers when they are spelled differently yet agree. */
export function beforeAndAfter(verifier: Pick<VerifierResult, 'original_answer' | 'recomputed_answer'>): string {
  const before = verifier.original_answer ?? verifier.recomputed_answer;
  const after = verifier.recomputed_answer ?? verifier.original_answer;
  if (before === null || after === null) return 'the same answer before and after';
  return before === after ? `${before} before and after` : `${before} before, ${after} after`;
}

/** The sentence for an item whose assumption leaves its answer as it was; a control says it is one on purpose. */
export function unchangedText(isControl: boolean, verifier: ItemDetail['verifier']): string {
  const clause = `assumption does not change the answer (${beforeAndAfter(verifier)})`;
  return isControl ? `Deliberate control: the ${clause}, kept on purpose.` : `The ${clause}`;
}

/** The proposal-consistency finding's sentence, when the verifier wrote one. */
function inconsistencyMessage(verifier: ItemDetail['verifier']): string | null {
  return verifier.lint.find((finding) => finding.code === 'proposal_inconsistent')?.message ?? null;
}

/** The flags as notices, for the review screen and the item page. Rendered as text. */
export function ValidityNotices({ item }: { item: ValidityFields & Pick<ItemDetail, 'verifier'> }) {
  const message = item.proposal_consistent === false ? inconsistencyMessage(item.verifier) : null;
  return (
    <div className="validity-notices" data-testid="validity-notices">
      <UnconfirmedTableNotice state={item.table_state} />
      {item.question_relation === 'different' && (
        <p className="notice notice-danger" role="note" data-testid="validity-different">
          <strong>{DIFFERENT_QUESTION_TEXT}</strong>
        </p>
      )}
      {item.question_relation === null && (
        <p className="muted small validity-unclassified" data-testid="validity-unclassified">
          {UNCLASSIFIED_TEXT}
        </p>
      )}
      {item.answer_unchanged === true && (
        <p
          className={`notice small ${item.is_control ? 'notice-control' : 'notice-warning'}`}
          role="note"
          data-testid={item.is_control ? 'validity-control' : 'validity-unchanged'}
        >
          {unchangedText(item.is_control, item.verifier)}
        </p>
      )}
      {item.proposal_consistent === false && (
        <p className="notice notice-warning small" role="note" data-testid="validity-inconsistent">
          {INCONSISTENT_TEXT}
          {message !== null && <>: {message}</>}
        </p>
      )}
    </div>
  );
}

const TAGS = {
  different: { label: 'different question', title: DIFFERENT_QUESTION_TEXT, tone: 'danger' },
  unclassified: { label: 'relation?', title: 'The question’s relation to the factual one is not classified yet', tone: 'muted' },
  unchanged: { label: 'answer unchanged', title: 'The assumption does not change the answer', tone: 'warning' },
  control: { label: 'control', title: 'A deliberate control: kept although the assumption does not change the answer', tone: 'control' },
  inconsistent: { label: 'off-proposal', title: INCONSISTENT_TEXT, tone: 'warning' },
} as const;

type TagKey = keyof typeof TAGS;

export function validityTags(item: ValidityFields): TagKey[] {
  const tags: TagKey[] = [];
  if (item.question_relation === 'different') tags.push('different');
  if (item.question_relation === null) tags.push('unclassified');
  if (item.answer_unchanged === true) tags.push(item.is_control ? 'control' : 'unchanged');
  if (item.proposal_consistent === false) tags.push('inconsistent');
  return tags;
}

/** The flags as compact tags, for the items list. */
export function ValidityTags({ item }: { item: ValidityFields }) {
  const tags = validityTags(item);
  if (tags.length === 0 && item.table_state !== 'unconfirmed') return <span className="muted small">none</span>;
  return (
    <span className="bias-flags" data-testid="validity-tags">
      <UnconfirmedTableTag state={item.table_state} />
      {tags.map((tag) => (
        <span key={tag} className={`validity-tag validity-${TAGS[tag].tone}`} title={TAGS[tag].title} data-flag={tag}>
          {TAGS[tag].label}
        </span>
      ))}
    </span>
  );
}
