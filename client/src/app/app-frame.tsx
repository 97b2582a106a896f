import { Suspense } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { roleAtLeast } from '../../../shared/domain/roles';
import { useLiveUpdates, usePresence } from '../api/use-live-updates';
import { useCurrentUser, useLogout } from '../auth/session';
import { PAGES } from './pages';

function PresenceBadge() {
  const users = usePresence();
  if (users.length === 0) return null;
  const names = users.map((u) => `${u.username} (${u.role}${u.reviewing > 0 ? ', reviewing' : ''})`).join(', ');
  const reviewing = users.filter((u) => u.reviewing > 0).length;
  return (
    <span className="presence" title={`Online: ${names}`} data-testid="presence">
      <span className="presence-dot" aria-hidden="true" />
      {users.length} online
      {reviewing > 0 && <> · {reviewing} reviewing</>}
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
