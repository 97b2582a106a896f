import { useEffect, useRef, useState } from 'react';
import type { Assignee, BulkTarget } from '@shared/api/assignment';
import type { ItemFilter } from '@shared/api/items';
import { useRequeue, useRequeueFilter } from '../../api/items-api';
import { ActionError } from '../../ui/error-messages';
import { useBulkAction, useQueues, type BulkAction } from './assignment-api';

type BulkActionsProps = {
  /** Items checked on this page (or pages before it). */
  checked: ReadonlySet<number>;
  /** The list's filter and how many items it matches, for "All 1,234 matching"; null without a filter. */
  filter: { filter: ItemFilter; total: number } | null;
  onDone: () => void;
};

type ActionKind = 'requeue' | 'assign' | 'unassign' | 'gold' | 'retire' | 'unretire';

const count = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'}`;

const ACTIONS: readonly { kind: ActionKind; verb: string; note: string }[] = [
  { kind: 'assign', verb: 'Assign', note: 'Assigned items are served to that reviewer (or the queue’s members) first, and to nobody else until the reviewer has reviewed them.' },
  { kind: 'unassign', verb: 'Unassign', note: 'They go back to the general queue.' },
  { kind: 'requeue', verb: 'Re-queue', note: 'Their reviews are kept but retracted.' },
  { kind: 'gold', verb: 'Mark gold', note: 'Only accepted items become gold, with their accepted review’s verdicts; the others are skipped.' },
  { kind: 'retire', verb: 'Retire', note: 'They leave review (leases are dropped); reviews, answers and gold marks are kept. Restore brings them back.' },
  { kind: 'unretire', verb: 'Restore', note: 'Retired items come back into review.' },
];

/** The reviewer or queue picked in the assign dialog, as `reviewer:<id>` or `queue:<id>`. */
function parseAssignee(value: string): Assignee | null {
  const [kind, raw] = value.split(':');
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return kind === 'reviewer' ? { reviewer_id: id } : kind === 'queue' ? { queue_id: id } : null;
}

function AssigneePicker({ value, onChange, selectRef }: { value: string; onChange: (value: string) => void; selectRef: React.RefObject<HTMLSelectElement | null> }) {
  const queues = useQueues();
  return (
    <label>
      to{' '}
      <select ref={selectRef} name="assignee" aria-label="Assign to" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">choose…</option>
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
              queue: {queue.name} ({queue.members.length} {queue.members.length === 1 ? 'reviewer' : 'reviewers'})
            </option>
          ))}
        </optgroup>
      </select>
    </label>
  );
}

/**
 * Curators' bulk actions — assign, unassign, re-queue, mark gold, retire, restore — on the
 * checked items or on every item the filter matches, each after a confirmation that states the
 * count. A filter is resolved to its items when the action runs (items that match it later are
 * not touched). Enter confirms (the confirm button has focus; in the assign dialog the picker
 * has it first, Tab reaches the button), Escape goes back.
 */
export function BulkActions({ checked, filter, onDone }: BulkActionsProps) {
  const requeueChecked = useRequeue();
  const requeueFilter = useRequeueFilter();
  const bulk = useBulkAction();
  const [confirming, setConfirming] = useState<{ kind: ActionKind; scope: 'checked' | 'filter' } | null>(null);
  const [assignee, setAssignee] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const assigneeSelect = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (confirming?.kind === 'assign') assigneeSelect.current?.focus();
    else if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  const selected = checked.size;
  const target = confirming?.scope === 'checked' ? selected : (filter?.total ?? 0);
  const pending = requeueChecked.isPending || requeueFilter.isPending || bulk.isPending;
  const error = requeueChecked.error ?? requeueFilter.error ?? bulk.error;
  if (selected === 0 && filter === null && !result && !error) return null;

  const finish = (message: string) => {
    setResult(message);
    setConfirming(null);
    onDone();
  };
  const confirm = () => {
    if (!confirming) return;
    const scope = confirming.scope;
    if (confirming.kind === 'requeue') {
      const done = ({ requeued }: { requeued: number }) => finish(`${count(requeued)} re-queued.`);
      if (scope === 'checked') requeueChecked.mutate([...checked], { onSuccess: done });
      else if (filter) requeueFilter.mutate(filter.filter, { onSuccess: done });
      return;
    }
    const bulkTarget: BulkTarget | null = scope === 'checked' ? { item_ids: [...checked] } : filter ? { filter: filter.filter } : null;
    if (!bulkTarget) return;
    let action: BulkAction;
    if (confirming.kind === 'assign') {
      const to = parseAssignee(assignee);
      if (!to) return;
      action = { kind: 'assign', to };
    } else action = { kind: confirming.kind };
    bulk.mutate({ target: bulkTarget, action }, { onSuccess: finish });
  };
  const ask = (kind: ActionKind, scope: 'checked' | 'filter') => {
    setResult(null);
    setAssignee('');
    setConfirming({ kind, scope });
  };
  const spec = confirming ? ACTIONS.find((a) => a.kind === confirming.kind) : undefined;
  const scope: 'checked' | 'filter' | null = selected > 0 ? 'checked' : filter !== null && filter.total > 0 ? 'filter' : null;

  return (
    <div className="bulk-bar" role="region" aria-label="Bulk actions" data-testid="bulk-bar">
      {confirming && spec ? (
        <div
          role="alertdialog"
          aria-label={`Confirm ${spec.verb.toLowerCase()}`}
          aria-describedby="bulk-confirm-text"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              setConfirming(null);
            }
          }}
        >
          <span id="bulk-confirm-text">
            <strong>
              {spec.verb} {count(target)}?
            </strong>{' '}
            {spec.note}
            {confirming.scope === 'filter' && ' The filter is resolved to its items now: items that match it later are not included.'}
          </span>{' '}
          {confirming.kind === 'assign' && <AssigneePicker value={assignee} onChange={setAssignee} selectRef={assigneeSelect} />}{' '}
          <button ref={confirmButton} type="button" className="primary" disabled={pending || (confirming.kind === 'assign' && parseAssignee(assignee) === null)} onClick={confirm}>
            Confirm {spec.verb.toLowerCase()} ({count(target)})
          </button>
          <button type="button" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </div>
      ) : (
        scope && (
          <>
            {scope === 'checked' && (
              <span>
                <strong>{selected}</strong> selected:
              </span>
            )}
            {ACTIONS.map((action) => (
              <button key={action.kind} type="button" onClick={() => ask(action.kind, scope)}>
                {scope === 'checked' ? `${action.verb}…` : `${action.verb} all ${count(filter?.total ?? 0)} matching…`}
              </button>
            ))}
            {scope === 'checked' && (
              <button type="button" className="link-button" onClick={onDone}>
                Clear selection
              </button>
            )}
          </>
        )
      )}
      {result && !confirming && (
        <span className="ok" role="status">
          {result}
        </span>
      )}
      {error && <ActionError error={error} />}
    </div>
  );
}
