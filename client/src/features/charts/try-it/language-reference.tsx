import { MAX_EDIT_OPS } from '@shared/table/edit';
import { MAX_PROGRAM_LENGTH } from '@shared/table/program/index';

/** The grammar doc in the repository; the workbench does not serve docs. */
const GRAMMAR_DOC = 'docs/program-language.md';

/** A compact reminder of both languages; the full grammar with examples lives in the docs. */
export function LanguageReference() {
  return (
    <details className="tryit-reference" data-testid="tryit-reference">
      <summary>Language reference</summary>
      <dl>
        <dt>Edit</dt>
        <dd>
          A JSON array of ops applied in order (at most {MAX_EDIT_OPS}): <code>set</code> (row, series?, value),{' '}
          <code>scale</code> (row?, series?, factor), <code>add</code> (row?, series?, delta), <code>swap</code> (rows: [a, b],
          series?), <code>remove_row</code> (row), <code>remove_series</code> (series), <code>add_row</code> (row, values). A
          left-out row or series in <code>scale</code>/<code>add</code> means all of them; <code>series</code> may be left out on a
          single-series table.
        </dd>
        <dt>Program</dt>
        <dd>
          One expression (at most {MAX_PROGRAM_LENGTH} characters): numbers, <code>&quot;strings&quot;</code>,{' '}
          <code>true</code>/<code>false</code>; <code>+ - * /</code>, <code>&gt; &lt; &gt;= &lt;= == !=</code>,{' '}
          <code>and or not</code>, <code>if(c, a, b)</code>. Tables: <code>value(row, series)</code>, <code>series(name)</code>,{' '}
          <code>row(label)</code>, <code>rows()</code>, <code>series_names()</code>. Lists: <code>sum avg median min max count</code>,{' '}
          <code>argmax argmin</code>, <code>where(list, &quot;&gt;&quot;, n)</code>. Numbers: <code>diff ratio abs round</code>.
          Booleans answer <code>Yes</code>/<code>No</code>.
        </dd>
        <dt>Labels</dt>
        <dd>Rows and series match ignoring case, extra spaces and a trailing footnote <code>*</code>.</dd>
      </dl>
      <p className="muted small">
        The full grammar, with examples from real questions: <code>{GRAMMAR_DOC}</code> in the repository.
      </p>
    </details>
  );
}
