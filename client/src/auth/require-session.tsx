import { Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../api/http';
import { useSession } from './session';

/** Renders the signed-in routes, or sends the visitor to the login page (remembering where to). */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();

  if (session.isPending) return <p className="page-status">Loading…</p>;
  if (session.isError) {
    return (
      <main className="page-status" role="alert">
        <p>Could not check your session: {errorMessage(session.error)}</p>
        <button type="button" onClick={() => void session.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  if (!session.data) {
    const next = location.pathname + location.search;
    const target = next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
    return <Navigate to={target} replace />;
  }
  return <Outlet />;
}
