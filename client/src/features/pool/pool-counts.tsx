import type { ProposalListResponse } from '@shared/api/pool';
import { CHART_TYPE_LABELS, CHART_TYPES, type ChartType } from '@shared/domain/chart-types';
import { PROPOSAL_STATUSES, type ProposalStatus } from '@shared/domain/generation';

type PoolCountsProps = {
  counts: ProposalListResponse['counts'];
  onPick: (chartType: ChartType, status: ProposalStatus | '') => void;
};

/** Proposals per chart type and status across the whole pool; a count filters the list to it. */
export function PoolCounts({ counts, onPick }: PoolCountsProps) {
  const types = CHART_TYPES.filter((type) => counts.some((c) => c.chart_type === type));
  const count = (type: ChartType, status: ProposalStatus) => counts.find((c) => c.chart_type === type && c.status === status)?.count ?? 0;
  if (types.length === 0) return null;
  return (
    <table className="data-grid pool-counts" data-testid="pool-counts">
      <thead>
        <tr>
          <th scope="col">Chart type</th>
          {PROPOSAL_STATUSES.map((status) => (
            <th key={status} scope="col" className="num">
              {status}
            </th>
          ))}
          <th scope="col" className="num">
            total
          </th>
        </tr>
      </thead>
      <tbody>
        {types.map((type) => (
          <tr key={type} data-chart-type={type}>
            <th scope="row">
              <button type="button" className="link-button" onClick={() => onPick(type, '')}>
                {CHART_TYPE_LABELS[type]}
              </button>
            </th>
            {PROPOSAL_STATUSES.map((status) => (
              <td key={status} className="num" data-status={status}>
                {count(type, status) > 0 ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => onPick(type, status)}
                    aria-label={`${count(type, status)} ${status} ${CHART_TYPE_LABELS[type]} proposals`}
                  >
                    {count(type, status)}
                  </button>
                ) : (
                  <span className="muted">0</span>
                )}
              </td>
            ))}
            <td className="num">{PROPOSAL_STATUSES.reduce((sum, status) => sum + count(type, status), 0)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
