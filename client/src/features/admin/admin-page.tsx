import { roleAtLeast } from '@shared/domain/roles';
import { errorMessage } from '../../api/http';
import { formatTime } from '../../ui/format';
import { useCurrentUser } from '../../auth/session';
import { AddUserForm } from './add-user-form';
import { GuidelinesForm } from './guidelines-form';
import { SettingsForm } from './settings-form';
import { UserActions } from './user-actions';
import { UserRoleSelect } from './user-role-select';
import { useUsers } from './users-api';

function UsersTable() {
  const me = useCurrentUser();
  const users = useUsers();
  if (users.isPending) return <p className="muted">Loading users…</p>;
  if (users.isError) {
    return (
      <p className="error" role="alert">
        Could not load the users: {errorMessage(users.error)}
      </p>
    );
  }
  return (
    <table className="data-grid users-table" data-testid="users-table">
      <thead>
        <tr>
          <th scope="col">Username</th>
          <th scope="col">Role</th>
          <th scope="col">Created</th>
          <th scope="col">Status</th>
          <th scope="col">Sessions</th>
          <th scope="col">Account</th>
        </tr>
      </thead>
      <tbody>
        {users.data.users.map((user) => (
          <tr key={user.id} data-username={user.username} data-disabled={user.disabled_at !== null ? 'true' : undefined}>
            <td>
              {user.username}
              {user.id === me.id && <span className="muted small"> (you)</span>}
            </td>
            <td>
              <UserRoleSelect user={user} isSelf={user.id === me.id} />
            </td>
            <td>
              <time dateTime={user.created_at}>{formatTime(user.created_at)}</time>
            </td>
            <td data-testid="user-status">
              {user.disabled_at === null ? (
                'Active'
              ) : (
                <>
                  Disabled <time dateTime={user.disabled_at}>{formatTime(user.disabled_at)}</time>
                </>
              )}
            </td>
            <td data-testid="user-sessions">{user.active_sessions}</td>
            <td>
              <UserActions user={user} isSelf={user.id === me.id} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function AdminPage() {
  const me = useCurrentUser();
  if (!roleAtLeast(me.role, 'admin')) {
    return (
      <section className="page">
        <title>Admin · Chart-HQA</title>
        <h1>Admin</h1>
        <p>Only admins manage users and settings.</p>
      </section>
    );
  }
  return (
    <section className="page">
      <title>Admin · Chart-HQA</title>
      <h1>Admin</h1>
      <section aria-labelledby="users-heading">
        <h2 id="users-heading">Users</h2>
        <UsersTable />
      </section>
      <AddUserForm />
      <SettingsForm />
      <GuidelinesForm />
    </section>
  );
}
