import { useState } from 'react';
import { Link } from 'react-router';
import { AdjudicateRequestSchema, type AnswerChoice, type ReviewRecord } from '@shared/api/review';
import type { ItemGroup } from '@shared/api/item-group';
import type { ItemDetail } from '@shared/api/items';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import type { Decision } from '@shared/domain/review';
import { errorMessage } from '../../api/http';
import { Field } from '../../ui/field';
import { fieldErrorsOf, parseForm, type FieldErrors } from '../../ui/form-errors';
import { ColourWarning } from '../../views/colour-warning';
import { VerifierMark } from '../../views/item-tags';
import { MarkedQuestion } from '../../views/marked-question';
import { useAdjudicate, useAdjudicationList } from './adjudication-api';
import { ReviewCard } from '../../views/review-card';
import { AnswerChecksView } from '../../views/answer-checks-view';
import { ItemChartsPanel } from '../../views/item-charts-panel';
import { itemGroupOf } from '../../views/item-group-charts';

/** Distinct corrections the reviewers proposed, offered as one-click final answers. */
function corrections(reviews: ReviewRecord[], pick: (review: ReviewRecord) => string | null): string[] {
  return [...new Set(reviews.map(pick).filter((value): value is string => value !== null))];
}

function AdjudicationForm({ item, reviews }: { item: ItemDetail; reviews: ReviewRecord[] }) {
  const adjudicate = useAdjudicate(item.id);
  const [finalAnswer, setFinalAnswer] = useState('');
  const [finalQuestion, setFinalQuestion] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const answers = corrections(reviews, (review) => review.corrected_answer);

  const decide = (decision: Decision) => {
    const body = {
      decision,
      final_answer: finalAnswer.trim() === '' || finalAnswer.trim() === item.answer ? undefined : finalAnswer.trim(),
      final_question: finalQuestion.trim() === '' || finalQuestion.trim() === item.question ? undefined : finalQuestion.trim(),
      note,
    };
    const parsed = parseForm(AdjudicateRequestSchema, body);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setErrors({});
    adjudicate.mutate(body);
  };

  return (
    <form className="adjudication-form" aria-label={`Decide item #${item.id}`} onSubmit={(event) => event.preventDefault()} noValidate>
      <div className="form-row">
        <Field label="Final answer (optional)" error={errors.final_answer}>
          {(control) => (
            <input {...control} className="mono" placeholder={item.answer} value={finalAnswer} onChange={(event) => setFinalAnswer(event.target.value)} />
          )}
        </Field>
        {answers.length > 0 && (
          <div className="correction-picks" role="group" aria-label="Reviewers' corrected answers">
            <span className="muted small">Use a correction:</span>
            {answers.map((answer) => (
              <button key={answer} type="button" className="tryit-example" onClick={() => setFinalAnswer(answer)}>
                <code>{answer}</code>
              </button>
            ))}
          </div>
        )}
      </div>
      <Field label="Final question (optional)" error={errors.final_question}>
        {(control) => (
          <textarea
            {...control}
            rows={2}
            placeholder="unchanged"
            value={finalQuestion}
            onFocus={() => {
              if (finalQuestion === '') setFinalQuestion(item.question);
            }}
            onChange={(event) => setFinalQuestion(event.target.value)}
          />
        )}
      </Field>
      <Field label="Note" error={errors.note}>
        {(control) => <textarea {...control} rows={2} value={note} onChange={(event) => setNote(event.target.value)} />}
      </Field>
      <div className="form-actions">
        <button type="button" className="primary" onClick={() => decide('accept')} disabled={adjudicate.isPending}>
          Accept
        </button>
        <button type="button" className="decide-reject" onClick={() => decide('reject')} disabled={adjudicate.isPending}>
          Reject
        </button>
        {adjudicate.isError && (
          <span className="error" role="alert">
            {errorMessage(adjudicate.error)}
          </span>
        )}
      </div>
    </form>
  );
}

/** Who gives an answer: the item itself (model or writer) and the reviewers whose review gives it. */
function answerSources(choice: AnswerChoice): string {
  const reviewers = choice.reviewers.join(', ');
  if (choice.source === 'item') return reviewers === '' ? 'the item’s answer' : `the item’s answer, kept by ${reviewers}`;
  return `corrected by ${reviewers}`;
}

function AdjudicationCase({ item, reviews, group, answers }: { item: ItemDetail; reviews: ReviewRecord[]; group: ItemGroup | null; answers: AnswerChoice[] }) {
  return (
    <article className="panel adjudication-case" data-item-id={item.id} data-testid="adjudication-case">
      <header className="adjudication-head">
        <h2>
          <Link to={`/items/${item.id}`}>Item #{item.id}</Link>
        </h2>
        <span className="muted small">
          {group ? (
            <>group {group.name} · {group.charts.length} charts</>
          ) : (
            <>
              <span className="mono">{item.imgname}</span> · {CHART_TYPE_LABELS[item.chart_type]}
            </>
          )}
        </span>
      </header>
      <MarkedQuestion question={item.question} assumption={item.assumption} />
      <p className="small">
        Answer <span className="mono">{item.answer}</span> ({item.answer_type}) · verifier <VerifierMark match={item.verifier_match} />{' '}
        <span className="mono">{item.verifier.recomputed_answer ?? '—'}</span> · factual: {item.factual_query} → <span className="mono">{item.factual_label}</span>
      </p>
      <ColourWarning colours={item.unverifiable_colours} />
      {answers.length > 1 && (
        <section aria-label="Answers proposed" data-testid="adjudication-answers">
          <h3 className="small">Answers proposed</h3>
          <AnswerChecksView answers={answers} who={(index) => (answers[index] ? answerSources(answers[index]) : null)} />
        </section>
      )}
      <ItemChartsPanel item={item} group={group} />
      <div className="reviews-side-by-side" style={{ gridTemplateColumns: `repeat(${Math.max(1, reviews.length)}, minmax(14rem, 1fr))` }}>
        {reviews.map((review) => (
          <ReviewCard key={review.id} review={review} />
        ))}
      </div>
      <AdjudicationForm item={item} reviews={reviews} />
    </article>
  );
}

/** Curators decide the items whose reviewers did not reach consensus. Live: decided items leave the list. */
export function AdjudicationPage() {
  const list = useAdjudicationList();
  return (
    <section className="page adjudication-page">
      <title>Adjudication · Chart-HQA</title>
      <header className="page-header">
        <h1>Adjudication</h1>
        {list.data && <p className="muted">{list.data.items.length} waiting</p>}
      </header>
      {list.isPending && <p className="muted">Loading…</p>}
      {list.isError && (
        <p className="error" role="alert">
          Could not load the items: {errorMessage(list.error)}
        </p>
      )}
      {list.data?.items.length === 0 && <p className="empty">Nothing to adjudicate: every reviewed item reached consensus.</p>}
      {list.data?.items.map((entry) => (
        <AdjudicationCase key={entry.item.id} item={entry.item} reviews={entry.reviews} group={itemGroupOf(entry, entry.item)} answers={entry.answers} />
      ))}
    </section>
  );
}
