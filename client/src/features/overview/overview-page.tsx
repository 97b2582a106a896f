import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { OverviewResponse } from '@shared/api/overview';
import { LoadError } from '../../ui/error-messages';
import { formatPassRate } from '../../ui/format';
import { useOverview } from './overview-api';
import { loopSteps } from './next-steps';

type FigureProps = { label: string; value: ReactNode; detail: ReactNode; to: string; action: string; testId: string };

/** One figure, linked to the page where the work it counts is done. */
function OverviewFigure({ label, value, detail, to, action, testId }: FigureProps) {
  return (
    <div className="overview-figure" data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        <span className="overview-value" data-testid={`${testId}-value`}>
          {value}
        </span>
        <span className="muted small">{detail}</span>
        <Link to={to} className="small">
          {action}
        </Link>
      </dd>
    </div>
  );
}

function OverviewFigures({ overview }: { overview: OverviewResponse }) {
  const { queue, decided } = overview;
  const decidedCount = decided.accepted + decided.rejected;
  return (
    <dl className="figures overview-figures" aria-label="Project figures">
      <OverviewFigure
        label="Review queue"
        value={queue.total}
        detail={`${queue.pending} waiting, ${queue.in_review} in review`}
        to="/review"
        action="Review"
        testId="overview-queue"
      />
      <OverviewFigure
        label="Pass rate"
        value={formatPassRate({ decided: decidedCount, accepted: decided.accepted, pass_rate: overview.pass_rate })}
        detail="accepted of decided items"
        to="/stats"
        action="Stats"
        testId="overview-pass-rate"
      />
      <OverviewFigure
        label="Runs in progress"
        value={overview.runs_in_progress}
        detail={overview.runs_paused > 0 ? `${overview.runs_paused} paused` : 'queued or running'}
        to="/runs"
        action="Runs"
        testId="overview-runs"
      />
      <OverviewFigure
        label="Awaiting adjudication"
        value={overview.awaiting_adjudication}
        detail="reviewers disagreed"
        to="/adjudication"
        action="Adjudicate"
        testId="overview-adjudication"
      />
    </dl>
  );
}

/**
 * The loop's four steps with the next one to take, until the project has a dataset: a first
 * overview (an empty database, or the demo split only) says what to do, not just four zeros.
 */
function NextSteps({ overview }: { overview: OverviewResponse }) {
  const { steps, next } = loopSteps(overview);
  if (next === null) return null;
  return (
    <section className="panel next-steps" aria-labelledby="next-steps-heading" data-testid="next-steps" data-next={next.key}>
      <h2 id="next-steps-heading">
        Next: <Link to={next.to}>{next.action}</Link>
      </h2>
      <p className="muted small">A benchmark is built in four steps: import → run → review → export.</p>
      <ol className="loop-steps">
        {steps.map((step) => (
          <li key={step.key} data-step={step.key} data-done={step.done} aria-current={step === next ? 'step' : undefined} className={step === next ? 'next' : undefined}>
            <span className="step-mark" aria-hidden="true">
              {step.done ? '✓' : step === next ? '→' : '·'}
            </span>{' '}
            <Link to={step.to}>{step.title}</Link>
            {step.done && <span className="sr-only"> (done)</span>} <span className="muted small">{step.detail}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Where curators and admins land: what waits for whom, live as reviews and runs move. */
export function OverviewPage() {
  const overview = useOverview();
  return (
    <section className="page overview-page">
      <title>Overview · Chart-HQA</title>
      <header className="page-header">
        <h1>Overview</h1>
      </header>
      {overview.isPending && <p className="muted">Loading…</p>}
      {overview.isError && <LoadError what="the overview" error={overview.error} />}
      {overview.data && (
        <>
          <NextSteps overview={overview.data} />
          <OverviewFigures overview={overview.data} />
        </>
      )}
    </section>
  );
}
