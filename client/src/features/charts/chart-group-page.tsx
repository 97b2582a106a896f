import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AddGroupQuestionRequestSchema, UpdateChartGroupRequestSchema, type ChartGroupDetailResponse, type GroupChart } from '@shared/api/chart-groups';
import { roleAtLeast } from '@shared/domain/roles';
import { chartImageUrl } from '../../api/charts-api';
import { errorMessage } from '../../api/http';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { DrawnChartNote } from '../../ui/drawn-chart-note';
import { Field } from '../../ui/field';
import { parseId } from '../../ui/parse-id';
import { BackLink, RecordPage } from '../../ui/record-page';
import { useFieldErrors } from '../../ui/use-field-errors';
import { DataTableView } from '../../views/data-table-view';
import { useAddGroupQuestion, useChartGroup, useDeleteChartGroup, useUpdateChartGroup } from './chart-groups-api';
import { TABLE_KEYS, TableEditorSection } from './table-editor/table-editor-section';

const SHORTCUTS = [{ keys: ['Esc'], action: 'back to the groups' }];
const ORDINALS = ['first', 'second', 'third', 'fourth'];
const CONFIRM_SHORTCUTS = [
  { keys: ['j', '→'], action: 'next chart' },
  { keys: ['k', '←'], action: 'previous chart' },
  { keys: [TABLE_KEYS.confirm], action: 'confirm its table' },
  { keys: [TABLE_KEYS.edit], action: 'edit its table' },
];

/**
 * A group's tables confirmed in one place: one chart at a time, its original beside the drawing
 * of its table (the table editor, with its confirm, edit and set-back), stepped through by keyboard.
 * Items over the group are verified only once every chart's table is confirmed.
 */
function GroupConfirm({ charts }: { charts: GroupChart[] }) {
  const [chosen, setChosen] = useState(() => Math.max(0, charts.findIndex((chart) => chart.data_table !== null && !chart.table_confirmed)));
  const index = Math.min(chosen, charts.length - 1);
  const chart = charts[index];
  const go = (next: number) => setChosen(Math.min(Math.max(next, 0), charts.length - 1));
  useHotkeys({ j: () => go(index + 1), ArrowRight: () => go(index + 1), k: () => go(index - 1), ArrowLeft: () => go(index - 1) });
  if (!chart) return null;
  const confirmed = charts.filter((c) => c.data_table !== null && c.table_confirmed).length;
  const name = chart.title ?? chart.imgname;
  return (
    <section className="panel group-confirm" aria-labelledby="group-confirm-heading" data-testid="group-confirm">
      <h2 id="group-confirm-heading">Confirm the charts’ tables</h2>
      <ShortcutHint shortcuts={CONFIRM_SHORTCUTS} />
      <div className="group-confirm-bar">
        <button type="button" onClick={() => go(index - 1)} disabled={index === 0}>
          Previous chart
        </button>
        <span data-testid="group-confirm-position">
          Chart {chart.position} of {charts.length}: <Link to={`/charts/${chart.chart_id}`}>{name}</Link>
        </span>
        <button type="button" onClick={() => go(index + 1)} disabled={index === charts.length - 1}>
          Next chart
        </button>
        <span className="muted" data-testid="group-confirm-count">
          {confirmed} of {charts.length} tables confirmed
        </span>
      </div>
      <TableEditorSection key={chart.chart_id} chartId={chart.chart_id} chartType={chart.chart_type} canEdit keys />
    </section>
  );
}

/** One chart of the group, in its place: its image (or the drawing of its table), and its table or how to get one. */
function GroupChartCard({ chart }: { chart: GroupChart }) {
  const name = chart.title ?? chart.imgname;
  return (
    <article className="panel group-chart" data-testid="group-chart" aria-label={`Chart ${chart.position}: ${name}`}>
      <h3>
        {chart.position}. <Link to={`/charts/${chart.chart_id}`}>{name}</Link>{' '}
        <span className="muted small">(the {ORDINALS[chart.position - 1]} chart)</span>
      </h3>
      {chart.has_image || chart.data_table ? (
        <figure className="chart-figure">
          <img src={chartImageUrl({ id: chart.chart_id, has_image: chart.has_image, chart_type: chart.chart_type })} alt={`Chart: ${name}`} />
          {!chart.has_image && (
            <figcaption>
              <DrawnChartNote />
            </figcaption>
          )}
        </figure>
      ) : (
        <p className="muted">No image and no table.</p>
      )}
      {chart.data_table ? (
        <>
          <DataTableView table={chart.data_table} />
          {!chart.table_confirmed && <p className="muted small">Table not confirmed: confirm it (above, or on the chart's page) to verify items over the group.</p>}
        </>
      ) : (
        <p className="muted" data-testid="group-chart-no-table">
          No table yet: <Link to={`/charts/${chart.chart_id}`}>extract it or type it in</Link>, then confirm it.
        </p>
      )}
    </article>
  );
}

function AddQuestionForm({ groupId, charts }: { groupId: number; charts: number }) {
  const add = useAddGroupQuestion(groupId);
  const [query, setQuery] = useState('');
  const [label, setLabel] = useState('');
  const { validate, errorFor, serverField } = useFieldErrors(add.error);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = validate(AddGroupQuestionRequestSchema, { query, label });
    if (!body) return;
    add.mutate(body, {
      onSuccess: () => {
        setQuery('');
        setLabel('');
      },
    });
  };
  return (
    <form className="panel" onSubmit={onSubmit} noValidate aria-labelledby="add-group-question-heading" data-testid="add-group-question">
      <h2 id="add-group-question-heading">Add a question over the group</h2>
      <p className="muted small">
        Name the charts by their place (“the first chart” … “the {ORDINALS[charts - 1]} chart”). The answer is stored as typed; a number is compared as a number.
      </p>
      <div className="form-row">
        <Field label="Question" className="grow" error={errorFor('query')}>
          {(control) => <input {...control} name="query" value={query} onChange={(event) => setQuery(event.target.value)} />}
        </Field>
        <Field label="Answer" error={errorFor('label')}>
          {(control) => <input {...control} name="label" value={label} onChange={(event) => setLabel(event.target.value)} />}
        </Field>
        <button type="submit" className="primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add question'}
        </button>
      </div>
      {add.isError && !serverField && (
        <p className="error" role="alert">
          {errorMessage(add.error)}
        </p>
      )}
    </form>
  );
}

function RenameForm({ groupId, name }: { groupId: number; name: string }) {
  const update = useUpdateChartGroup(groupId);
  const [draft, setDraft] = useState(name);
  const { validate, errorFor, serverField } = useFieldErrors(update.error);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = validate(UpdateChartGroupRequestSchema, { name: draft });
    if (body) update.mutate(body);
  };
  return (
    <form className="form-row" onSubmit={onSubmit} noValidate aria-label="Rename the group">
      <Field label="Name" inline error={errorFor('name')}>
        {(control) => <input {...control} name="name" value={draft} onChange={(event) => setDraft(event.target.value)} />}
      </Field>
      <button type="submit" disabled={update.isPending || draft.trim() === name}>
        Rename
      </button>
      {update.isError && !serverField && (
        <span className="error" role="alert">
          {errorMessage(update.error)}
        </span>
      )}
    </form>
  );
}

function DeleteGroup({ groupId, blockedBy }: { groupId: number; blockedBy: number }) {
  const remove = useDeleteChartGroup(groupId);
  const navigate = useNavigate();
  return (
    <div className="form-row">
      <button
        type="button"
        className="danger"
        disabled={remove.isPending}
        onClick={() => {
          if (window.confirm('Delete this group and its questions?')) remove.mutate(undefined, { onSuccess: () => void navigate('/charts/groups') });
        }}
      >
        Delete group
      </button>
      {blockedBy > 0 && <span className="muted small">{blockedBy} item(s) are written over its questions: the server will refuse.</span>}
      {remove.isError && (
        <span className="error" role="alert">
          {errorMessage(remove.error)}
        </span>
      )}
    </div>
  );
}

function GroupView({ detail, back }: { detail: ChartGroupDetailResponse; back: ReactNode }) {
  const curator = roleAtLeast(useCurrentUser().role, 'curator');
  const { group, charts, questions } = detail;
  return (
    <section className="page chart-group-page">
      <title>{`${group.name} · Chart groups · Chart-HQA`}</title>
      <header className="page-header">
        <div>
          {back}
          <h1>{group.name}</h1>
          <p className="muted">
            {charts.length} charts of split {group.split}, {group.source === 'curator' ? 'grouped by a curator' : 'a MultiChartQA group (its charts and order are the benchmark’s)'} ·{' '}
            {group.item_count} item(s)
          </p>
        </div>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      {curator && <RenameForm key={group.name} groupId={group.id} name={group.name} />}
      {curator && charts.length > 0 && <GroupConfirm charts={charts} />}

      <div className="group-charts" data-testid="group-charts" style={{ display: 'grid', gap: '1rem', gridTemplateColumns: `repeat(${Math.min(charts.length, 2)}, minmax(0, 1fr))` }}>
        {charts.map((chart) => (
          <GroupChartCard key={chart.chart_id} chart={chart} />
        ))}
      </div>

      <section aria-labelledby="group-questions-heading">
        <h2 id="group-questions-heading">Questions over the group ({questions.length})</h2>
        {questions.length === 0 ? (
          <p className="empty">No questions yet.</p>
        ) : (
          <table className="data-grid" data-testid="group-questions">
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">Answer</th>
                <th scope="col">Kind</th>
                <th scope="col" className="num">
                  Items
                </th>
              </tr>
            </thead>
            <tbody>
              {questions.map((question) => (
                <tr key={question.id}>
                  <td>{question.query}</td>
                  <td className="mono">{question.label}</td>
                  <td>{question.answer_kind}</td>
                  <td className="num">{question.item_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {curator && <AddQuestionForm groupId={group.id} charts={charts.length} />}
      {curator && group.source === 'curator' && <DeleteGroup groupId={group.id} blockedBy={group.item_count} />}
    </section>
  );
}

export function ChartGroupPage() {
  const id = parseId(useParams().id);
  const navigate = useNavigate();
  const group = useChartGroup(id);
  useHotkeys({ Escape: () => void navigate('/charts/groups') });
  const back = <BackLink to="/charts/groups">Chart groups</BackLink>;
  return (
    <RecordPage noun="chart group" id={id} query={group} back={back} loading="Loading group…">
      {(detail) => <GroupView detail={detail} back={back} />}
    </RecordPage>
  );
}
