import { Link } from 'react-router';
import type { ReviewStatsResponse } from '@shared/api/review';
import { CHART_TYPE_LABELS, ChartTypeSchema } from '@shared/domain/chart-types';
import { CRITERIA, CRITERION_LABELS } from '@shared/domain/review';
import { roleAtLeast } from '@shared/domain/roles';
import { errorMessage } from '../../api/http';
import { formatPercent } from '../../ui/format';
import { useCurrentUser } from '../../auth/session';
import { AblationSection } from './ablation-section';
import { CoverageSection } from './coverage-section';
import { CalibrationSection } from './calibration-section';
import { useReviewStats } from './stats-api';

type Team = NonNullable<ReviewStatsResponse['team']>;


function seconds(value: number | null): string {
  if (value === null) return '—';
  return value < 90 ? `${value.toFixed(0)} s` : `${(value / 60).toFixed(1)} min`;
}

/** Items per hour at the median time per item. */
function pace(medianSeconds: number | null): string {
  return medianSeconds === null || medianSeconds <= 0 ? '—' : `${(3600 / medianSeconds).toFixed(1)} / h`;
}

function kappa(value: number | null): string {
  return value === null ? '—' : value.toFixed(2);
}

function Figure({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function MyFigures({ me }: { me: ReviewStatsResponse['me'] }) {
  return (
    <section aria-labelledby="stats-me-heading">
      <h2 id="stats-me-heading">You</h2>
      <dl className="figures" data-testid="stats-me">
        <Figure label="Reviews" value={me.reviews} testId="stats-my-reviews" />
        <Figure label="Accepted" value={me.accepted} />
        <Figure label="Rejected" value={me.rejected} />
        <Figure label="Today" value={me.today} />
        <Figure label="Median time per item" value={seconds(me.median_seconds)} />
        <Figure label="Pace" value={pace(me.median_seconds)} />
      </dl>
    </section>
  );
}

/** A bar of `value` out of `max`, for reading a column of figures at a glance. */
function Bar({ value, max }: { value: number; max: number }) {
  const width = max > 0 ? Math.round((value / max) * 100) : 0;
  return (
    <span className="stat-bar" aria-hidden="true">
      <span style={{ width: `${width}%` }} />
    </span>
  );
}

function RateTable({ title, rows, labelOf, testId }: { title: string; rows: Team['by_chart_type']; labelOf: (key: string) => string; testId: string }) {
  return (
    <section className="panel">
      <h3>{title}</h3>
      {rows.length === 0 ? (
        <p className="muted">Nothing decided yet.</p>
      ) : (
        <table className="data-grid stats-table" data-testid={testId}>
          <thead>
            <tr>
              <th scope="col">{title.replace(/^Per /, '')}</th>
              <th scope="col" className="num">
                Decided
              </th>
              <th scope="col" className="num">
                Accepted
              </th>
              <th scope="col" className="num">
                Pass rate
              </th>
              <th scope="col">
                <span className="sr-only">Bar</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{labelOf(row.key)}</th>
                <td className="num">{row.reviewed}</td>
                <td className="num">{row.accepted}</td>
                <td className="num">{formatPercent(row.pass_rate)}</td>
                <td>
                  <Bar value={row.pass_rate ?? 0} max={100} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function chartTypeLabel(key: string): string {
  const type = ChartTypeSchema.safeParse(key);
  return type.success ? CHART_TYPE_LABELS[type.data] : key;
}

function TeamFigures({ team }: { team: Team }) {
  const busiest = Math.max(0, ...team.throughput.map((day) => day.reviews));
  return (
    <section aria-labelledby="stats-team-heading">
      <h2 id="stats-team-heading">Team</h2>
      <dl className="figures">
        <Figure label="Pass rate" value={formatPercent(team.pass_rate)} testId="stats-pass-rate" />
        <Figure label="Items decided" value={team.decided} />
      </dl>

      <section className="panel">
        <h3>Agreement per criterion</h3>
        <p className="muted small">Over items with at least two standing reviews. Fleiss’ κ is undefined (—) when every verdict is the same.</p>
        <table className="data-grid stats-table" data-testid="stats-agreement">
          <thead>
            <tr>
              <th scope="col">Criterion</th>
              <th scope="col" className="num">
                Items
              </th>
              <th scope="col" className="num">
                Percent agreement
              </th>
              <th scope="col" className="num">
                Fleiss’ κ
              </th>
            </tr>
          </thead>
          <tbody>
            {CRITERIA.map((criterion) => {
              const row = team.agreement[criterion];
              return (
                <tr key={criterion} data-criterion={criterion}>
                  <th scope="row">{CRITERION_LABELS[criterion]}</th>
                  <td className="num">{row.items}</td>
                  <td className="num">{formatPercent(row.percent_agreement)}</td>
                  <td className="num">{kappa(row.fleiss_kappa)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>

      <div className="stats-columns">
        <RateTable title="Per chart type" rows={team.by_chart_type} labelOf={chartTypeLabel} testId="stats-by-type" />
        <RateTable title="Per proposal" rows={team.by_proposal} labelOf={(key) => key} testId="stats-by-proposal" />
      </div>

      <div className="stats-columns">
        <section className="panel">
          <h3>Throughput per day</h3>
          {team.throughput.length === 0 ? (
            <p className="muted">No reviews yet.</p>
          ) : (
            <table className="data-grid stats-table" data-testid="stats-throughput">
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  <th scope="col" className="num">
                    Reviews
                  </th>
                  <th scope="col">
                    <span className="sr-only">Bar</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {team.throughput.map((day) => (
                  <tr key={day.day}>
                    <th scope="row">{day.day}</th>
                    <td className="num">{day.reviews}</td>
                    <td>
                      <Bar value={day.reviews} max={busiest} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section className="panel">
          <h3>Per reviewer</h3>
          {team.by_reviewer.length === 0 ? (
            <p className="muted">No reviews yet.</p>
          ) : (
            <table className="data-grid stats-table" data-testid="stats-by-reviewer">
              <thead>
                <tr>
                  <th scope="col">Reviewer</th>
                  <th scope="col" className="num">
                    Reviews
                  </th>
                  <th scope="col" className="num">
                    Median time
                  </th>
                  <th scope="col" className="num">
                    Pace
                  </th>
                </tr>
              </thead>
              <tbody>
                {team.by_reviewer.map((row) => (
                  <tr key={row.reviewer}>
                    <th scope="row">{row.reviewer}</th>
                    <td className="num">{row.reviews}</td>
                    <td className="num">{seconds(row.median_seconds)}</td>
                    <td className="num">{pace(row.median_seconds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </section>
  );
}

/**
 * Review figures: your own for everyone; for curators the team's, the human / machine / HAI
 * comparison and the coverage map. Live: a decision refetches them.
 */
export function StatsPage() {
  const stats = useReviewStats();
  const curator = roleAtLeast(useCurrentUser().role, 'curator');
  return (
    <section className="page stats-page">
      <title>Stats · Chart-HQA</title>
      <h1>Stats</h1>
      <p className="muted page-intro">
        Review figures{curator && ', the human / machine / HAI comparison and the coverage map'}. Pool growth, pass rates per round and
        the diversity of operations are under <Link to="/pool/analytics">Pool › Analytics</Link>.
      </p>
      {stats.isPending && <p className="muted">Loading figures…</p>}
      {stats.isError && (
        <p className="error" role="alert">
          Could not load the figures: {errorMessage(stats.error)}
        </p>
      )}
      {stats.data && (
        <>
          <MyFigures me={stats.data.me} />
          {stats.data.team && <TeamFigures team={stats.data.team} />}
        </>
      )}
      {curator && (
        <>
          <AblationSection />
          <CoverageSection />
          <CalibrationSection />
        </>
      )}
    </section>
  );
}
