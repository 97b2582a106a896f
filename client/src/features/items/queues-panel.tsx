import { useState } from 'react';
import type { ReviewQueue } from '@shared/api/assignment';
import { ActionError, LoadError } from '../../ui/error-messages';
import { useCreateQueue, useQueueMember, useQueues } from './assignment-api';

/** One queue's members, each removable, and a picker to add a reviewer. */
function QueueRow({ queue, reviewers }: { queue: ReviewQueue; reviewers: { id: number; username: string }[] }) {
  const member = useQueueMember();
  const [adding, setAdding] = useState('');
  const candidates = reviewers.filter((person) => !queue.members.some((m) => m.id === person.id));
  return (
    <li data-testid="review-queue" data-queue-name={queue.name}>
      <strong>{queue.name}</strong> <span className="muted small">{queue.items} assigned items</span>{' '}
      {queue.members.length === 0 && <span className="muted small">no reviewers yet</span>}
      {queue.members.map((person) => (
        <span key={person.id} className="scope-chip">
          {person.username}{' '}
          <button
            type="button"
            className="link-button"
            aria-label={`Remove ${person.username} from ${queue.name}`}
            disabled={member.isPending}
            onClick={() => member.mutate({ queueId: queue.id, userId: person.id, add: false })}
          >
            ×
          </button>
        </span>
      ))}{' '}
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          const userId = Number(adding);
          if (Number.isSafeInteger(userId) && userId > 0) member.mutate({ queueId: queue.id, userId, add: true }, { onSuccess: () => setAdding('') });
        }}
      >
        <select aria-label={`Reviewer to add to ${queue.name}`} value={adding} onChange={(event) => setAdding(event.target.value)}>
          <option value="">add a reviewer…</option>
          {candidates.map((person) => (
            <option key={person.id} value={person.id}>
              {person.username}
            </option>
          ))}
        </select>{' '}
        <button type="submit" disabled={adding === '' || member.isPending}>
          Add
        </button>
      </form>
      {member.error && <ActionError error={member.error} />}
    </li>
  );
}

/**
 * Named review queues (curators): create one, add or remove reviewers. Items assigned to a
 * queue are served to its members before the general queue, and to nobody else.
 */
export function QueuesPanel() {
  const [open, setOpen] = useState(false);
  const queues = useQueues(open);
  const create = useCreateQueue();
  const [name, setName] = useState('');
  return (
    <section className="queues-panel" aria-label="Review queues">
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide review queues' : 'Review queues…'}
      </button>
      {open && (
        <div>
          {queues.isError && <LoadError what="the queues" error={queues.error} />}
          {queues.data && (
            <ul className="plain-list">
              {queues.data.queues.length === 0 && <li className="muted">No named queues yet.</li>}
              {queues.data.queues.map((queue) => (
                <QueueRow key={queue.id} queue={queue} reviewers={queues.data.reviewers} />
              ))}
            </ul>
          )}
          <form
            className="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (name.trim()) create.mutate(name.trim(), { onSuccess: () => setName('') });
            }}
          >
            <label>
              New queue{' '}
              <input value={name} maxLength={60} onChange={(event) => setName(event.target.value)} placeholder="name" />
            </label>{' '}
            <button type="submit" disabled={!name.trim() || create.isPending}>
              Create queue
            </button>
          </form>
          {create.error && <ActionError error={create.error} />}
        </div>
      )}
    </section>
  );
}
