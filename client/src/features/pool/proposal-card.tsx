import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { ProposalTextSchema, type Proposal } from '@shared/api/pool';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { errorMessage } from '../../api/http';
import { Field } from '../../ui/field';
import { parseForm, serverFieldMessage, serverFieldOf } from '../../ui/form-errors';
import { useUpdateProposal } from '../../api/pool-api';
import { SCOPE_LABELS } from './pool-filters';

/** `#3 #4` as links to those proposals. */
function ProposalLinks({ ids }: { ids: number[] }) {
  return (
    <>
      {ids.map((id, index) => (
        <span key={id}>
          {index > 0 && ' '}
          <Link to={`/pool/${id}`}>#{id}</Link>
        </span>
      ))}
    </>
  );
}

/** Where a proposal came from and what came of it: parents, children, the proposal it duplicates. */
export function Lineage({ proposal }: { proposal: Proposal }) {
  const parts = [];
  if (proposal.duplicate_of !== null) {
    parts.push(
      <span key="dup" data-testid="duplicate-of">
        duplicate of <Link to={`/pool/${proposal.duplicate_of}`}>#{proposal.duplicate_of}</Link>
        {proposal.similarity !== null && ` (ROUGE-L ${proposal.similarity.toFixed(2)})`}
      </span>,
    );
  }
  if (proposal.parent_ids.length > 0) {
    parts.push(
      <span key="parents">
        parents <ProposalLinks ids={proposal.parent_ids} />
      </span>,
    );
  }
  if (proposal.child_ids.length > 0) {
    parts.push(
      <span key="children">
        children <ProposalLinks ids={proposal.child_ids} />
      </span>,
    );
  }
  if (parts.length === 0) return null;
  return (
    <p className="lineage small" data-testid="lineage">
      {parts.map((part, index) => (
        <span key={index}>
          {index > 0 && ' · '}
          {part}
        </span>
      ))}
    </p>
  );
}

/**
 * The operation its items are held to, as the verifier reads it: "scale · the largest row ·
 * ops scale, add, set". Proposals the rules cannot read say so: their items are not checked.
 */
export function OperationLine({ proposal }: { proposal: Proposal }) {
  const { kind, ops, scope, selectors, verb_object: verbObject } = proposal.operation;
  const label = kind === null ? 'operation not read by the rules (its items are not checked for consistency)' : [
    kind.replace(/_/g, ' '),
    scope === 'every_row' ? 'every row' : scope === 'new_row' ? 'a new row' : selectors.length ? `the ${selectors.map((s) => s.replace('_', ' ')).join(' and ')} row` : 'one row',
    `ops ${ops.join(', ')}`,
  ].join(' · ');
  return (
    <p className="small muted proposal-operation" data-testid="proposal-operation">
      Operation: {label}
      {verbObject && ` · ${verbObject.verb} / ${verbObject.noun}`}
    </p>
  );
}

/** In-place text edit: Enter saves, Esc cancels; a text too close to another proposal is refused on the field. */
function EditTextForm({ proposal, onDone }: { proposal: Proposal; onDone: () => void }) {
  const update = useUpdateProposal(proposal.id);
  const [text, setText] = useState(proposal.text);
  const [clientError, setClientError] = useState<string | undefined>();

  const save = () => {
    const parsed = parseForm(ProposalTextSchema, text, { '': 'The text' });
    if (!parsed.success) {
      setClientError(parsed.error.issues[0]?.message ?? 'invalid text');
      return;
    }
    setClientError(undefined);
    if (parsed.data === proposal.text) {
      onDone();
      return;
    }
    update.mutate({ text: parsed.data }, { onSuccess: onDone });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    }
  };
  const serverError = serverFieldOf(update.error) === 'text' ? serverFieldMessage(update.error) : undefined;

  return (
    <form className="proposal-edit" onSubmit={onSubmit} noValidate>
      <Field label={`Text of proposal #${proposal.id}`} hiddenLabel error={clientError ?? serverError}>
        {(control) => (
          <textarea {...control} name="text" rows={2} autoFocus value={text} onChange={(event) => setText(event.target.value)} onKeyDown={onKeyDown} />
        )}
      </Field>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <span className="muted small">Enter saves · Esc cancels</span>
        {update.isError && !serverError && (
          <span className="error" role="alert">
            {errorMessage(update.error)}
          </span>
        )}
      </div>
    </form>
  );
}

function StatusButton({ proposal }: { proposal: Proposal }) {
  const update = useUpdateProposal(proposal.id);
  const retire = proposal.status === 'active';
  return (
    <>
      <button type="button" onClick={() => update.mutate({ status: retire ? 'retired' : 'active' })} disabled={update.isPending}>
        {retire ? 'Retire' : 'Re-activate'}
      </button>
      {update.isError && (
        <span className="error small" role="alert">
          {errorMessage(update.error)}
        </span>
      )}
    </>
  );
}

/** One proposal: its text, tags, item counts and lineage; curators edit, retire and re-activate it. */
export function ProposalCard({ proposal, canEdit }: { proposal: Proposal; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <article className={`proposal status-${proposal.status}`} data-testid="proposal" data-proposal-id={proposal.id} aria-label={`Proposal #${proposal.id}`}>
      <header className="proposal-head">
        <Link to={`/pool/${proposal.id}`} className="proposal-id">
          #{proposal.id}
        </Link>
        <span className="type-badge">{CHART_TYPE_LABELS[proposal.chart_type]}</span>
        <span className={`source-tag origin-${proposal.origin}`}>{proposal.origin}</span>
        {proposal.scope === 'group' && (
          <span className="source-tag scope-group" title="For questions over a chart group: the assumption edits one chart of this type" data-testid="proposal-scope">
            {SCOPE_LABELS.group}
          </span>
        )}
        <span className={`status-tag proposal-status-${proposal.status}`} data-testid="proposal-status">
          {proposal.status}
        </span>
        <span className="muted small">round {proposal.round}</span>
        {proposal.run_id !== null && (
          <Link to={`/runs/${proposal.run_id}`} className="small">
            run #{proposal.run_id}
          </Link>
        )}
        <Link to={`/items?proposal=${proposal.id}`} className="small item-count" data-testid="item-count">
          {proposal.item_count} {proposal.item_count === 1 ? 'item' : 'items'}
          {proposal.accepted_count > 0 && `, ${proposal.accepted_count} accepted`}
        </Link>
      </header>
      {editing ? (
        <EditTextForm proposal={proposal} onDone={() => setEditing(false)} />
      ) : (
        <p className="proposal-text" data-testid="proposal-text">
          {proposal.text}
        </p>
      )}
      <OperationLine proposal={proposal} />
      <Lineage proposal={proposal} />
      {canEdit && !editing && (
        <div className="proposal-actions">
          <button type="button" onClick={() => setEditing(true)}>
            Edit text
          </button>
          <StatusButton proposal={proposal} />
        </div>
      )}
    </article>
  );
}
