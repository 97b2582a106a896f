import { useEffect, useRef, useState } from 'react';
import type { ReviewQueue } from '@shared/api/assignment';
import { ActionError, LoadError } from '../../ui/error-messages';
import { useCreateQueue, useDeleteQueue, useQueueMember, useQueues, useRenameQueue } from './assignment-api';

const itemCount = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'}`;

/** Renaming a queue in place: Enter saves, Escape goes back; a name another queue has is refused by the server (409). */
function RenameQueueForm({ queue, onDone }: { queue: ReviewQueue; onDone: () => void }) {
  const rename = useRenameQueue();
  const [name, setName] = useState(queue.name);
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        const next = name.trim();
        if (next === queue.name) onDone();
        else if (next) rename.mutate({ queueId: queue.id, name: next }, { onSuccess: onDone });
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onDone();
        }
      }}
    >
      <input aria-label={`New name of ${queue.name}`} value={name} maxLength={60} autoFocus onChange={(event) => setName(event.target.value)} />{' '}
      <button type="submit" disabled={!name.trim() || rename.isPending}>
        Save name
      </button>{' '}
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      {rename.error && <ActionError error={rename.error} />}
    </form>
  );
}

/** Asks before deleting a queue, saying how many items lose their assignment; Enter confirms (the button has focus), Escape goes back. */
function DeleteQueueDialog({ queue, onCancel, onDeleted }: { queue: ReviewQueue; onCancel: () => void; onDeleted: (message: string) => void }) {
  const remove = useDeleteQueue();
  const textId = `delete-queue-text-${queue.id}`;
  return (
    <div
      role="alertdialog"
      aria-label={`Confirm delete ${queue.name}`}
      aria-describedby={textId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <span id={textId}>
        <strong>Delete queue {queue.name}?</strong>{' '}
        {queue.items === 0
          ? 'No items are assigned to it.'
          : `${itemCount(queue.items)} lose their assignment and go back to the general queue.`}{' '}
        Items and their reviews are kept.
      </span>{' '}
      <button
        type="button"
        className="primary"
        autoFocus
        disabled={remove.isPending}
        onClick={() =>
          remove.mutate(queue.id, { onSuccess: ({ unassigned }) => onDeleted(`Queue ${queue.name} deleted; ${itemCount(unassigned)} unassigned.`) })
        }
      >
        Confirm delete
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      {remove.error && <ActionError error={remove.error} />}
    </div>
  );
}

/** One queue's members, each removable, a picker to add a reviewer, and rename and delete. */
function QueueRow({ queue, reviewers, onDeleted }: { queue: ReviewQueue; reviewers: { id: number; username: string }[]; onDeleted: (message: string) => void }) {
  const member = useQueueMember();
  const [adding, setAdding] = useState('');
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  // Back from renaming or the delete dialog, focus returns to the button that opened it (keyboard users keep their place).
  const returnTo = useRef<'rename' | 'delete' | null>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (mode !== 'view' || returnTo.current === null) return;
    (returnTo.current === 'rename' ? renameButton : deleteButton).current?.focus();
    returnTo.current = null;
  }, [mode]);
  const back = (from: 'rename' | 'delete') => {
    returnTo.current = from;
    setMode('view');
  };
  const candidates = reviewers.filter((person) => !queue.members.some((m) => m.id === person.id));
  if (mode === 'delete') {
    return (
      <li data-testid="review-queue" data-queue-name={queue.name}>
        <DeleteQueueDialog queue={queue} onCancel={() => back('delete')} onDeleted={onDeleted} />
      </li>
    );
  }
  return (
    <li data-testid="review-queue" data-queue-name={queue.name}>
      {mode === 'rename' ? <RenameQueueForm queue={queue} onDone={() => back('rename')} /> : <strong>{queue.name}</strong>}{' '}
      <span className="muted small">{queue.items} assigned items</span>{' '}
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
      {mode === 'view' && (
        <>
          {' '}
          <button ref={renameButton} type="button" className="link-button" aria-label={`Rename ${queue.name}`} onClick={() => setMode('rename')}>
            Rename
          </button>{' '}
          <button ref={deleteButton} type="button" className="link-button" aria-label={`Delete ${queue.name}…`} onClick={() => setMode('delete')}>
            Delete…
          </button>
        </>
      )}
      {member.error && <ActionError error={member.error} />}
    </li>
  );
}

/**
 * Named review queues (curators): create, rename or delete one, add or remove reviewers. Items assigned to a
 * queue are served to its members before the general queue, and to nobody else.
 */
export function QueuesPanel() {
  const [open, setOpen] = useState(false);
  const queues = useQueues(open);
  const create = useCreateQueue();
  const [name, setName] = useState('');
  const [deleted, setDeleted] = useState<string | null>(null);
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
                <QueueRow key={queue.id} queue={queue} reviewers={queues.data.reviewers} onDeleted={setDeleted} />
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
          {deleted && (
            <p className="ok small" role="status">
              {deleted}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
