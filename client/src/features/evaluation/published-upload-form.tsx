import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { PUBLISHED_TSV_MAX_CHARS, UploadPublishedTableRequestSchema } from '@shared/api/evaluations';
import { checkPaperTable, PaperTableError, readPaperTable } from '@shared/eval/paper-tables';
import { errorMessage } from '../../api/http';
import { ActionError } from '../../ui/error-messages';
import { Field } from '../../ui/field';
import { fieldErrorsOf, parseForm, serverFieldMessage, serverFieldOf, type FieldErrors } from '../../ui/form-errors';
import { SubmitButton } from '../../ui/submit-button';
import { useUploadPublishedTable } from './published-figures-api';

/** The chosen file as the shared reader read it: what it holds, or where it is wrong (file, line, column). */
type ChosenTable = { name: string; text: string; summary: string } | { name: string; error: string } | null;

const LAYOUT_NAMES = { table3: 'Table 3 (accuracy and decline rate)', table4: 'Table 4 (accuracy per answer type and variance)' } as const;

/** Reads a TSV with the reader the server uses again, so a file refused here would be refused there. */
function readChosen(name: string, text: string): ChosenTable {
  // A paper's table is about 1 kB: a file past the upload's limit is the wrong file; say so rather than parse it.
  if (text.length > PUBLISHED_TSV_MAX_CHARS) return { name, error: `${name}: holds ${text.length.toLocaleString('en')} characters, more than the ${PUBLISHED_TSV_MAX_CHARS.toLocaleString('en')} a published table may` };
  try {
    const table = checkPaperTable(readPaperTable(text, name));
    const errata = table.rows.filter((row) => !row.check.follows).length;
    const figure = table.kind === 'table3' ? 'decline rate' : 'variance';
    const rows = `${table.rows.length} ${table.rows.length === 1 ? 'row' : 'rows'}`;
    const flagged = errata === 0 ? `every printed ${figure} follows from its row` : `${errata} printed ${figure}${errata === 1 ? '' : 's'} flagged as errata`;
    return { name, text, summary: `${name}: ${LAYOUT_NAMES[table.kind]}, ${rows} read; ${flagged}.` };
  } catch (error) {
    if (error instanceof PaperTableError) return { name, error: error.message };
    throw error;
  }
}

/** The upload form's fields: the server names them `body.text`, `body.source`, `body.file_name`. */
const fieldOfServer = (field: string | undefined) => (field === 'text' || field === 'file_name' ? 'file' : field);

/**
 * A curator uploads a paper's Table 3 or Table 4 as TSV (the layout of
 * ../shared/data/chart-hqa-paper/), naming where the figures come from.
 */
export function PublishedUploadForm() {
  const upload = useUploadPublishedTable();
  const [file, setFile] = useState<ChosenTable>(null);
  const [source, setSource] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const input = useRef<HTMLInputElement>(null);
  // Reading is asynchronous: only the file chosen last may set what the form holds.
  const latest = useRef<File | null>(null);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    latest.current = chosen;
    upload.reset();
    setErrors((current) => ({ ...current, file: undefined }));
    if (!chosen) {
      setFile(null);
      return;
    }
    chosen.text().then(
      (text) => {
        if (latest.current === chosen) setFile(readChosen(chosen.name, text));
      },
      (error: unknown) => {
        if (latest.current === chosen) setFile({ name: chosen.name, error: `${chosen.name}: could not be read (${errorMessage(error)})` });
      },
    );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseForm(UploadPublishedTableRequestSchema, { source, file_name: file?.name ?? '', text: file && 'text' in file ? file.text : '' });
    const found = parsed.success ? {} : fieldErrorsOf(parsed.error);
    const fileError = !file ? 'Choose the table: a TSV in the layout of Table 3 or Table 4.' : 'error' in file ? file.error : (found.text ?? found.file_name);
    const next: FieldErrors = { source: found.source, file: fileError };
    setErrors(next);
    if (!parsed.success || next.file) return;
    upload.mutate(parsed.data, {
      onSuccess: () => {
        setFile(null);
        latest.current = null;
        if (input.current) input.current.value = '';
      },
    });
  };

  const serverField = fieldOfServer(serverFieldOf(upload.error));
  const errorFor = (field: 'source' | 'file') =>
    errors[field] ?? (field === 'file' && file && 'error' in file ? file.error : undefined) ?? (serverField === field ? serverFieldMessage(upload.error) : undefined);

  return (
    <form className="panel" onSubmit={onSubmit} aria-labelledby="published-upload-heading" noValidate data-testid="published-upload-form">
      <h3 id="published-upload-heading">Upload a published table</h3>
      <div className="form-grid">
        <Field label="Table file (TSV)" error={errorFor('file')}>
          {(control) => <input {...control} ref={input} type="file" name="published-table" accept=".tsv,.txt,text/tab-separated-values" onChange={onFile} />}
        </Field>
        <Field label="Source" hint="Where the figures come from: the paper and its table." error={errorFor('source')}>
          {(control) => (
            <input
              {...control}
              name="published-source"
              autoComplete="off"
              placeholder="Chart-HQA paper (arXiv 2503.04095), Table 3"
              value={source}
              onChange={(event) => setSource(event.target.value)}
            />
          )}
        </Field>
      </div>
      <p className="muted small engine-note" data-testid="published-file-summary">
        {file && 'summary' in file
          ? file.summary
          : 'A header naming the columns of Table 3 (model, type, params, chartqa_acc, chartqa_rank, chart_hqa_acc, chart_hqa_rank, decline_rate) or Table 4 (model, type, params, int, dec, bool, text, variance), then one tab-separated row per model.'}
      </p>
      <div className="form-actions">
        <SubmitButton pending={upload.isPending} pendingLabel="Uploading…">
          Upload
        </SubmitButton>
        {upload.isError && serverField !== 'file' && serverField !== 'source' && <ActionError error={upload.error} />}
        {upload.isSuccess && (
          <span data-testid="published-upload-result">
            Uploaded {upload.data.table.file_name} as table #{upload.data.table.id}.
          </span>
        )}
      </div>
    </form>
  );
}
