import { ROLES, RoleSchema } from '@shared/domain/roles';
import type { AdminUser } from '@shared/api/users';
import { errorMessage } from '../../api/http';
import { Field } from '../../ui/field';
import { useUpdateUserRole } from './users-api';

/** One user's role, changeable in place; an admin may not change their own role (no lock-out), nor a disabled user's. */
export function UserRoleSelect({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const disabledUser = user.disabled_at !== null;
  const update = useUpdateUserRole();
  return (
    <div className="role-cell">
      <Field label={`Role of ${user.username}`} hiddenLabel inline>
        {(control) => (
          <select
            {...control}
            name="role"
            value={user.role}
            disabled={isSelf || disabledUser || update.isPending}
            title={isSelf ? 'You cannot change your own role' : disabledUser ? 'Enable the account to change its role' : undefined}
            onChange={(event) => {
              const role = RoleSchema.safeParse(event.target.value);
              if (role.success) update.mutate({ id: user.id, role: role.data });
            }}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        )}
      </Field>
      {update.isPending && <span className="muted small">Saving…</span>}
      {update.isSuccess && !update.isPending && <span className="ok small">Saved</span>}
      {update.isError && (
        <span className="error small" role="alert">
          {errorMessage(update.error)}
        </span>
      )}
    </div>
  );
}
