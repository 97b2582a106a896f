import { useState } from 'react';
import { Link } from 'react-router';
import type { PoolAnalyticsResponse } from '@shared/api/analytics';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { formatPassRate } from '../../../ui/format';

type Row = PoolAnalyticsResponse['pass_rate']['by_proposal'][number];

/** Rows shown before "Show all": the worst proposals are the ones to act on. */
const FIRST_ROWS = 15;

/** Lowest pass rate first (the proposals to revise or retire); undecided ones last. */
function worstFirst(a: Row, b: Row): number {
  if (a.pass_rate === null || b.pass_rate === null) return (a.pass_rate === null ? 1 : 0) - (b.pass_rate === null ? 1 : 0);
  return a.pass_rate - b.pass_rate || b.decided - a.decided || a.proposal_id - b.proposal_id;
}

/** Pass rate per proposal with items, worst first. */
export function ProposalPassRates({ rows }: { rows: Row[] }) {
  const [all, setAll] = useState(false);
  if (rows.length === 0) return <p className="empty">No proposal has items yet.</p>;
  const sorted = [...rows].sort(worstFirst);
  const shown = all ? sorted : sorted.slice(0, FIRST_ROWS);
  return (
    <>
      <table className="data-grid" data-testid="proposal-pass-rates">
        <thead>
          <tr>
            <th scope="col">Proposal</th>
            <th scope="col">Chart type</th>
            <th scope="col">Origin</th>
            <th scope="col" className="num">
              Round
            </th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Items
            </th>
            <th scope="col" className="num">
              Pass rate
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={row.proposal_id}>
              <th scope="row" className="question-cell">
                <Link to={`/pool/${row.proposal_id}`}>#{row.proposal_id}</Link> <span className="small">{row.text}</span>
              </th>
              <td>{CHART_TYPE_LABELS[row.chart_type]}</td>
              <td>
                <span className={`source-tag origin-${row.origin}`}>{row.origin}</span>
              </td>
              <td className="num">{row.round}</td>
              <td>
                <span className={`status-tag proposal-status-${row.status}`}>{row.status}</span>
              </td>
              <td className="num">{row.items}</td>
              <td className="num nowrap">{formatPassRate(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {sorted.length > FIRST_ROWS && (
        <button type="button" className="link-button" onClick={() => setAll(!all)}>
          {all ? `Show the first ${FIRST_ROWS}` : `Show all ${sorted.length}`}
        </button>
      )}
    </>
  );
}
