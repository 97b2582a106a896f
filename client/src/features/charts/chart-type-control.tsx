import type { ChartSummary } from '@shared/api/charts';
import { errorMessage } from '../../api/http';
import { ChartTypeSelect } from '../../ui/filter-select';
import { TypeBadge } from './type-badge';
import { useUpdateChart } from '../../api/charts-api';

type ChartTypeControlProps = {
  chart: Pick<ChartSummary, 'id' | 'chart_type' | 'type_source' | 'type_evidence' | 'type_confirmed'>;
  canEdit: boolean;
};

/** Shows a chart's type and how it was decided; curators and admins may change it. */
export function ChartTypeControl({ chart, canEdit }: ChartTypeControlProps) {
  const update = useUpdateChart(chart.id);

  return (
    <div className="type-control" data-testid="chart-type">
      <TypeBadge chart={chart} />
      {canEdit && (
        <ChartTypeSelect
          label="Change type"
          inline
          value={chart.chart_type}
          disabled={update.isPending}
          onChange={(chart_type) => update.mutate({ chart_type })}
        />
      )}
      {update.isPending && <span className="muted small">Saving…</span>}
      {update.isError && (
        <p className="error" role="alert" data-testid="chart-type-error">
          Could not change the type: {errorMessage(update.error)}
        </p>
      )}
    </div>
  );
}
