import type { GoldAgreement, ReviewerCalibration } from '@shared/api/gold';
import { CRITERIA, CRITERION_LABELS } from '@shared/domain/review';
import { errorMessage } from '../../api/http';
import { useCalibration } from '../../api/gold-api';
import { formatPercent } from '../../ui/format';

/** The API's shares are 0–1; formatPercent takes percent. */
const share = (value: number | null) => (value === null ? '—' : formatPercent(value * 100));

function AgreementCells({ agreement, threshold }: { agreement: GoldAgreement; threshold: number }) {
  return (
    <>
      <td className="num">{agreement.reviews}</td>
      {CRITERIA.map((c) => {
        const value = agreement[c];
        const under = value !== null && value < threshold;
        return (
          <td key={c} className={under ? 'num under-threshold' : 'num'} data-criterion={c}>
            {share(value)}
          </td>
        );
      })}
    </>
  );
}

function ReviewerRows({ reviewer, threshold }: { reviewer: ReviewerCalibration; threshold: number }) {
  return (
    <>
      <tr data-testid={`calibration-${reviewer.reviewer}`} data-flagged={reviewer.flagged}>
        <th scope="row">
          {reviewer.reviewer} {reviewer.flagged && <span className="bias-flag">under threshold</span>}
        </th>
        <td>all weeks</td>
        <AgreementCells agreement={reviewer.overall} threshold={threshold} />
      </tr>
      {reviewer.weeks.map((week) => (
        <tr key={week.week} className="muted">
          <th scope="row">
            <span className="sr-only">{reviewer.reviewer}</span>
          </th>
          <td>{week.week}</td>
          <AgreementCells agreement={week} threshold={threshold} />
        </tr>
      ))}
    </>
  );
}

/**
 * Reviewer calibration (curators): each reviewer's agreement with gold items per criterion,
 * overall and per ISO week, and who falls under the agreement threshold set by the admin.
 */
export function CalibrationSection() {
  const calibration = useCalibration();
  const data = calibration.data;
  const flagged = data?.reviewers.filter((r) => r.flagged) ?? [];
  return (
    <section className="panel" aria-labelledby="calibration-heading">
      <h2 id="calibration-heading">Calibration against gold items</h2>
      {calibration.isPending && <p className="muted">Loading calibration…</p>}
      {calibration.isError && <p role="alert">Could not load calibration: {errorMessage(calibration.error)}</p>}
      {data && (
        <>
          <p className="muted">
            {data.gold_items} gold items. A reviewer is flagged when agreement on any criterion is under {share(data.threshold)}.
          </p>
          {flagged.length > 0 && (
            <p role="status" data-testid="calibration-flagged">
              Under the threshold: {flagged.map((r) => r.reviewer).join(', ')}
            </p>
          )}
          {data.reviewers.length === 0 ? (
            <p className="muted">No reviewer has reviewed a gold item yet.</p>
          ) : (
            <table className="data-grid stats-table" data-testid="calibration-table">
              <thead>
                <tr>
                  <th scope="col">Reviewer</th>
                  <th scope="col">Week</th>
                  <th scope="col" className="num">
                    Gold reviews
                  </th>
                  {CRITERIA.map((c) => (
                    <th key={c} scope="col" className="num">
                      {CRITERION_LABELS[c]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.reviewers.map((reviewer) => (
                  <ReviewerRows key={reviewer.reviewer_id} reviewer={reviewer} threshold={data.threshold} />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
