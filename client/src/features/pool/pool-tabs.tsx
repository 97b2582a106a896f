import { NavLink } from 'react-router';

/** The Pool page's two views: the proposals themselves and the figures about them. */
export function PoolTabs() {
  return (
    <nav className="tabs" aria-label="Pool views">
      <NavLink to="/pool" end>
        Proposals
      </NavLink>
      <NavLink to="/pool/analytics" data-testid="pool-analytics-tab">
        Analytics
      </NavLink>
    </nav>
  );
}
