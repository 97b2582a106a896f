import type { ItemAssignment } from '@shared/api/items';
import { Field } from '../../ui/field';
import { useQueues } from './assignment-api';

/**
 * "Assigned to": the `assigned` filter of the Items list — me, nobody, anyone, a reviewer by
 * name or a named queue (`queue:<name>`). Curators pick from every reviewer and queue; a
 * reviewer from "me" and "nobody". A value from a link that is not among them stays selectable.
 */
export function AssignedFilter({ value, onChange, isCurator }: { value: string; onChange: (value: string) => void; isCurator: boolean }) {
  const queues = useQueues(isCurator);
  const options: { value: string; label: string }[] = [
    { value: 'me', label: 'me' },
    { value: 'none', label: 'nobody' },
    ...(isCurator ? [{ value: 'any', label: 'anyone' }] : []),
    ...(queues.data?.reviewers.map((person) => ({ value: person.username, label: person.username })) ?? []),
    ...(queues.data?.queues.map((queue) => ({ value: `queue:${queue.name}`, label: `queue: ${queue.name}` })) ?? []),
  ];
  if (value && !options.some((option) => option.value === value)) options.push({ value, label: value });
  return (
    <Field label="Assigned to" inline>
      {(control) => (
        <select {...control} name="assigned" value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">Any assignment</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Who the page's assigned items belong to, and which are retired: one line under the list. */
export function AssignmentNotes({ assignments }: { assignments: readonly ItemAssignment[] }) {
  if (assignments.length === 0) return null;
  return (
    <p className="muted small" data-testid="assignment-notes">
      On this page:{' '}
      {assignments.map((a, index) => (
        <span key={a.item_id} data-item-id={a.item_id} className="assignment-note">
          {index > 0 && ' · '}#{a.item_id}
          {a.reviewer !== null && ` assigned to ${a.reviewer}`}
          {a.queue !== null && ` assigned to queue ${a.queue}`}
          {a.retired && ' (retired)'}
        </span>
      ))}
    </p>
  );
}
