import type { ReactNode } from 'react';
import type { ItemGroup } from '@shared/api/item-group';
import type { ReviewTask } from '@shared/api/review';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import type { EditOutcome } from '../../views/edit-outcome';
import { ColourWarning } from '../../views/colour-warning';
import { BiasFlags, VerifierMark } from '../../views/item-tags';
import { RequeueNotice } from '../../views/requeue-notice';
import { ValidityNotices } from '../../views/validity-flags';
import { MarkedQuestion } from '../../views/marked-question';
import { VerifierView } from '../../views/verifier-view';
import { AnswerChecksView } from '../../views/answer-checks-view';
import { ItemCharts, ItemDataTable } from '../../views/item-charts';
import { editedChartName, ItemGroupCharts } from '../../views/item-group-charts';
import { JudgeFromImage } from '../../views/unconfirmed-table';

/** The question block: what the reviewer judges, at the top. */
function QuestionBlock({ task, group }: { task: ReviewTask; group: ItemGroup | null }) {
  const { item } = task;
  return (
    <section className="review-card review-question" aria-label="The item">
      <div className="review-question-head">
        <span className="muted small">
          Item #{item.id} ·{' '}
          {group ? (
            <span data-testid="review-group-name">
              group {group.name} ({group.charts.length} charts)
            </span>
          ) : (
            <>
              <span className="mono">{task.chart.imgname}</span> · {CHART_TYPE_LABELS[task.chart.chart_type]}
            </>
          )}
        </span>
      </div>
      <RequeueNotice reason={item.requeue_reason} />
      <MarkedQuestion question={item.question} assumption={item.assumption} />
      <ValidityNotices item={item} />
      <dl className="review-answer-line">
        <div>
          <dt>Answer</dt>
          <dd>
            <span className="mono review-answer" data-testid="review-answer">
              {item.answer}
            </span>{' '}
            <span className="tryit-answer-type" data-testid="review-answer-type">
              {item.answer_type}
            </span>
          </dd>
        </div>
        {task.proposed_answers.length > 0 && (
          <div data-testid="review-proposed-answers">
            <dt>Proposed by reviewers</dt>
            <dd>
              <AnswerChecksView answers={task.proposed_answers} />
              <span className="muted small">A correction becomes the answer only if every accepting reviewer gives the same one.</span>
            </dd>
          </div>
        )}
        <div>
          <dt>Factual question</dt>
          <dd>
            <span data-testid="review-factual-query">{item.factual_query}</span> → <span className="mono">{item.factual_label}</span>{' '}
            <span className="muted small">({item.affects_answer ? 'the assumption changes it' : 'the assumption keeps it'})</span>
            <ColourWarning colours={item.unverifiable_colours} />
          </dd>
        </div>
        <div>
          <dt>Verifier</dt>
          <dd data-testid="review-verdict">
            <span className="mono">{item.verifier.recomputed_answer ?? '—'}</span> <VerifierMark match={item.verifier.match} />
            {item.verifier.original_answer !== null && (
              <span className="muted small">
                {' '}
                (before the edit: <span className="mono">{item.verifier.original_answer}</span>)
              </span>
            )}{' '}
            ·{' '}
            {item.verifier.lint.length === 0 ? (
              <span className="ok">lint clean</span>
            ) : (
              <span className="error-text">
                {item.verifier.lint.length} lint {item.verifier.lint.length === 1 ? 'finding' : 'findings'}
              </span>
            )}
          </dd>
        </div>
      </dl>
      <dl className="review-why">
        <dt>Rationale</dt>
        <dd className="prewrap" data-testid="review-rationale">
          {item.rationale}
        </dd>
        <dt>Proposal</dt>
        <dd data-testid="review-proposal">
          {item.proposal_id === null ? <span className="muted">none (written by hand)</span> : <>#{item.proposal_id} {item.proposal_text}</>}
        </dd>
      </dl>
    </section>
  );
}

/**
 * Everything the judgement needs besides the form: the question, the original and the
 * counterfactual chart side by side, the table with the edited cells, the verifier's verdict,
 * the rationale and the proposal the item came from. Blind: no other review is shown. `charts`:
 * the charts as the review screen draws them (its keys flip and enlarge them); by default the
 * views every item page shows.
 */
export function ItemContext({ task, group = null, outcome, charts }: { task: ReviewTask; group?: ItemGroup | null; outcome: EditOutcome; charts?: ReactNode }) {
  const { item, chart } = task;
  // For a group item the task's chart is the one the assumption edits.
  const editedName = editedChartName(group, outcome);
  return (
    <div className="review-context">
      <QuestionBlock task={task} group={group} />
      <JudgeFromImage chartId={chart.id} name={chart.title ?? chart.imgname} state={item.table_state} />
      {charts ?? (group ? <ItemGroupCharts itemId={item.id} group={group} outcome={outcome} /> : <ItemCharts itemId={item.id} chart={chart} outcome={outcome} />)}
      <div className="review-details">
        <section className="review-card" aria-labelledby="review-table-heading">
          <h2 id="review-table-heading">Data table{editedName && ` · ${editedName} (edited)`}</h2>
          <ItemDataTable chart={chart} outcome={outcome} chartName={editedName} />
        </section>
        <section className="review-card" aria-labelledby="review-verifier-heading">
          <h2 id="review-verifier-heading">Verifier</h2>
          <VerifierView result={item.verifier} answer={item.answer} hasEdit={item.edit !== null} editedChart={editedName} />
          <p className="small bias-line">
            <span className="muted">Bias flags: </span>
            <BiasFlags flags={item.bias_flags} />
          </p>
          <details className="small">
            <summary>Edit and program</summary>
            {editedName && (
              <p className="small" data-testid="edit-chart">
                The edit changes {editedName}.
              </p>
            )}
            <pre className="code-block">{item.edit === null ? 'no edit' : JSON.stringify(item.edit, null, 2)}</pre>
            <pre className="code-block">{item.program}</pre>
          </details>
        </section>
      </div>
    </div>
  );
}
