import type { VerifierResult } from '@shared/table/verify';
import { LintFindingsView } from './lint-findings-view';
import { VerifierMark } from './item-tags';

/** A model's answer matches within ChartQA's 5 %; a person's (gold) only at its own precision. */
const MATCH_TEXT: Record<VerifierResult['match_rule'], string> = {
  relaxed: 'matches (relaxed)',
  precision: 'matches (at its precision)',
};

/**
 * What the verifier made of an item: the answer its program gives on the edited table (and on
 * the unedited one), whether that matches the item's answer, where it failed, and the lint.
 * Advice, not a verdict. `editedChart` names the chart a group item's edit changed.
 */
export function VerifierView({ result, answer, hasEdit, editedChart = null }: { result: VerifierResult; answer: string; hasEdit: boolean; editedChart?: string | null }) {
  return (
    <div className="verifier" data-testid="verifier">
      <dl className="meta verifier-meta">
        {editedChart !== null && (
          <>
            <dt>Edited chart</dt>
            <dd data-testid="verifier-edited-chart" title="The program ran over the whole group, this chart's table edited">
              {editedChart}
            </dd>
          </>
        )}
        <dt>Recomputed answer</dt>
        <dd>
          {result.recomputed_answer === null ? (
            <span className="muted">none</span>
          ) : (
            <output className="mono verifier-answer" data-testid="recomputed-answer">
              {result.recomputed_answer}
            </output>
          )}
          {result.original_answer !== null && (
            <span className="muted small" data-testid="original-answer">
              {' '}
              · before the edit: <span className="mono">{result.original_answer}</span>
            </span>
          )}
        </dd>
        <dt>Item’s answer</dt>
        <dd>
          <span className="mono">{answer}</span> <span className="muted small">({result.answer_type})</span>
        </dd>
        <dt>Match</dt>
        <dd className="verifier-match">
          <VerifierMark match={result.match} />{' '}
          <span data-testid="verifier-match-text">
            {result.match === null ? 'not recomputed' : result.match ? MATCH_TEXT[result.match_rule] : 'differs'}
          </span>
        </dd>
      </dl>
      {result.error && (
        <p className="error" data-testid="verifier-error">
          {result.error.stage === 'edit' ? 'The edit failed' : 'The program failed'}
          {result.error.position !== undefined && ` at offset ${result.error.position}`}: {result.error.message}
        </p>
      )}
      <h4>Lint: layout and item</h4>
      {hasEdit || result.lint.length > 0 ? (
        <LintFindingsView findings={result.lint} />
      ) : (
        <p className="muted">No edit: nothing to lint.</p>
      )}
    </div>
  );
}
