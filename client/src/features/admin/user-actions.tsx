import { useState } from 'react';
import type { AdminUser } from '@shared/api/users';
import { errorMessage } from '../../api/http';
import { useDisableUser, useEnableUser, useResetPassword, useRevokeSessions } from './users-api';

type Confirmable = 'disable' | 'reset' | 'revoke';

/** What each action that ends sessions asks before it runs. */
const QUESTIONS: Record<Confirmable, (user: AdminUser) => string> = {
  disable: ({ username, assigned_items: n }) =>
    `Disable ${username}? They cannot log in, and their sessions end now. ` +
    (n === 0 ? 'No items are assigned to them.' : `${n} ${n === 1 ? 'item assigned to them returns' : 'items assigned to them return'} to the general queue.`),
  reset: ({ username }) => `Reset the password of ${username}? The old one stops working and their sessions end.`,
  revoke: ({ username }) => `End every session of ${username}? They stay able to log in.`,
};

const sessions = (n: number) => `${n} session${n === 1 ? '' : 's'}`;

/** A reset password, shown only this once: it cannot be fetched again. */
function PasswordNotice({ username, password, onDone }: { username: string; password: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice" role="status" data-testid="password-reset">
      <p>
        New password of <strong>{username}</strong>, shown only this once:{' '}
        <code className="secret" data-testid="reset-password">
          {password}
        </code>
      </p>
      <button type="button" onClick={() => void navigator.clipboard.writeText(password).then(() => setCopied(true))}>
        {copied ? 'Copied' : 'Copy password'}
      </button>{' '}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/**
 * One user's account actions: disable or enable, reset the password, end their sessions. An
 * admin may not disable themselves here, nor reset their own password (their session would end
 * before they could copy it); the server refuses to leave no enabled admin.
 */
export function UserActions({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const disable = useDisableUser();
  const enable = useEnableUser();
  const reset = useResetPassword();
  const revoke = useRevokeSessions();
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const pending = disable.isPending || enable.isPending || reset.isPending || revoke.isPending;
  const failed = [disable, enable, reset, revoke].find((m) => m.isError);

  const start = () => {
    setDone(null);
    setPassword(null);
    for (const m of [disable, enable, reset, revoke]) m.reset();
  };
  const run = (action: Confirmable) => {
    setConfirming(null);
    start();
    if (action === 'disable') disable.mutate(user.id, { onSuccess: (r) => setDone(`Disabled; ended ${sessions(r.revoked_sessions)}.`) });
    if (action === 'revoke') revoke.mutate(user.id, { onSuccess: (r) => setDone(`Ended ${sessions(r.revoked_sessions)}.`) });
    if (action === 'reset') reset.mutate(user.id, { onSuccess: (r) => setPassword(r.generated_password) });
  };

  if (confirming) {
    return (
      <div className="user-actions" role="group" aria-label={`Confirm for ${user.username}`}>
        <span>{QUESTIONS[confirming](user)}</span>{' '}
        <button type="button" className="primary" onClick={() => run(confirming)}>
          Confirm
        </button>{' '}
        <button type="button" onClick={() => setConfirming(null)}>
          Cancel
        </button>
      </div>
    );
  }
  const disabled = user.disabled_at !== null;
  return (
    <div className="user-actions" role="group" aria-label={`Actions for ${user.username}`}>
      {disabled ? (
        <button
          type="button"
          disabled={pending}
          onClick={() => {
            start();
            enable.mutate(user.id, { onSuccess: () => setDone('Enabled.') });
          }}
        >
          Enable
        </button>
      ) : (
        <button
          type="button"
          disabled={pending || isSelf}
          title={isSelf ? 'You cannot disable yourself' : undefined}
          onClick={() => setConfirming('disable')}
        >
          Disable
        </button>
      )}{' '}
      <button
        type="button"
        disabled={pending || isSelf}
        title={isSelf ? 'Another admin (or hqa user reset-password) resets your password' : undefined}
        onClick={() => setConfirming('reset')}
      >
        Reset password
      </button>{' '}
      <button type="button" disabled={pending || user.active_sessions === 0} onClick={() => setConfirming('revoke')}>
        Revoke sessions
      </button>
      {done && (
        <span className="ok small" role="status">
          {' '}
          {done}
        </span>
      )}
      {failed && (
        <span className="error small" role="alert">
          {' '}
          {errorMessage(failed.error)}
        </span>
      )}
      {password !== null && <PasswordNotice username={user.username} password={password} onDone={() => setPassword(null)} />}
    </div>
  );
}
