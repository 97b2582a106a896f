import { useMemo, useState, type ReactNode } from 'react';
import { dataTableToEdited, editedOverStored, EditedTableSchema, type ChartTable, type EditedTable } from '@shared/api/tables';
import { CHART_TYPE_LABELS, type ChartType, type TypeSource } from '@shared/domain/chart-types';
import { withTableReading } from '@shared/chart-spec/drawing-style';
import { chartImageUrl } from '../../../api/charts-api';
import { errorMessage } from '../../../api/http';
import { CounterfactualChart } from '../../../views/counterfactual-chart';
import { parsePastedTable } from './csv-paste';
import { TableGrid } from './table-grid';
import { useChartTable, useConfirmTable, useExtractTable, useSaveTable, useUnconfirmTable } from './table-api';
import { useHotkeys } from '../../../keyboard/use-hotkeys';
import { ChartOriginal } from '../chart-original';
import { parseForm } from '../../../ui/form-errors';
import { fieldLabel } from '@shared/issue-words';

const SOURCE_WORDS: Record<NonNullable<ChartTable['table_source']>, string> = {
  imported: 'imported with the chart',
  extracted: 'extracted from the image by a vision model',
  curator: 'typed in or corrected by a curator',
};

const STARTER: EditedTable = { title: null, label_header: 'Characteristic', series: ['Value'], rows: [{ label: '', cells: [''] }] };

/** The first problem of a draft, named by its field, or null when the server would take it. */
function draftProblem(draft: EditedTable): string | null {
  const parsed = parseForm(EditedTableSchema, draft);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  if (!issue) return 'invalid table';
  // A message the schema writes itself ("empty") does not name its field: the draft says which.
  const field = fieldLabel(issue.path);
  return issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
}

type SectionProps = {
  chartId: number;
  chartType: ChartType;
  typeSource?: TypeSource;
  canEdit: boolean;
  /** The original as the page shows it (the chart page's own figure); by default the stored image. */
  original?: ReactNode;
  /** Binds TABLE_KEYS (confirm, edit) while no draft is open: a page that shows one chart's table at a time. */
  keys?: boolean;
};

/** The editor's single-key shortcuts, for pages that bind them (the group page's confirming). */
export const TABLE_KEYS = { confirm: 'c', edit: 'e' } as const;

/**
 * The chart's table beside its image: where it came from, whether it is confirmed, and for
 * curators an editable grid (rows and series added or removed, CSV pasted), with the chart
 * drawn from the table next to the original so a wrong value shows; Save confirms.
 */
export function TableEditorSection({ chartId, chartType, typeSource, canEdit, original, keys = false }: SectionProps) {
  const query = useChartTable(chartId);
  const save = useSaveTable(chartId);
  const confirm = useConfirmTable(chartId);
  const unconfirm = useUnconfirmTable(chartId);
  const extract = useExtractTable(chartId);
  const [draft, setDraft] = useState<EditedTable | null>(null);
  const [paste, setPaste] = useState<string | null>(null);
  const [pasteError, setPasteError] = useState<string | null>(null);
  const current = query.data;
  const problem = draft ? draftProblem(draft) : null;
  // A draft keeps what the extraction read (estimates, drawing) and the units it sets, as saving it will.
  const drawn = useMemo(() => {
    if (draft) return problem === null ? editedOverStored(current?.data_table ?? null, draft) : null;
    return current?.data_table ?? null;
  }, [draft, problem, current]);

  const pending = save.isPending || confirm.isPending || unconfirm.isPending || extract.isPending;
  const canConfirm = canEdit && draft === null && !pending && current !== undefined && current.data_table !== null && !current.table_confirmed;
  const startEditing = () => {
    if (!current) return;
    setDraft(current.data_table ? dataTableToEdited(current.data_table, current.title) : { ...STARTER, title: current.title });
  };
  useHotkeys(
    keys && canEdit && draft === null && current !== undefined
      ? {
          [TABLE_KEYS.confirm]: () => {
            if (canConfirm) confirm.mutate(undefined);
          },
          [TABLE_KEYS.edit]: () => {
            if (!pending) startEditing();
          },
        }
      : {},
  );

  if (!current) {
    if (!query.isError) return null;
    // The page's original still shows: it does not depend on the table.
    return (
      <>
        <p className="error" role="alert">
          Could not load the table: {errorMessage(query.error)}
        </p>
        {original}
      </>
    );
  }
  const failed = [save, confirm, unconfirm, extract].find((m) => m.isError)?.error;
  const canExtract = current.has_image && (current.data_table === null || (current.table_source === 'extracted' && !current.table_confirmed));

  const applyPaste = () => {
    const parsed = parsePastedTable(paste ?? '', draft?.title ?? current.title);
    if ('error' in parsed) setPasteError(parsed.error);
    else {
      setDraft(parsed);
      setPaste(null);
      setPasteError(null);
    }
  };

  return (
    <section aria-labelledby="table-editor-heading" className="table-editor" data-testid="table-editor">
      <h2 id="table-editor-heading">Table and image</h2>
      <p data-testid="table-state">
        {current.data_table === null ? 'No table yet.' : `Table ${current.table_source ? SOURCE_WORDS[current.table_source] : ''}; `}
        {current.data_table !== null && (current.table_confirmed ? <strong>confirmed</strong> : <strong>not confirmed</strong>)}
        {typeSource === 'extracted' && !current.table_confirmed && (
          <span data-testid="extracted-type-note">
            {' '}
            — the vision model read it as a {CHART_TYPE_LABELS[chartType].toLowerCase()} chart; confirming the table confirms that type too (change it above if it is wrong).
          </span>
        )}
      </p>
      <div className="chart-compare">
        {original ??
          (current.has_image ? (
            <ChartOriginal src={chartImageUrl({ id: chartId, has_image: true, chart_type: chartType })} alt="The original chart image" testId="table-editor-image" caption="Original" />
          ) : (
            <figure className="chart-figure">
              <p className="muted">No stored image: the chart is drawn from its table.</p>
            </figure>
          ))}
        <figure className="chart-figure">
          {drawn ? (
            <CounterfactualChart table={drawn} chartType={chartType} title={draft ? draft.title : current.title} style={withTableReading(null, drawn)} label="The chart drawn from the table" testId="table-drawn-chart" />
          ) : (
            <p className="muted" data-testid="table-drawn-none">{problem ? `Not drawn: ${problem}` : 'Nothing to draw yet.'}</p>
          )}
          <figcaption>Drawn from the table{draft ? ' as edited' : ''}</figcaption>
        </figure>
      </div>

      {canEdit && draft === null && (
        <div className="actions">
          {canExtract && (
            <button type="button" disabled={pending} onClick={() => extract.mutate(undefined)}>
              {extract.isPending ? 'Extracting…' : current.data_table === null ? 'Extract from image' : 'Extract again'}
            </button>
          )}
          <button type="button" disabled={pending} onClick={startEditing}>
            {current.data_table ? 'Edit table' : 'Type in a table'}
          </button>
          {current.data_table !== null && !current.table_confirmed && (
            <button type="button" className="primary" disabled={pending} onClick={() => confirm.mutate(undefined)}>
              {typeSource === 'extracted' ? 'Confirm table and type' : 'Confirm table'}
            </button>
          )}
          {current.data_table !== null && current.table_confirmed && (
            // Nothing is verified on an unconfirmed table: a confirmation found wrong can be taken back.
            <button type="button" disabled={pending} onClick={() => unconfirm.mutate(undefined)}>
              Set back to unconfirmed
            </button>
          )}
        </div>
      )}

      {canEdit && draft !== null && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (problem === null) save.mutate(draft, { onSuccess: () => setDraft(null) });
          }}
        >
          <label>
            Title <input value={draft.title ?? ''} onChange={(e) => setDraft({ ...draft, title: e.target.value === '' ? null : e.target.value })} />
          </label>
          <TableGrid draft={draft} onChange={setDraft} reading={current.data_table} />
          {paste === null ? (
            <button type="button" onClick={() => setPaste('')}>
              Paste CSV
            </button>
          ) : (
            <div className="paste-csv">
              <label>
                CSV or tab-separated, header line first
                <textarea rows={6} value={paste} onChange={(e) => setPaste(e.target.value)} />
              </label>
              <button type="button" onClick={applyPaste}>
                Use pasted table
              </button>
              {pasteError && <p className="error" role="alert">{pasteError}</p>}
            </div>
          )}
          {problem && <p className="error" data-testid="table-problem">{problem}</p>}
          <div className="actions">
            <button type="submit" className="primary" disabled={pending || problem !== null}>
              {save.isPending ? 'Saving…' : 'Save and confirm'}
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {failed !== undefined && failed !== null && (
        <p className="error" role="alert" data-testid="table-error">
          {errorMessage(failed)}
        </p>
      )}
    </section>
  );
}
