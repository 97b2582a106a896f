import { useState } from 'react';
import type { SplitSummary } from '@shared/api/splits';
import { errorMessage } from '../../api/http';
import { formatTime } from '../../ui/format';
import { useDeleteSplit, useSplits, useUpdateSplit } from './splits-api';
import { ExtractTablesControl } from '../../views/extract-tables-control';

/** The label, edited in place: Enter or Save stores it, Escape or Cancel leaves it. */
function SplitLabel({ split }: { split: SplitSummary }) {
  const [editing, setEditing] = useState(false);
  const [label, setLabel] = useState(split.label ?? split.name);
  const update = useUpdateSplit();
  if (!editing) {
    return (
      <>
        <span data-testid="split-label">{split.label ?? split.name}</span>{' '}
        {split.label !== null && <span className="muted small">({split.name})</span>}{' '}
        <button type="button" onClick={() => setEditing(true)} aria-label={`Rename ${split.name}`}>
          Rename
        </button>
      </>
    );
  }
  const save = () => update.mutate({ name: split.name, update: { label: label.trim() === split.name ? null : label } }, { onSuccess: () => setEditing(false) });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <input
        aria-label={`New name for ${split.name}`}
        value={label}
        maxLength={100}
        autoFocus
        onChange={(e) => setLabel(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
      />{' '}
      <button type="submit" disabled={update.isPending}>
        Save
      </button>{' '}
      <button type="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {update.isError && <span className="error"> {errorMessage(update.error)}</span>}
    </form>
  );
}

/** Archive asks first, stating what it does; unarchive does not need to. */
function ArchiveAction({ split }: { split: SplitSummary }) {
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateSplit();
  const set = (archived: boolean) => update.mutate({ name: split.name, update: { archived } }, { onSuccess: () => setConfirming(false) });
  if (split.archived_at !== null) {
    return (
      <button type="button" onClick={() => set(false)} disabled={update.isPending}>
        Unarchive
      </button>
    );
  }
  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)}>
        Archive
      </button>
    );
  }
  return (
    <span role="alertdialog" aria-label={`Archive ${split.name}?`}>
      Archive {split.name}? Its {split.items} items leave the review queue and new runs skip its {split.questions} questions; nothing is deleted.{' '}
      <button type="button" className="danger" onClick={() => set(true)} disabled={update.isPending}>
        Archive split
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {update.isError && <span className="error"> {errorMessage(update.error)}</span>}
    </span>
  );
}

/**
 * Delete, only for a split nothing was made from (a wrong import, 0 questions): asks first,
 * saying what goes. Splits with items or runs are archived instead.
 */
function DeleteAction({ split }: { split: SplitSummary }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteSplit();
  if (!split.deletable) return null;
  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)}>
        Delete
      </button>
    );
  }
  return (
    <span role="alertdialog" aria-label={`Delete ${split.name}?`}>
      Delete {split.name}? Its {split.charts} charts and {split.questions} questions are removed; no item or run was made from them.{' '}
      <button type="button" className="danger" onClick={() => remove.mutate(split.name, { onSuccess: () => setConfirming(false) })} disabled={remove.isPending}>
        Delete split
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {remove.isError && <span className="error"> {errorMessage(remove.error)}</span>}
    </span>
  );
}

export function SplitsList() {
  const splits = useSplits();
  return (
    <section aria-labelledby="splits-heading">
      <h2 id="splits-heading">Splits</h2>
      {splits.isPending && <p className="muted">Loading splits…</p>}
      {splits.isError && (
        <p className="error" role="alert">
          Could not load the splits: {errorMessage(splits.error)}
        </p>
      )}
      {splits.data && splits.data.length === 0 && <p className="muted">No splits yet: import one above.</p>}
      {splits.data && splits.data.length > 0 && (
        <table className="data-grid" data-testid="splits-table">
          <thead>
            <tr>
              <th scope="col">Split</th>
              <th scope="col">Charts</th>
              <th scope="col">Questions</th>
              <th scope="col">Items</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {splits.data.map((split) => (
              <tr key={split.name} data-split={split.name} data-archived={split.archived_at !== null ? 'true' : undefined}>
                <td>
                  <SplitLabel split={split} />
                </td>
                <td>{split.charts}</td>
                <td>{split.questions}</td>
                <td>{split.items}</td>
                <td data-testid="split-state">
                  {split.archived_at === null ? (
                    'Live'
                  ) : (
                    <>
                      Archived <time dateTime={split.archived_at}>{formatTime(split.archived_at)}</time>
                    </>
                  )}
                </td>
                <td>
                  <ArchiveAction split={split} /> <DeleteAction split={split} />
                  {split.archived_at === null && <ExtractTablesControl target={{ split: split.name }} compact />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
