import { z } from 'zod';
import { immediateTransaction } from '../../db/transactions';
import type { ChartSummary } from '../../shared/api/charts';
import { ChartTypeSchema, TypeEvidenceSchema, TypeSourceSchema, type ChartType } from '../../shared/domain/chart-types';
import type { AppContext } from '../app-context';
import { listAuditEntries } from '../audit/audit-queries';
import { getChartSummary } from '../charts/chart-queries';
import { DomainError, notFound } from '../domain-error';
import { reverifyChartItems } from '../review/chart-reverify';
import { chartTypeState, setChartTypeState, type ChartTypeState } from './chart-type-queries';

/**
 * A curator's decisions on chart types (the chart page's type control and the triage): each
 * one transaction with its audit entry (before and after, so it can be undone) and, when the
 * type changed, the chart's items verified again (the layout lint reads the type); it says
 * `chart.updated` in that transaction, and every client is told once it committed.
 */

const StateSchema = z.object({ chart_type: ChartTypeSchema, type_source: TypeSourceSchema, type_evidence: TypeEvidenceSchema.nullable() });
/** What a `chart.type_changed` entry keeps: the type before and after the decision. */
const DecisionDetailsSchema = z.object({ from: StateSchema, to: StateSchema });

const sameState = (a: ChartTypeState, b: ChartTypeState) => a.chart_type === b.chart_type && a.type_source === b.type_source && a.type_evidence === b.type_evidence;

/** Inside the decision's transaction: the chart as it now reads, said to be updated. */
function updated(ctx: Pick<AppContext, 'db' | 'events'>, chartId: number): ChartSummary {
  const chart = getChartSummary(ctx.db, chartId);
  if (!chart) throw notFound(`chart ${chartId}`);
  ctx.events.emit('chart.updated', { chart });
  return chart;
}

/** The chart's type as the curator sets it (confirming the stored one is setting it too): source `curator`, confirmed. */
export function decideChartType(ctx: AppContext, chartId: number, chartType: ChartType, actorId: number | null): ChartSummary {
  const { db } = ctx;
  return immediateTransaction(db, () => {
    const before = chartTypeState(db, chartId);
    if (!before) throw notFound(`chart ${chartId}`);
    const after: ChartTypeState = { chart_type: chartType, type_source: 'curator', type_evidence: null };
    setChartTypeState(db, chartId, after);
    const from: ChartTypeState = { chart_type: before.chart_type, type_source: before.type_source, type_evidence: before.type_evidence };
    ctx.events.emit('chart.type_changed', { actor_id: actorId, chart_id: chartId, chart: before.name, from, to: after });
    if (before.has_table && before.chart_type !== chartType) reverifyChartItems(db, chartId);
    return updated(ctx, chartId);
  });
}

/**
 * Puts back the type the chart had before its latest decision, if the chart still has the type
 * that decision set (a later decision, or an undo already done, leaves nothing to undo: 409).
 */
export function undoChartTypeDecision(ctx: AppContext, chartId: number, actorId: number | null): ChartSummary {
  const { db } = ctx;
  return immediateTransaction(db, () => {
    const current = chartTypeState(db, chartId);
    if (!current) throw notFound(`chart ${chartId}`);
    const [latest] = listAuditEntries(db, { action: 'chart.type_changed', target_type: 'chart', target_id: String(chartId) }, 1);
    if (!latest) throw new DomainError('conflict', `chart ${chartId} (${current.name}): no type decision to undo`);
    const { from, to } = DecisionDetailsSchema.parse(latest.details);
    if (!sameState(current, to) || !setChartTypeState(db, chartId, from, to)) {
      throw new DomainError('conflict', `chart ${chartId} (${current.name}): its type is no longer what the latest decision set (undone already, or changed since)`);
    }
    ctx.events.emit('chart.type_change_undone', { actor_id: actorId, chart_id: chartId, chart: current.name, from: to, to: from, undoes: latest.id });
    if (current.has_table && from.chart_type !== to.chart_type) reverifyChartItems(db, chartId);
    return updated(ctx, chartId);
  });
}
