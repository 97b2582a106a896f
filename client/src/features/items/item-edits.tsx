import { useState } from 'react';
import { EDITABLE_ITEM_FIELDS, EditItemRequestSchema, type EditableItemField } from '@shared/api/item-discussion';
import type { ItemDetail } from '@shared/api/items';
import { useEditItem, useItemEdits } from '../../api/item-discussion-api';
import { ActionError, LoadError } from '../../ui/error-messages';
import { formatTime } from '../../ui/format';
import { useFieldErrors } from '../../ui/use-field-errors';

const FIELD_LABELS: Record<EditableItemField, string> = { assumption: 'Assumption', question: 'Question', answer: 'Answer' };

/** The answer as the export carries it: a reviewer's correction first. */
const currentValues = (item: ItemDetail): Record<EditableItemField, string> => ({
  assumption: item.assumption,
  question: item.question,
  answer: item.final_answer ?? item.answer,
});

/**
 * A curator's direct edit of the assumption, question or answer, with the reason it needs.
 * Only changed fields are sent; the server runs the verifier again and keeps the edit.
 */
function ItemEditForm({ item, onDone }: { item: ItemDetail; onDone: () => void }) {
  const edit = useEditItem(item.id);
  const [values, setValues] = useState(() => currentValues(item));
  const [reason, setReason] = useState('');
  const { validate, errorFor, serverField } = useFieldErrors(edit.error);
  const submit = () => {
    const before = currentValues(item);
    const changed = Object.fromEntries(EDITABLE_ITEM_FIELDS.filter((field) => values[field] !== before[field]).map((field) => [field, values[field]]));
    const body = validate(EditItemRequestSchema, { ...changed, reason });
    if (body) edit.mutate(body, { onSuccess: onDone });
  };
  return (
    <form
      className="item-edit-form"
      data-testid="item-edit-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {EDITABLE_ITEM_FIELDS.map((field) => (
        <label key={field} className="field">
          <span>{FIELD_LABELS[field]}</span>
          <textarea
            name={field}
            rows={field === 'answer' ? 1 : 2}
            value={values[field]}
            onChange={(e) => setValues((old) => ({ ...old, [field]: e.target.value }))}
          />
          {errorFor(`body.${field}`) && <span className="error small">{errorFor(`body.${field}`)}</span>}
        </label>
      ))}
      <label className="field">
        <span>Why (kept with the edit)</span>
        <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        {errorFor('body.reason') && <span className="error small">{errorFor('body.reason')}</span>}
      </label>
      <div className="actions">
        <button type="submit" disabled={edit.isPending}>
          {edit.isPending ? 'Saving…' : 'Save edit'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {edit.isError && serverField === undefined && <ActionError error={edit.error} />}
    </form>
  );
}

/** Every curator edit of the item: who, when, why, and each field before and after. */
function ItemEditHistory({ itemId }: { itemId: number }) {
  const edits = useItemEdits(itemId);
  if (edits.isPending) return <p className="muted">Loading the edit history…</p>;
  if (edits.isError) return <LoadError what="the edit history" error={edits.error} />;
  if (edits.data.edits.length === 0) return <p className="muted small">No curator edits.</p>;
  return (
    <table className="data-grid item-edit-history" data-testid="item-edit-history">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">By</th>
          <th scope="col">Why</th>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {edits.data.edits.flatMap((edit) =>
          edit.changes.map((change, i) => (
            <tr key={`${edit.id}-${change.field}`}>
              <td className="small">{i === 0 && <time dateTime={edit.created_at}>{formatTime(edit.created_at)}</time>}</td>
              <td>{i === 0 && edit.editor.username}</td>
              <td>{i === 0 && edit.reason}</td>
              <td>{FIELD_LABELS[change.field]}</td>
              <td className="prewrap">{change.before}</td>
              <td className="prewrap">{change.after}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

/** The Item page's edits section: the history for everyone, the edit form for curators. */
export function ItemEdits({ item, canEdit }: { item: ItemDetail; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <section aria-labelledby="item-edits-heading" className="item-edits">
      <h2 id="item-edits-heading">Edits</h2>
      {canEdit &&
        (editing ? (
          <ItemEditForm key={item.id} item={item} onDone={() => setEditing(false)} />
        ) : (
          <button type="button" onClick={() => setEditing(true)}>
            Edit assumption, question or answer
          </button>
        ))}
      <ItemEditHistory itemId={item.id} />
    </section>
  );
}
