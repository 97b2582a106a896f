import { useState, type FormEvent } from 'react';
import { CreateUserRequestSchema, type CreateUserRequest } from '@shared/api/users';
import { ROLES, RoleSchema, type Role } from '@shared/domain/roles';
import { errorMessage, isApiError } from '../../api/http';
import { Field } from '../../ui/field';
import { parseForm } from '../../ui/form-errors';
import { useCreateUser } from './users-api';

type FieldErrors = Partial<Record<keyof CreateUserRequest, string>>;

type Created = { username: string; password: string | undefined };

function fieldErrorsOf(request: unknown): { ok: CreateUserRequest } | { errors: FieldErrors } {
  const parsed = parseForm(CreateUserRequestSchema, request);
  if (parsed.success) return { ok: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'username' || field === 'password' || field === 'role') && !errors[field]) {
      errors[field] = issue.message;
    }
  }
  return { errors };
}

/** Shows a new user's generated password once; it cannot be fetched again. */
function CreatedNotice({ created, onDone }: { created: Created; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const { password } = created;
  return (
    <div className="notice" role="status" data-testid="user-created">
      <p>
        User <strong>{created.username}</strong> was added.
      </p>
      {password !== undefined && (
        <>
          <p>
            Generated password, shown only this once:{' '}
            <code className="secret" data-testid="generated-password">
              {password}
            </code>
          </p>
          <button
            type="button"
            onClick={() => void navigator.clipboard.writeText(password).then(() => setCopied(true))}
          >
            {copied ? 'Copied' : 'Copy password'}
          </button>{' '}
        </>
      )}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

export function AddUserForm() {
  const create = useCreateUser();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('reviewer');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<Created | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = fieldErrorsOf({ username, role, password: password === '' ? undefined : password });
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setCreated(null);
    create.mutate(result.ok, {
      onSuccess: ({ user, generated_password }) => {
        setCreated({ username: user.username, password: generated_password });
        setUsername('');
        setPassword('');
        setRole('reviewer');
      },
    });
  };

  const serverField = isApiError(create.error) ? create.error.field : undefined;
  const errorFor = (field: keyof CreateUserRequest) =>
    errors[field] ?? (serverField === field && create.error ? create.error.message : undefined);

  return (
    <form className="add-user" onSubmit={onSubmit} aria-labelledby="add-user-heading" noValidate>
      <h2 id="add-user-heading">Add a user</h2>
      <div className="form-row">
        <Field label="Username" error={errorFor('username')}>
          {(control) => (
            <input
              {...control}
              name="username"
              autoComplete="off"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
            />
          )}
        </Field>
        <Field label="Role">
          {(control) => (
            <select
              {...control}
              name="role"
              value={role}
              onChange={(event) => {
                const parsed = RoleSchema.safeParse(event.target.value);
                if (parsed.success) setRole(parsed.data);
              }}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label={
            <>
              Password <span className="muted">(optional: leave empty to generate one)</span>
            </>
          }
          error={errorFor('password')}
        >
          {(control) => (
            <input
              {...control}
              name="password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add user'}
        </button>
      </div>
      {create.isError && !serverField && (
        <p className="error" role="alert">
          {errorMessage(create.error)}
        </p>
      )}
      {created && <CreatedNotice created={created} onDone={() => setCreated(null)} />}
    </form>
  );
}
