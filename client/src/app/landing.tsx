import { Navigate } from 'react-router';
import { roleAtLeast } from '@shared/domain/roles';
import { useCurrentUser } from '../auth/session';

/** Each role lands where it works: reviewers on Review, curators and admins on the overview. */
export function Landing() {
  const user = useCurrentUser();
  return <Navigate to={roleAtLeast(user.role, 'curator') ? '/overview' : '/review'} replace />;
}
