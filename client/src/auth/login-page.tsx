import { useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { errorMessage, isApiError } from '../api/http';
import { Field } from '../ui/field';
import { useLogin, useSession } from './session';
import { signedOutNotice } from './signed-out-notice';

/** The landing route, which sends each role where it works (app/landing.tsx). */
const DEFAULT_PAGE = '/';

/** Only same-site paths may be a post-login destination (no `//evil.example`). */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : DEFAULT_PAGE;
}

function loginErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status === 429) {
    const wait = error.retryAfterSeconds ? ` Try again in ${error.retryAfterSeconds} s.` : ' Wait a moment and try again.';
    return `Too many login attempts.${wait}`;
  }
  if (isApiError(error) && error.status === 401) return 'Wrong username or password.';
  return errorMessage(error);
}

export function LoginPage() {
  const session = useSession();
  const login = useLogin();
  const [searchParams] = useSearchParams();
  const next = safeNext(searchParams.get('next'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const notice = signedOutNotice();

  if (session.data) return <Navigate to={next} replace />;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    login.mutate({ username, password });
  };

  return (
    <main className="login">
      <form className="login-card" onSubmit={onSubmit} aria-labelledby="login-heading">
        <h1 id="login-heading">Chart-HQA Workbench</h1>
        <p className="muted">Sign in to build and review hypothetical chart questions.</p>
        {notice !== null && (
          <p className="error" role="status" data-testid="signed-out-notice">
            You were signed out: {notice}.
          </p>
        )}
        <Field label="Username">
          {(control) => (
            <input
              {...control}
              name="username"
              autoComplete="username"
              autoFocus
              required
              value={username}
              onChange={(event) => setUsername(event.target.value)}
            />
          )}
        </Field>
        <Field label="Password">
          {(control) => (
            <input
              {...control}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        {login.isError && (
          <p className="error" role="alert" data-testid="login-error">
            {loginErrorMessage(login.error)}
          </p>
        )}
        <button type="submit" className="primary" disabled={login.isPending}>
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
