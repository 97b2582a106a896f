import { useMemo, useState } from 'react';
import type { PoolAnalyticsResponse } from '@shared/api/analytics';
import { CHART_TYPE_LABELS, CHART_TYPES, ChartTypeSchema, type ChartType } from '@shared/domain/chart-types';
import { Field } from '../../../ui/field';
import { VegaFigure } from '../../../ui/vega/vega-figure';
import { sunburstFigure, sunburstNodes } from './figures';

type Analytics = Pick<PoolAnalyticsResponse, 'operations' | 'diversity'>;

/** Operations of one chart type as the paper's Figure 3, with the same counts as a table. */
export function OperationSunburst({ operations, diversity }: Analytics) {
  const types = CHART_TYPES.filter((type) => operations.some((op) => op.chart_type === type));
  const [picked, setPicked] = useState<ChartType | null>(null);
  const chartType = picked !== null && types.includes(picked) ? picked : (types[0] ?? null);
  const nodes = useMemo(() => (chartType ? sunburstNodes(operations, chartType) : []), [operations, chartType]);
  const figure = useMemo(() => sunburstFigure(nodes), [nodes]);
  if (chartType === null) return <p className="empty">No operation could be read from the pool’s proposals yet.</p>;
  const stats = diversity.by_chart_type.find((d) => d.chart_type === chartType);
  const ofType = operations.filter((op) => op.chart_type === chartType);

  return (
    <div className="sunburst-layout">
      <div data-testid="sunburst" data-chart-type={chartType}>
        <Field label="Chart type" inline>
          {(control) => (
            <select
              {...control}
              name="sunburst_type"
              value={chartType}
              onChange={(event) => {
                const type = ChartTypeSchema.safeParse(event.target.value);
                if (type.success) setPicked(type.data);
              }}
            >
              {types.map((type) => (
                <option key={type} value={type}>
                  {CHART_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <VegaFigure
          figure={figure}
          label={`Operations of ${CHART_TYPE_LABELS[chartType]} proposals: nouns in the inner ring, their verbs in the outer ring`}
          testId="operation-sunburst"
        />
        {stats && (
          <p className="muted small" data-testid="sunburst-caption">
            {stats.distinct_operations} distinct operations over {stats.proposals} proposals
            {stats.unparsed > 0 && ` (${stats.unparsed} with no operation read)`}.
          </p>
        )}
      </div>
      <div className="table-scroll sunburst-table">
        <table className="data-grid" data-testid="operation-table">
          <thead>
            <tr>
              <th scope="col">Noun</th>
              <th scope="col">Verb</th>
              <th scope="col" className="num">
                Proposals
              </th>
            </tr>
          </thead>
          <tbody>
            {ofType.map((op) => (
              <tr key={`${op.noun}|${op.verb}`}>
                <td>{op.noun}</td>
                <td>{op.verb}</td>
                <td className="num">{op.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
