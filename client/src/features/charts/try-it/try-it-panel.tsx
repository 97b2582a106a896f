import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { CHART_TYPE_LABELS, type ChartType } from '@shared/domain/chart-types';
import type { DataTable } from '@shared/table/model';
import { Field } from '../../../ui/field';
import { EditedTableView } from '../../../views/edited-table-view';
import { buildExamples } from './examples';
import { LanguageReference } from './language-reference';
import { LintFindingsView } from '../../../views/lint-findings-view';
import { ProgramErrorView } from './program-error-view';
import { runTryIt, type TryItResult } from './run-try-it';
import { useDebouncedValue } from '../../../ui/use-debounced-value';

/** Long enough to skip the keystrokes of a word, short enough to feel live. */
const TYPING_PAUSE_MS = 150;

/**
 * Esc leaves the field (as in the search box) instead of reaching the page's shortcuts:
 * `useHotkeys` already ignores keys typed in fields, and a handled event is skipped too.
 */
function leaveOnEscape(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  event.currentTarget.blur();
}

function Examples({ label, snippets, onPick }: { label: string; snippets: string[]; onPick: (text: string) => void }) {
  if (snippets.length === 0) return null;
  return (
    <div className="tryit-examples" role="group" aria-label={label}>
      <span className="muted small">Try:</span>
      {snippets.map((snippet) => (
        <button key={snippet} type="button" className="tryit-example" onClick={() => onPick(snippet)}>
          <code>{snippet}</code>
        </button>
      ))}
    </div>
  );
}

function ProgramResultView({ result, source }: { result: TryItResult['program']; source: string }) {
  switch (result.kind) {
    case 'empty':
      return <p className="muted">Type a program, or pick an example.</p>;
    case 'blocked':
      return <p className="muted">The program runs once the edit applies.</p>;
    case 'error':
      return <ProgramErrorView source={source} message={result.message} position={result.position} />;
    case 'answer':
      return (
        <p className="tryit-answer">
          <output data-testid="tryit-answer">{result.answer}</output>{' '}
          <span className="tryit-answer-type" data-testid="tryit-answer-type" title="Answer type (classifyAnswer)">
            {result.answer_type}
          </span>
        </p>
      );
  }
}

function LintView({ result }: { result: TryItResult }) {
  if (result.lint === null) return <p className="muted">Lint checks an edit: type one to see findings.</p>;
  if (result.edit.kind === 'invalid' && result.lint.length === 0) {
    return <p className="muted">The edit must be valid before it can be linted.</p>;
  }
  return <LintFindingsView findings={result.lint} />;
}

type TryItPanelProps = {
  table: DataTable;
  chartType: ChartType;
};

/**
 * The verifier in the hand: an edit and a program typed against this chart's table, run by
 * the shared engine in the browser as the user types — the edited table with its changes,
 * the program's answer or error, and the layout lint for the chart's type. Nothing is saved.
 */
export function TryItPanel({ table, chartType }: TryItPanelProps) {
  const [editText, setEditText] = useState('');
  const [programText, setProgramText] = useState('');
  const edit = useDebouncedValue(editText, TYPING_PAUSE_MS);
  const program = useDebouncedValue(programText, TYPING_PAUSE_MS);
  const result = useMemo(() => runTryIt(table, chartType, edit, program), [table, chartType, edit, program]);
  const examples = useMemo(() => buildExamples(table), [table]);
  const editErrorId = useId();
  const settled = edit === editText && program === programText;

  return (
    <section className="try-it" aria-labelledby="try-it-heading" data-testid="try-it">
      <h2 id="try-it-heading">Try it</h2>
      <p className="muted small">
        Type an edit of this table and a program over the edited table — what a hypothetical question assumes and how its
        answer is computed. Results follow as you type; nothing is saved.
      </p>

      <div className="tryit-grid">
        <div className="tryit-input">
          <Field label="Edit (JSON)">
            {(control) => (
              <textarea
                {...control}
                name="edit"
                rows={3}
                spellCheck={false}
                autoCapitalize="off"
                autoCorrect="off"
                placeholder='[{"op":"scale","row":"…","factor":2}]   (empty: no edit)'
                value={editText}
                onChange={(event) => setEditText(event.target.value)}
                onKeyDown={leaveOnEscape}
                aria-invalid={result.edit.kind === 'invalid' ? true : undefined}
                aria-describedby={result.edit.kind === 'invalid' ? editErrorId : undefined}
              />
            )}
          </Field>
          <Examples label="Edit examples" snippets={examples.edits} onPick={setEditText} />
          {result.edit.kind === 'invalid' && (
            <p className="error tryit-edit-error" id={editErrorId} data-testid="tryit-edit-error">
              {result.edit.message}
            </p>
          )}
        </div>
        <div className="tryit-input">
          <Field label="Program">
            {(control) => (
              <textarea
                {...control}
                name="program"
                rows={3}
                spellCheck={false}
                autoCapitalize="off"
                autoCorrect="off"
                placeholder='value("…")'
                value={programText}
                onChange={(event) => setProgramText(event.target.value)}
                onKeyDown={leaveOnEscape}
                aria-invalid={result.program.kind === 'error' ? true : undefined}
              />
            )}
          </Field>
          <Examples label="Program examples" snippets={examples.programs} onPick={setProgramText} />
        </div>
      </div>
      <LanguageReference />

      <div className="tryit-grid tryit-results" aria-busy={!settled}>
        <section aria-labelledby="tryit-table-heading">
          <h3 id="tryit-table-heading">Edited table</h3>
          {result.edit.kind === 'applied' ? (
            <EditedTableView original={table} edit={result.edit} />
          ) : (
            <p className="muted">
              {result.edit.kind === 'none' ? 'No edit: the program runs on the table above.' : 'The edit did not apply; see its error.'}
            </p>
          )}
        </section>
        <div>
          <section aria-labelledby="tryit-result-heading" aria-live="polite" data-testid="tryit-result">
            <h3 id="tryit-result-heading">Answer</h3>
            <ProgramResultView result={result.program} source={program} />
          </section>
          <section aria-labelledby="tryit-lint-heading">
            <h3 id="tryit-lint-heading">Layout lint · {CHART_TYPE_LABELS[chartType]}</h3>
            <LintView result={result} />
          </section>
        </div>
      </div>
    </section>
  );
}
