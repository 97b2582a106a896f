import { Suspense } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { roleAtLeast } from '@shared/domain/roles';
import { useLiveUpdates, usePresence } from '../api/use-live-updates';
import { useCurrentUser, useLogout } from '../auth/session';
import { PAGES } from './pages';
import { MentionNotices } from '../views/mention-notices';

/** How many are online and reviewing; curators and admins also get who (reviewers get counts only: blind review). */
function PresenceBadge() {
  const presence = usePresence();
  if (!presence || presence.online === 0) return null;
  const names = presence.users?.map((u) => `${u.username} (${u.role}${u.reviewing > 0 ? ', reviewing' : ''})`).join(', ');
  return (
    <span className="presence" title={names ? `Online: ${names}` : undefined} data-testid="presence">
      <span className="presence-dot" aria-hidden="true" />
      {presence.online} online
      {presence.reviewing > 0 && <> · {presence.reviewing} reviewing</>}
    </span>
  );
}

/** The signed-in shell: header with the user and logout, side navigation, the page. */
export function AppFrame() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  useLiveUpdates();

  const visiblePages = PAGES.filter((page) => roleAtLeast(user.role, page.leastRole));

  return (
    <div className="frame">
      <header className="topbar">
        <span className="brand">Chart-HQA Workbench</span>
        <div className="topbar-right">
          <MentionNotices />
          <PresenceBadge />
          <span className="current-user" data-testid="current-user">
            {user.username} <span className="role-tag">{user.role}</span>
          </span>
          <button type="button" onClick={() => logout.mutate(undefined, { onSettled: () => void navigate('/login') })} disabled={logout.isPending}>
            Log out
          </button>
        </div>
      </header>
      <nav className="sidenav" aria-label="Main">
        <ul>
          {visiblePages.map((page) => (
            <li key={page.id}>
              <NavLink to={page.path}>{page.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        {/* Pages load as their own chunks; the frame stays while one arrives. */}
        <Suspense fallback={<p className="muted" role="status">Loading…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
