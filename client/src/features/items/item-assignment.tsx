import { useState } from 'react';
import type { Assignee, ItemAssignmentDetail } from '@shared/api/assignment';
import { ActionError, LoadError } from '../../ui/error-messages';
import { formatTime } from '../../ui/format';
import { useBulkAction, useItemAssignment, useQueues } from './assignment-api';

/** The picker's value, `reviewer:<id>` or `queue:<id>`, as the assign endpoint takes it. */
function parseChoice(value: string): Assignee | null {
  const [kind, raw] = value.split(':');
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return kind === 'reviewer' ? { reviewer_id: id } : kind === 'queue' ? { queue_id: id } : null;
}

function AssignmentText({ assignment }: { assignment: ItemAssignmentDetail | null }) {
  if (assignment === null) return <>Not assigned: any reviewer may claim it from the general queue.</>;
  return (
    <>
      Assigned to {assignment.reviewer ? <>reviewer <strong>{assignment.reviewer.username}</strong></> : <>queue <strong>{assignment.queue?.name}</strong></>}
      {assignment.assigned_by !== null && <> by {assignment.assigned_by}</>},{' '}
      <time dateTime={assignment.assigned_at}>{formatTime(assignment.assigned_at)}</time>
    </>
  );
}

/**
 * The Item page's assignment (curators only: the page never renders it for a reviewer, and the
 * endpoint refuses them, so blind review holds): to whom and by whom, and a picker to assign the
 * item to a reviewer or a queue, or unassign it — the bulk bar's endpoints on this one item.
 */
export function ItemAssignmentPanel({ itemId }: { itemId: number }) {
  const assignment = useItemAssignment(itemId, true);
  const queues = useQueues();
  const bulk = useBulkAction();
  const [choice, setChoice] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const to = parseChoice(choice);
  const current = assignment.data?.assignment ?? null;
  const target = { item_ids: [itemId] };
  const done = (message: string) => {
    setResult(message);
    setChoice('');
  };
  return (
    <section aria-labelledby="assignment-heading" className="item-assignment" data-testid="item-assignment">
      <h2 id="assignment-heading">Assignment</h2>
      {assignment.isError && <LoadError what="the assignment" error={assignment.error} />}
      {assignment.data && (
        <p data-testid="item-assignment-text">
          <AssignmentText assignment={current} />
        </p>
      )}
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (to) bulk.mutate({ target, action: { kind: 'assign', to } }, { onSuccess: () => done('Assigned.') });
        }}
      >
        <select aria-label="Assign this item to" name="assign-to" value={choice} onChange={(event) => setChoice(event.target.value)}>
          <option value="">assign to…</option>
          <optgroup label="Reviewers">
            {queues.data?.reviewers.map((person) => (
              <option key={person.id} value={`reviewer:${person.id}`}>
                {person.username}
              </option>
            ))}
          </optgroup>
          <optgroup label="Named queues">
            {queues.data?.queues.map((queue) => (
              <option key={queue.id} value={`queue:${queue.id}`}>
                queue: {queue.name}
              </option>
            ))}
          </optgroup>
        </select>{' '}
        <button type="submit" disabled={to === null || bulk.isPending}>
          Assign
        </button>{' '}
        {current !== null && (
          <button type="button" disabled={bulk.isPending} onClick={() => bulk.mutate({ target, action: { kind: 'unassign' } }, { onSuccess: () => done('Unassigned.') })}>
            Unassign
          </button>
        )}{' '}
        {result && !bulk.isPending && (
          <span className="ok small" role="status">
            {result}
          </span>
        )}
      </form>
      {bulk.error && <ActionError error={bulk.error} />}
      {queues.isError && <LoadError what="the reviewers and queues" error={queues.error} />}
    </section>
  );
}
