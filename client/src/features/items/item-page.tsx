import { useMemo } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { ItemGroup } from '@shared/api/item-group';
import type { ItemDetail } from '@shared/api/items';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { roleAtLeast } from '@shared/domain/roles';
import { formatTime } from '../../ui/format';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { LoadError } from '../../ui/error-messages';
import { BackLink, RecordNotFound, isNotFound } from '../../ui/record-page';
import { ColourWarning } from '../../views/colour-warning';
import { BiasFlags, ItemStatusTag, OriginTag } from '../../views/item-tags';
import { useItem } from '../../api/items-api';
import { parseId } from '../../ui/parse-id';
import { RequeueNotice } from '../../views/requeue-notice';
import { ReviewHistory } from './review-history';
import { GoldToggle } from './gold-toggle';
import { ValidityNotices } from '../../views/validity-flags';
import { VerifierView } from '../../views/verifier-view';
import { ItemChartsPanel } from '../../views/item-charts-panel';
import { editedChartName, groupChartName, groupCounterfactualOf, itemGroupOf } from '../../views/item-group-charts';
import { ItemThread } from '../../views/item-thread';
import { ItemEdits } from './item-edits';
import { ItemAssignmentPanel } from './item-assignment';

const SHORTCUTS = [{ keys: ['Esc'], action: 'back to the list' }];

function backPathFrom(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'listSearch' in state && typeof state.listSearch === 'string') {
    return `/items${state.listSearch}`;
  }
  return '/items';
}

/** An edit as people read JSON: indented; "no edit" when the item assumes it in words only. */
export function EditView({ edit }: { edit: unknown }) {
  if (edit === null || edit === undefined) return <p className="muted">No edit: the assumption is not written as table operations.</p>;
  return (
    <pre className="code-block" data-testid="item-edit">
      {JSON.stringify(edit, null, 2)}
    </pre>
  );
}

/** A group item's charts, in order, each a link to its chart page. */
function GroupChartLinks({ group }: { group: ItemGroup }) {
  return (
    <ol className="group-chart-links" data-testid="item-group-links">
      {group.charts.map((chart) => (
        <li key={chart.position}>
          <Link to={`/charts/${chart.id}`}>{groupChartName(chart)}</Link> <span className="muted">{CHART_TYPE_LABELS[chart.chart_type]}</span>
          {chart.position === group.edited_chart && <span className="muted small"> (edited by the assumption)</span>}
        </li>
      ))}
    </ol>
  );
}

export function ItemBody({ item, group = null }: { item: ItemDetail; group?: ItemGroup | null }) {
  const editedName = useMemo(() => (group ? editedChartName(group, groupCounterfactualOf(group, item.edit)) : null), [group, item.edit]);
  return (
    <>
      <RequeueNotice reason={item.requeue_reason} />
      <ValidityNotices item={item} />
      <div className="item-overview">
        <dl className="meta">
          <dt>{group ? 'Charts' : 'Chart'}</dt>
          <dd>
            {group ? (
              <GroupChartLinks group={group} />
            ) : (
              <>
                <Link to={`/charts/${item.chart_id}`} className="mono">
                  {item.imgname}
                </Link>{' '}
                <span className="muted">{CHART_TYPE_LABELS[item.chart_type]}</span>
              </>
            )}
          </dd>
          <dt>Factual question</dt>
          <dd data-testid="factual-question">
            {item.factual_query}
            <ColourWarning colours={item.unverifiable_colours} />
          </dd>
          <dt>Factual label</dt>
          <dd className="mono">{item.factual_label}</dd>
          <dt>Proposal</dt>
          <dd>
            {item.proposal_id === null ? (
              <span className="muted">none</span>
            ) : (
              <>
                <Link to={`/pool/${item.proposal_id}`}>#{item.proposal_id}</Link> {item.proposal_text}
              </>
            )}
          </dd>
          <dt>Origin</dt>
          <dd>
            <OriginTag item={item} />
          </dd>
          <dt>Run</dt>
          <dd>{item.run_id === null ? <span className="muted">none</span> : <Link to={`/runs/${item.run_id}`}>#{item.run_id}</Link>}</dd>
          <dt>Status</dt>
          <dd>
            <ItemStatusTag status={item.status} />
            {item.final_answer !== null && <span className="small"> final answer: <span className="mono">{item.final_answer}</span></span>}
          </dd>
          <dt>Bias flags</dt>
          <dd>
            <BiasFlags flags={item.bias_flags} />
          </dd>
          <dt>Created</dt>
          <dd>
            <time dateTime={item.created_at}>{formatTime(item.created_at)}</time>
          </dd>
        </dl>
        <dl className="meta item-text">
          <dt>Assumption</dt>
          <dd data-testid="item-assumption">{item.assumption}</dd>
          <dt>Question</dt>
          <dd data-testid="item-question">{item.question}</dd>
          <dt>Answer</dt>
          <dd>
            <span className="mono" data-testid="item-answer">
              {item.answer}
            </span>{' '}
            <span className="muted small">({item.answer_type})</span>
          </dd>
          <dt>Changes the answer?</dt>
          <dd>{item.affects_answer ? 'yes, the assumption changes the factual answer' : 'no, the factual answer stays'}</dd>
          <dt>Rationale</dt>
          <dd className="prewrap">{item.rationale}</dd>
        </dl>
      </div>
      <div className="item-machine">
        <section aria-labelledby="edit-heading">
          <h2 id="edit-heading">Edit{editedName && ` · ${editedName}`}</h2>
          <EditView edit={item.edit} />
        </section>
        <section aria-labelledby="program-heading">
          <h2 id="program-heading">Program</h2>
          <pre className="code-block" data-testid="item-program">
            {item.program}
          </pre>
        </section>
      </div>
      <section aria-labelledby="verifier-heading">
        <h2 id="verifier-heading">Verifier</h2>
        <VerifierView result={item.verifier} answer={item.answer} hasEdit={item.edit !== null} editedChart={editedName} />
      </section>
    </>
  );
}

export function ItemPage() {
  const id = parseId(useParams().id);
  const isCurator = roleAtLeast(useCurrentUser().role, 'curator');
  const location = useLocation();
  const navigate = useNavigate();
  const backPath = backPathFrom(location.state);
  const item = useItem(id);
  useHotkeys({ Escape: () => void navigate(backPath) });

  const back = <BackLink to={backPath}>Items</BackLink>;
  if (id === null || isNotFound(item.error)) return <RecordNotFound noun="item" back={back} />;
  return (
    <section className="page item-page">
      <title>{`Item #${id} · Chart-HQA`}</title>
      <header className="page-header">
        <div>
          {back}
          <h1>Item #{id}</h1>
        </div>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      {item.isPending && <p className="muted">Loading item…</p>}
      {item.isError && <LoadError what="the item" error={item.error} />}
      {item.data && <ItemChartsPanel item={item.data.item} group={itemGroupOf(item.data.item, item.data)} />}
      {item.data && isCurator && <GoldToggle itemId={item.data.item.id} status={item.data.item.status} />}
      {/* Curators only: a reviewer must not learn who else is assigned (blind review). */}
      {item.data && isCurator && <ItemAssignmentPanel itemId={item.data.item.id} />}
      {item.data && <ItemBody item={item.data.item} group={itemGroupOf(item.data.item, item.data)} />}
      {item.data && <ItemEdits item={item.data.item} canEdit={isCurator} />}
      {item.data && <ItemThread itemId={item.data.item.id} />}
      {item.data && isCurator && (
        <section aria-labelledby="history-heading">
          <h2 id="history-heading">Reviews</h2>
          <ReviewHistory itemId={item.data.item.id} />
        </section>
      )}
    </section>
  );
}
