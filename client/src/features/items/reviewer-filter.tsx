import { useQuery } from '@tanstack/react-query';
import { usersApi } from '@shared/api/users';
import { roleAtLeast } from '@shared/domain/roles';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { usePresence } from '../../api/use-live-updates';
import { useCurrentUser } from '../../auth/session';
import { Field } from '../../ui/field';
import { parseId } from '../../ui/parse-id';

/**
 * "Reviewed by": the people this user can name — themselves, and for curators whoever is
 * online, for admins every user. Reviewers may filter by themselves only (blind review: the
 * server refuses another reviewer's id). A reviewer id from a link (review history) stays
 * selectable as "#id".
 */
export function ReviewerFilter({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const me = useCurrentUser();
  const online = usePresence();
  const isAdmin = roleAtLeast(me.role, 'admin');
  const users = useQuery({
    queryKey: queryKeys.users.list(),
    queryFn: () => call(usersApi.list),
    enabled: isAdmin,
  });
  const people = new Map<number, string>([[me.id, `me (${me.username})`]]);
  for (const user of users.data?.users ?? []) if (!people.has(user.id)) people.set(user.id, user.username);
  for (const user of online?.users ?? []) if (!people.has(user.id)) people.set(user.id, user.username);
  if (value !== null && !people.has(value)) people.set(value, `user #${value}`);

  return (
    <Field label="Reviewed by" inline>
      {(control) => (
        <select {...control} name="reviewer" value={value ?? ''} onChange={(event) => onChange(parseId(event.target.value))}>
          <option value="">Any reviewer</option>
          {[...people.entries()].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
