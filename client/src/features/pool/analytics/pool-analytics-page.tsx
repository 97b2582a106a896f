import { useMemo } from 'react';
import type { PoolAnalyticsResponse } from '@shared/api/analytics';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { errorMessage } from '../../../api/http';
import { formatPassRate, formatPercent } from '../../../ui/format';
import { VegaFigure } from '../../../ui/vega/vega-figure';
import { usePoolAnalytics } from '../analytics-api';
import { PoolTabs } from '../pool-tabs';
import { growthFigure, passRateByRoundFigure, passRateByTypeFigure } from './figures';
import { OperationSunburst } from './operation-sunburst';
import { ProposalPassRates } from './proposal-pass-rates';

function Figure({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** The numbers behind a pass-rate figure, for reading exactly and for assistive technology. */
function RateNumbers({ rows }: { rows: { key: string; label: string; decided: number; accepted: number; pass_rate: number | null }[] }) {
  return (
    <details className="small figure-numbers">
      <summary>Numbers</summary>
      <table className="data-grid">
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <td className="num">{formatPassRate(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function PoolFigures({ data }: { data: PoolAnalyticsResponse }) {
  const growth = useMemo(() => growthFigure(data.growth), [data.growth]);
  const byType = useMemo(() => passRateByTypeFigure(data.pass_rate.by_chart_type), [data.pass_rate.by_chart_type]);
  const byRound = useMemo(() => passRateByRoundFigure(data.pass_rate.by_round), [data.pass_rate.by_round]);
  const { overall } = data.diversity;
  const lastDay = data.growth.at(-1)?.day;
  const inPool = data.growth.filter((point) => point.day === lastDay).reduce((sum, point) => sum + point.cumulative, 0);

  return (
    <>
      <dl className="figures" data-testid="pool-figures">
        <Figure label="Proposals ever in the pool" value={inPool} />
        <Figure label="Distinct operations" value={overall.distinct_operations} testId="distinct-operations" />
        <Figure label="Proposals with no operation read" value={overall.unparsed} />
        <Figure label="Items decided" value={data.pass_rate.overall.decided} />
        <Figure label="Pass rate" value={formatPercent(data.pass_rate.overall.pass_rate)} testId="pool-pass-rate" />
      </dl>

      <section className="panel" aria-labelledby="growth-heading">
        <h2 id="growth-heading">Pool size over time</h2>
        {data.growth.length === 0 ? (
          <p className="empty">The pool is empty.</p>
        ) : (
          <VegaFigure figure={growth} label="Proposals in the pool per day, one line per origin: seed, generated, revised" testId="pool-growth" />
        )}
      </section>

      <div className="stats-columns">
        <section className="panel" aria-labelledby="rate-type-heading">
          <h2 id="rate-type-heading">Pass rate per chart type</h2>
          {data.pass_rate.by_chart_type.length === 0 ? (
            <p className="empty">Nothing decided yet.</p>
          ) : (
            <>
              <VegaFigure figure={byType} label="Pass rate of decided items per chart type" testId="pass-rate-by-type" />
              <RateNumbers rows={data.pass_rate.by_chart_type.map((row) => ({ ...row, key: row.chart_type, label: CHART_TYPE_LABELS[row.chart_type] }))} />
            </>
          )}
        </section>
        <section className="panel" aria-labelledby="rate-round-heading">
          <h2 id="rate-round-heading">Pass rate per round</h2>
          {data.pass_rate.by_round.length === 0 ? (
            <p className="empty">Nothing decided yet.</p>
          ) : (
            <>
              <VegaFigure figure={byRound} label="Pass rate of decided items per round of their proposal" testId="pass-rate-by-round" />
              <RateNumbers rows={data.pass_rate.by_round.map((row) => ({ ...row, key: String(row.round), label: `Round ${row.round}` }))} />
            </>
          )}
          <p className="muted small">Round 0 is the seeds and Stage 1’s proposals; each reflection adds a round. A rising rate means feedback improves the pool.</p>
        </section>
      </div>

      <section className="panel" aria-labelledby="operations-heading">
        <h2 id="operations-heading">Diversity of counterfactual operations</h2>
        <p className="muted small">
          The verb–object pair read from each active or retired proposal (POS tagging with compromise): nouns in the inner ring, their
          verbs in the outer ring, as in the paper’s Figure 3.
        </p>
        <OperationSunburst operations={data.operations} diversity={data.diversity} />
        <h3>Distinct operations per chart type</h3>
        <table className="data-grid diversity-table" data-testid="diversity-table">
          <thead>
            <tr>
              <th scope="col">Chart type</th>
              <th scope="col" className="num">
                Proposals
              </th>
              <th scope="col" className="num">
                No operation read
              </th>
              <th scope="col" className="num">
                Distinct operations
              </th>
            </tr>
          </thead>
          <tbody>
            {data.diversity.by_chart_type.map((row) => (
              <tr key={row.chart_type} data-chart-type={row.chart_type}>
                <th scope="row">{CHART_TYPE_LABELS[row.chart_type]}</th>
                <td className="num">{row.proposals}</td>
                <td className="num">{row.unparsed}</td>
                <td className="num">{row.distinct_operations}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">All types</th>
              <td className="num">{overall.proposals}</td>
              <td className="num">{overall.unparsed}</td>
              <td className="num">{overall.distinct_operations}</td>
            </tr>
          </tbody>
        </table>
      </section>

      <section className="panel" aria-labelledby="rate-proposal-heading">
        <h2 id="rate-proposal-heading">Pass rate per proposal</h2>
        <ProposalPassRates rows={data.pass_rate.by_proposal} />
      </section>
    </>
  );
}

/** /pool/analytics: how the pool grows, how well its proposals do, and how diverse their operations are. Live. */
export function PoolAnalyticsPage() {
  const analytics = usePoolAnalytics();
  return (
    <section className="page pool-analytics-page">
      <title>Pool analytics · Chart-HQA</title>
      <h1>Pool</h1>
      <PoolTabs />
      {analytics.isPending && <p className="muted">Loading the figures…</p>}
      {analytics.isError && (
        <p className="error" role="alert">
          Could not load the figures: {errorMessage(analytics.error)}
        </p>
      )}
      {analytics.data && <PoolFigures data={analytics.data} />}
    </section>
  );
}
