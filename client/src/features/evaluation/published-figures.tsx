import { Link } from 'react-router';
import type { EvalComparisonRow, PublishedTable } from '@shared/api/evaluations';
import { roleAtLeast } from '@shared/domain/roles';
import { ANSWER_TYPES } from '@shared/table/answers';
import { useCurrentUser } from '../../auth/session';
import { ActionError, LoadError } from '../../ui/error-messages';
import { formatTime } from '../../ui/format';
import { AnswerTypeHead } from './comparison-tables';
import { useEvalComparison } from './eval-api';
import { evalRunPath } from './eval-runs-table';
import { usePublishedTables, useRemovePublishedTable } from './published-figures-api';
import { accuracyRows, answerTypeRows, type AccuracyRow, type AnswerTypeRow } from './published-rows';
import { PublishedUploadForm } from './published-upload-form';

const KIND_LABELS = { table3: 'Table 3', table4: 'Table 4' } as const;

/** The model cell: name, the table's params and type, and where the figures come from. */
function ModelCell({ row }: { row: AccuracyRow | AnswerTypeRow }) {
  const { origin } = row;
  return (
    <th scope="row">
      <span className="mono">{row.model}</span>
      {row.params !== null && <span className="muted small"> {[row.params, row.type].filter((part) => part !== null && part !== '-').join(' · ')}</span>}{' '}
      {origin.kind === 'published' ? (
        <>
          <span className="validity-tag validity-control" data-testid="published-badge" title={`Published figures from ${origin.fileName}, not measured here`}>
            published
          </span>{' '}
          <span className="muted small" data-testid="published-source">
            {origin.source}
          </span>
        </>
      ) : (
        <Link className="validity-tag validity-muted" data-testid="evaluated-badge" to={evalRunPath(origin.hqaRunId)} title="Measured here: its latest finished hypothetical run">
          evaluated here · {origin.items} items
        </Link>
      )}
    </th>
  );
}

/** A printed figure, flagged when it does not follow from its own row (the reason in its title). */
function FigureCell({ row, column, text }: { row: AccuracyRow | AnswerTypeRow; column: string; text: string }) {
  const { erratum } = row;
  return (
    <td className="num" data-col={column}>
      {text}
      {erratum && (
        <>
          {' '}
          <span className="validity-tag validity-warning" data-testid="erratum-flag" title={erratum.reason}>
            erratum
          </span>
        </>
      )}
    </td>
  );
}

const rowAttributes = (row: AccuracyRow | AnswerTypeRow) => ({
  'data-model': row.model,
  'data-origin': row.origin.kind,
  ...(row.params !== null ? { 'data-params': row.params } : {}),
  ...(row.erratum ? { 'data-erratum': 'true' } : {}),
});

function PublishedAccuracyTable({ rows }: { rows: AccuracyRow[] }) {
  return (
    <table className="data-grid comparison-table" data-testid="published-accuracy">
      <caption className="sr-only">Accuracy and decline rate: models evaluated here beside published figures</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col" className="num" title="Relaxed accuracy on the factual questions (Acc_QA)">
            ChartQA (factual)
          </th>
          <th scope="col" className="num" title="Relaxed accuracy on the hypothetical questions (Acc_HQA)">
            Chart-HQA
          </th>
          <th scope="col" className="num" title="|Acc_QA − Acc_HQA| / Acc_QA; a published one is checked against its own row's accuracies">
            Decline rate
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} {...rowAttributes(row)}>
            <ModelCell row={row} />
            <td className="num" data-col="qa">
              {row.qaRunId === null ? row.qa : <Link to={evalRunPath(row.qaRunId)}>{row.qa}</Link>}
            </td>
            <td className="num" data-col="hqa">
              {row.hqaRunId === null ? row.hqa : <Link to={evalRunPath(row.hqaRunId)}>{row.hqa}</Link>}
            </td>
            <FigureCell row={row} column="decline" text={row.decline} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PublishedAnswerTypeTable({ rows }: { rows: AnswerTypeRow[] }) {
  return (
    <table className="data-grid comparison-table" data-testid="published-answer-types">
      <caption className="sr-only">Accuracy per answer type: models evaluated here beside published figures</caption>
      <AnswerTypeHead varianceTitle="Population variance of the per-type accuracies (percent²); a published one is checked against its own row" />
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} {...rowAttributes(row)}>
            <ModelCell row={row} />
            {ANSWER_TYPES.map((type) => (
              <td key={type} className="num" data-col={type}>
                {row.byType[type]}
              </td>
            ))}
            <FigureCell row={row} column="variance" text={row.variance} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The uploaded tables, each with what was flagged in it; curators may delete one. */
function UploadedTables({ tables, canDelete }: { tables: PublishedTable[]; canDelete: boolean }) {
  const remove = useRemovePublishedTable();
  return (
    <>
      <table className="data-grid" data-testid="published-tables">
        <caption className="sr-only">Uploaded published tables</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Layout</th>
            <th scope="col">Source</th>
            <th scope="col" className="num">
              Rows
            </th>
            <th scope="col" className="num" title="Rows whose printed figure does not follow from their own accuracies">
              Errata
            </th>
            <th scope="col">Uploaded</th>
            {canDelete && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {tables.map((table) => (
            <tr key={table.id} data-published-table-id={table.id}>
              <td className="mono">{table.file_name}</td>
              <td>{KIND_LABELS[table.kind]}</td>
              <td>{table.source}</td>
              <td className="num">{table.rows.length}</td>
              <td className="num" data-col="errata">
                {table.rows.filter((row) => !row.check.follows).length}
              </td>
              <td className="small">
                {table.created_by ?? 'someone'}, <time dateTime={table.created_at}>{formatTime(table.created_at)}</time>
              </td>
              {canDelete && (
                <td>
                  <button type="button" disabled={remove.isPending} onClick={() => remove.mutate(table.id)} aria-label={`Delete ${table.file_name} (table #${table.id})`}>
                    Delete
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {remove.isError && <ActionError error={remove.error} />}
    </>
  );
}

/** The flagged rows' reasons in words under their table: a title is seen only on hover, this by everyone. */
function ErrataNote({ rows }: { rows: (AccuracyRow | AnswerTypeRow)[] }) {
  const flagged = rows.filter((row) => row.erratum !== null);
  if (flagged.length === 0) return null;
  return (
    <ul className="muted small" data-testid="errata-note">
      {flagged.map((row) => (
        <li key={row.key} data-model={row.model}>
          Erratum, {row.model}
          {row.params !== null && row.params !== '-' ? ` (${row.params})` : ''}: {row.erratum?.reason}
        </li>
      ))}
    </ul>
  );
}

function Comparison({ evaluated, tables }: { evaluated: EvalComparisonRow[]; tables: PublishedTable[] }) {
  const kinds = new Set(tables.map((table) => table.kind));
  const accuracy = kinds.has('table3') ? accuracyRows(evaluated, tables) : [];
  const byType = kinds.has('table4') ? answerTypeRows(evaluated, tables) : [];
  return (
    <>
      {kinds.has('table3') && (
        <>
          <h3>Accuracy and decline rate, beside the published figures</h3>
          <div className="table-scroll">
            <PublishedAccuracyTable rows={accuracy} />
          </div>
          <ErrataNote rows={accuracy} />
        </>
      )}
      {kinds.has('table4') && (
        <>
          <h3>By answer type, beside the published figures</h3>
          <div className="table-scroll">
            <PublishedAnswerTypeTable rows={byType} />
          </div>
          <ErrataNote rows={byType} />
        </>
      )}
    </>
  );
}

/**
 * Published figures (a paper's Table 3 or Table 4, uploaded as TSV) beside the models evaluated
 * here, ranked together by Chart-HQA accuracy. A published row is marked as such; a printed
 * decline rate or variance its own row's accuracies do not give is flagged as an erratum.
 */
export function PublishedFigures() {
  const user = useCurrentUser();
  const isCurator = roleAtLeast(user.role, 'curator');
  const tables = usePublishedTables();
  const comparison = useEvalComparison();
  const evaluated = comparison.data?.rows ?? [];
  return (
    <section aria-labelledby="published-heading" data-testid="published-figures">
      <h2 id="published-heading">Published figures</h2>
      <p className="muted small page-intro">
        A paper’s Table 3 or Table 4, uploaded as TSV, beside the models evaluated here. Published figures are not measured on this dataset: they are
        the paper’s, on its own questions. A printed decline rate or variance that does not follow from the row’s own accuracies is flagged as an erratum.
      </p>
      {isCurator ? <PublishedUploadForm /> : <p className="muted">Curators upload published tables.</p>}
      {tables.isPending && <p className="muted">Loading the published tables…</p>}
      {tables.isError && <LoadError what="the published tables" error={tables.error} />}
      {comparison.isError && <LoadError what="the comparison" error={comparison.error} />}
      {tables.data && tables.data.tables.length === 0 && <p className="empty">No published table uploaded yet.</p>}
      {tables.data && tables.data.tables.length > 0 && (
        <>
          <UploadedTables tables={tables.data.tables} canDelete={isCurator} />
          <Comparison evaluated={evaluated} tables={tables.data.tables} />
        </>
      )}
    </section>
  );
}
