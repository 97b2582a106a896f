import { useMemo } from 'react';
import type { ItemGroup } from '@shared/api/item-group';
import { useChart } from '../api/charts-api';
import { LoadError } from '../ui/error-messages';
import { counterfactualOf } from './counterfactual';
import { ItemCharts, ItemDataTable, type ItemChart } from './item-charts';
import { editedPosition, groupChartName, groupCounterfactualOf, ItemGroupCharts } from './item-group-charts';

/**
 * An item's charts and data table for a page that holds the item but not its chart (the Item
 * page, Adjudication): the chart is fetched (and cached) by id. An item over a chart group
 * shows every chart of the group instead, from the group the page's payload carries.
 */
export function ItemChartsPanel({ item, group = null }: { item: { id: number; chart_id: number; edit: unknown }; group?: ItemGroup | null }) {
  if (group) return <GroupChartsPanel item={item} group={group} />;
  return <SingleChartPanel item={item} />;
}

function GroupChartsPanel({ item, group }: { item: { id: number; edit: unknown }; group: ItemGroup }) {
  const outcome = useMemo(() => groupCounterfactualOf(group, item.edit), [group, item.edit]);
  const position = editedPosition(group, outcome);
  const edited = group.charts.find((chart) => chart.position === position);
  return (
    <div className="item-charts" data-testid="item-charts-panel">
      <ItemGroupCharts itemId={item.id} group={group} outcome={outcome} />
      {edited && (
        <section aria-label="Data table" className="item-charts-table">
          <h2>Data table · {groupChartName(edited)} (edited)</h2>
          <ItemDataTable chart={edited} outcome={outcome} chartName={groupChartName(edited)} />
        </section>
      )}
    </div>
  );
}

function SingleChartPanel({ item }: { item: { id: number; chart_id: number; edit: unknown } }) {
  const chart = useChart(item.chart_id);
  const fetched = chart.data?.chart;
  const shown = useMemo(() => {
    // Items are made only on charts with a table; a chart without one (image only) shows no panel.
    if (!fetched || fetched.data_table === null) return null;
    const detail: ItemChart = { ...fetched, data_table: fetched.data_table };
    return { detail, outcome: counterfactualOf(detail.data_table, item.edit) };
  }, [fetched, item.edit]);
  if (chart.isPending) return <p className="muted">Loading the chart…</p>;
  if (chart.isError) return <LoadError what="the chart" error={chart.error} />;
  if (!shown) return null;
  const { detail, outcome } = shown;
  return (
    <div className="item-charts" data-testid="item-charts-panel">
      <ItemCharts itemId={item.id} chart={detail} outcome={outcome} />
      <section aria-label="Data table" className="item-charts-table">
        <h2>Data table</h2>
        <ItemDataTable chart={detail} outcome={outcome} />
      </section>
    </div>
  );
}
