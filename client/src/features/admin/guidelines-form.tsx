import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CRITERIA, CRITERION_LABELS, type Criterion } from '@shared/domain/review';
import { MAX_GUIDELINE_CHARS, type ReviewGuidelines } from '@shared/review/guidelines';
import { errorMessage } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { Field } from '../../ui/field';
import { Markdown } from '../../ui/markdown';
import { useSettings, useUpdateSettings } from './settings-api';

function GuidelinesEditor({ saved }: { saved: ReviewGuidelines }) {
  const update = useUpdateSettings();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ReviewGuidelines>(saved);
  const [notice, setNotice] = useState<string | null>(null);
  const [preview, setPreview] = useState(false);
  const set = (criterion: Criterion, text: string) => {
    setDraft((current) => ({ ...current, [criterion]: text }));
    setNotice(null);
  };
  const tooLong = CRITERIA.filter((criterion) => draft[criterion].length > MAX_GUIDELINE_CHARS);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.reset();
    if (tooLong.length > 0) return;
    if (CRITERIA.every((criterion) => draft[criterion] === saved[criterion])) {
      setNotice('Nothing changed.');
      return;
    }
    update.mutate(
      { review_guidelines: draft },
      {
        onSuccess: (response) => {
          queryClient.setQueryData(queryKeys.reviewGuidelines(), { guidelines: response.settings.review_guidelines });
          setDraft(response.settings.review_guidelines);
          setNotice('Guidelines saved: reviewers see them with g on the review screen.');
        },
      },
    );
  };

  return (
    <form className="guidelines-form" onSubmit={onSubmit} aria-labelledby="guidelines-heading" noValidate data-testid="guidelines-form">
      <h2 id="guidelines-heading">Review guidelines</h2>
      <p className="field-hint">
        What each criterion asks of an item, in Markdown (headings, lists, <code>**bold**</code>, <code>*italic*</code>, <code>`code`</code>, links).
        Reviewers open them with <kbd>g</kbd> on the review screen.
      </p>
      <label className="checkbox">
        <input type="checkbox" checked={preview} onChange={(event) => setPreview(event.target.checked)} />
        Show how reviewers will see them
      </label>
      <div className="guidelines-fields">
        {CRITERIA.map((criterion) => (
          <div key={criterion} className="guidelines-field">
            <Field
              label={`${CRITERION_LABELS[criterion]} guideline`}
              error={draft[criterion].length > MAX_GUIDELINE_CHARS ? `At most ${MAX_GUIDELINE_CHARS.toLocaleString('en')} characters (this one has ${draft[criterion].length.toLocaleString('en')}).` : undefined}
            >
              {(control) => (
                <textarea {...control} name={`guideline-${criterion}`} rows={7} value={draft[criterion]} onChange={(event) => set(criterion, event.target.value)} />
              )}
            </Field>
            {preview && <Markdown source={draft[criterion]} className="guidelines-preview" />}
          </div>
        ))}
      </div>
      <div className="form-row">
        <button type="submit" className="primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save guidelines'}
        </button>
      </div>
      {notice && (
        <p className="notice" role="status" data-testid="guidelines-notice">
          {notice}
        </p>
      )}
      {update.isError && (
        <p className="error" role="alert">
          Could not save the guidelines: {errorMessage(update.error)}
        </p>
      )}
    </form>
  );
}

/** Admins write the guidelines for the three review criteria (settings `review_guidelines`). */
export function GuidelinesForm() {
  const settings = useSettings();
  if (settings.isPending || settings.isError) return null;
  return <GuidelinesEditor saved={settings.data.settings.review_guidelines} />;
}
