/**
 * The hypothetical question with its assumption marked. Questions start with their assumption;
 * when the model put it elsewhere (or reworded it) the assumption is shown on its own line.
 * Everything is rendered as text.
 */
export function MarkedQuestion({ question, assumption }: { question: string; assumption: string }) {
  const marked = assumption.trim();
  const at = marked === '' ? -1 : question.indexOf(marked);
  if (at === -1) {
    return (
      <>
        <p className="review-question-text" data-testid="review-question">
          {question}
        </p>
        <p className="small">
          <span className="muted">Assumption (not found in the question): </span>
          <mark className="assumption">{assumption}</mark>
        </p>
      </>
    );
  }
  return (
    <p className="review-question-text" data-testid="review-question">
      {question.slice(0, at)}
      <mark className="assumption" title="The assumption" data-testid="review-assumption">
        {marked}
      </mark>
      {question.slice(at + marked.length)}
    </p>
  );
}
