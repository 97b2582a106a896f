import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ImportEvalRequestSchema, type EvalMode, type PredictionRow } from '@shared/api/evaluations';
import { errorMessage, isApiError } from '../../api/http';
import { ActionError } from '../../ui/error-messages';
import { Field } from '../../ui/field';
import { fieldErrorsOf, parseForm, type FieldErrors } from '../../ui/form-errors';
import { SubmitButton } from '../../ui/submit-button';
import { useImportEval } from './eval-api';
import { evalRunPath } from './eval-runs-table';
import { ModeRadios } from './mode-radios';
import { parsePredictionsFile } from './parse-predictions';

/** The file as read: its predictions, or why it cannot be sent. */
type FileState = { name: string; predictions: PredictionRow[] } | { name: string; error: string } | null;

/** Which form field a server error belongs to: the file for anything inside `predictions`. */
function serverErrorField(error: unknown): { field: 'predictions' | 'model' | 'mode'; message: string } | null {
  if (!isApiError(error) || !error.field) return null;
  const reason = error.message.startsWith(`${error.field}: `) ? error.message.slice(error.field.length + 2) : error.message;
  // `body.predictions.3.id` → `predictions[3].id`: the entry's path as the file's reader shows it.
  const path = error.field.replace(/^body\./, '').replace(/\.(\d+)(?=\.|$)/g, '[$1]');
  if (path.startsWith('predictions')) return { field: 'predictions', message: `${path}: ${reason}` };
  if (path === 'model' || path === 'mode') return { field: path, message: reason };
  return null;
}

/**
 * A curator uploads predictions made elsewhere (`hqa eval` output); they are scored on the
 * server against the accepted items, like a run made here.
 */
export function ImportPredictionsForm() {
  const importEval = useImportEval();
  const [file, setFile] = useState<FileState>(null);
  const [model, setModel] = useState('');
  const [mode, setMode] = useState<EvalMode>('hqa');
  const [errors, setErrors] = useState<FieldErrors>({});
  // Reading is asynchronous: only the file chosen last may set what the form holds.
  const latest = useRef<File | null>(null);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    latest.current = chosen;
    importEval.reset();
    setErrors((current) => ({ ...current, predictions: undefined }));
    if (!chosen) {
      setFile(null);
      return;
    }
    chosen.text().then(
      (text) => {
        if (latest.current !== chosen) return;
        const parsed = parsePredictionsFile(chosen.name, text);
        setFile(parsed.ok ? { name: chosen.name, predictions: parsed.predictions } : { name: chosen.name, error: parsed.message });
      },
      (error: unknown) => {
        if (latest.current === chosen) setFile({ name: chosen.name, error: `${chosen.name}: could not be read (${errorMessage(error)})` });
      },
    );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file || 'error' in file) {
      setErrors({ predictions: file ? file.error : 'Choose the predictions file: the JSON array that hqa eval writes.' });
      return;
    }
    const parsed = parseForm(ImportEvalRequestSchema, { model, mode, predictions: file.predictions });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setErrors({});
    importEval.mutate(parsed.data);
  };

  const server = serverErrorField(importEval.error);
  const errorFor = (field: 'predictions' | 'model' | 'mode') =>
    errors[field] ?? (field === 'predictions' && file && 'error' in file ? file.error : undefined) ?? (server?.field === field ? server.message : undefined);

  return (
    <form className="panel" onSubmit={onSubmit} aria-labelledby="import-eval-heading" noValidate data-testid="import-eval-form">
      <h3 id="import-eval-heading">Import predictions</h3>
      <div className="form-grid">
        <Field label="Predictions file (hqa eval output)" error={errorFor('predictions')}>
          {(control) => <input {...control} type="file" name="predictions" accept="application/json,.json" onChange={onFile} />}
        </Field>
        <Field label="Model name" error={errorFor('model')}>
          {(control) => (
            <input {...control} name="model" autoComplete="off" placeholder="the model that answered" value={model} onChange={(event) => setModel(event.target.value)} />
          )}
        </Field>
      </div>
      <ModeRadios name="import-mode" value={mode} onChange={setMode} error={errorFor('mode')} />
      <p className="muted small engine-note">
        {file && 'predictions' in file
          ? `${file.name}: ${file.predictions.length} ${file.predictions.length === 1 ? 'prediction' : 'predictions'} read.`
          : 'A JSON array [{id, prediction, raw}] with the export ids of accepted items, as `hqa eval` writes it.'}
      </p>
      <div className="form-actions">
        <SubmitButton pending={importEval.isPending} pendingLabel="Importing…">
          Import
        </SubmitButton>
        {importEval.isError && !server && <ActionError error={importEval.error} />}
        {importEval.isSuccess && (
          <span data-testid="import-eval-result">
            Imported as <Link to={evalRunPath(importEval.data.run.id)}>run #{importEval.data.run.id}</Link>.
          </span>
        )}
      </div>
    </form>
  );
}
