import { Link } from 'react-router';
import type { Proposal } from '@shared/api/pool';
import type { Reflection } from '@shared/api/reflection';
import { EngineSchema } from '@shared/domain/generation';
import { errorMessage } from '../../api/http';
import { formatTime } from '../../ui/format';
import { engineLabel } from '../../views/run-progress';
import { useReflect, type ReflectResponse } from './reflection-api';

/** The reviser honestly named: the offline one is rules, not a model. */
function reviserLabel(reflection: Reflection): string {
  const engine = EngineSchema.safeParse(reflection.engine);
  return engine.success ? engineLabel(engine.data, reflection.model) : `${reflection.engine} · ${reflection.model}`;
}

/** What a reflection produced: the revision, a near-copy kept aside, or nothing. */
function Outcome({ reflection }: { reflection: Reflection }) {
  const revisedId = reflection.revised_proposal_id;
  if (revisedId === null) return <p className="error-text">No revision{reflection.error ? `: ${reflection.error}` : '.'}</p>;
  return (
    <p>
      {reflection.status === 'duplicate' ? 'Revision kept aside as a duplicate: ' : 'Revised as '}
      <Link to={`/pool/${revisedId}`} data-testid="reflection-revision">
        #{revisedId}
      </Link>
    </p>
  );
}

function ReflectionEntry({ reflection }: { reflection: Reflection }) {
  return (
    <li className={`reflection reflection-${reflection.status}`} data-testid="reflection" data-status={reflection.status}>
      <div className="reflection-head">
        <time dateTime={reflection.created_at}>{formatTime(reflection.created_at)}</time>
        <span className="source-tag" title={reflection.trigger === 'auto' ? 'after enough new decisions' : 'a curator asked'}>
          {reflection.trigger}
        </span>
        <span className={`engine-tag engine-${reflection.engine}`} data-testid="reflection-engine">
          {reviserLabel(reflection)}
        </span>
        <span className={`status-tag reflection-status-${reflection.status}`}>{reflection.status}</span>
      </div>
      <Outcome reflection={reflection} />
      {reflection.addressed && (
        <p className="small">
          <span className="muted">Addressed: </span>
          <span data-testid="reflection-addressed">{reflection.addressed}</span>
        </p>
      )}
      {reflection.feedback.length > 0 && (
        <details className="small">
          <summary>
            Answered {reflection.feedback.length} {reflection.feedback.length === 1 ? 'review' : 'reviews'}
          </summary>
          <ul className="reflection-feedback">
            {reflection.feedback.map((entry, index) => (
              <li key={`${entry.item_id}-${index}`}>
                <Link to={`/items/${entry.item_id}`}>#{entry.item_id}</Link> {entry.decision}
                {entry.failed.length > 0 && ` · failed ${entry.failed.join(', ')}`}
                {entry.comment && ` · “${entry.comment}”`}
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

/** The outcome of the last "Reflect": the revision in the pool, a near-copy kept aside, or none. */
function ReflectResult({ result }: { result: ReflectResponse }) {
  const { revised, reflection } = result;
  if (revised === null) {
    return (
      <p className="notice notice-warning" role="status" data-testid="reflect-result">
        The reviser gave no revision{reflection.error ? `: ${reflection.error}` : '.'}
      </p>
    );
  }
  if (revised.status === 'duplicate') {
    return (
      <p className="notice notice-warning" role="status" data-testid="reflect-result">
        The revision <Link to={`/pool/${revised.id}`}>#{revised.id}</Link> is a near-copy
        {revised.duplicate_of !== null && (
          <>
            {' '}
            of <Link to={`/pool/${revised.duplicate_of}`}>#{revised.duplicate_of}</Link>
          </>
        )}
        : kept aside, not active.
      </p>
    );
  }
  return (
    <p className="notice" role="status" data-testid="reflect-result">
      Revised as{' '}
      <Link to={`/pool/${revised.id}`} data-testid="reflect-revised-link">
        #{revised.id}
      </Link>{' '}
      (round {revised.round}): <q>{revised.text}</q>
    </p>
  );
}

/** A curator's Reflect button and what the last press gave: the new revision or the server's reason. */
function ReflectControl({ proposal }: { proposal: Proposal }) {
  const reflect = useReflect(proposal.id);
  return (
    <div className="reflect-control">
      <button type="button" className="primary" onClick={() => reflect.mutate()} disabled={reflect.isPending} data-testid="reflect-button">
        {reflect.isPending ? 'Reflecting…' : 'Reflect'}
      </button>
      <span className="muted small">Revise this proposal now from its items’ feedback; the revision enters the pool one round later.</span>
      {reflect.isError && (
        <p className="error" role="alert" data-testid="reflect-error">
          {errorMessage(reflect.error)}
        </p>
      )}
      {reflect.data && <ReflectResult result={reflect.data} />}
    </div>
  );
}

/** The proposal's reflections, newest first, and for curators the button that asks for one. */
export function ProposalReflections({ proposal, reflections, canReflect }: { proposal: Proposal; reflections: Reflection[]; canReflect: boolean }) {
  return (
    <>
      {canReflect && <ReflectControl proposal={proposal} />}
      {reflections.length === 0 ? (
        <p className="empty">Not reflected on yet.</p>
      ) : (
        <ul className="reflection-list" data-testid="reflections">
          {reflections.map((reflection) => (
            <ReflectionEntry key={reflection.id} reflection={reflection} />
          ))}
        </ul>
      )}
    </>
  );
}
