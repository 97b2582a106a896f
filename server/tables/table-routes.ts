import type { Router } from 'express';
import { tablesApi } from '../../shared/api/tables';
import { typeKeptByExtraction } from '../../shared/domain/chart-types';
import type { AppContext } from '../app-context';
import { getChartSummary } from '../charts/chart-queries';
import { DomainError, notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { getChartTable } from './table-queries';
import { confirmTable, extractChart, extractorFor, saveCuratorTable, unconfirmTable } from './table-service';

export function tableRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  /** Other clients' chart lists and pages refetch the chart whose table changed. */
  const announce = (chartId: number) => {
    const chart = getChartSummary(ctx.db, chartId);
    if (chart) ctx.publish('chart.updated', { chart });
  };

  handle(api, tablesApi.get, 'reviewer', ({ params: { id } }) => {
    const table = getChartTable(ctx.db, id);
    if (!table) throw notFound(`chart ${id}`);
    return table;
  });
  handle(api, tablesApi.save, 'curator', ({ params: { id }, body, user }) => {
    const saved = saveCuratorTable(ctx.db, id, body, user.id);
    announce(id);
    return saved;
  });
  handle(api, tablesApi.confirm, 'curator', ({ params: { id }, user }) => {
    const confirmed = confirmTable(ctx.db, id, user.id);
    announce(id);
    return confirmed;
  });
  handle(api, tablesApi.unconfirm, 'curator', ({ params: { id }, user }) => {
    const unconfirmed = unconfirmTable(ctx.db, id, user.id);
    announce(id);
    return unconfirmed;
  });
  handle(api, tablesApi.extract, 'curator', async ({ params: { id }, res }) => {
    const current = getChartTable(ctx.db, id);
    if (!current) throw notFound(`chart ${id}`);
    if (!current.has_image) throw new DomainError('conflict', `chart ${id} has no stored image to read a table from`);
    const extractor = extractorFor(ctx.db, ctx.config);
    const summary = getChartSummary(ctx.db, id);
    const name = summary ? `${summary.split}/${summary.imgname}` : `chart ${id}`;
    // A closed tab stops the request: the model is not asked to finish for no one.
    const controller = new AbortController();
    res.once('close', () => res.writableFinished || controller.abort());
    const result = await extractChart(ctx.db, extractor, { id, name, chart_type: summary?.chart_type ?? 'other', type_known: summary !== null && typeKeptByExtraction(summary.type_source) }, controller.signal);
    if (!result.ok) throw new DomainError('conflict', `chart ${id} (${name}): extraction by ${extractor.model} failed: ${result.kind}: ${result.reason}`);
    announce(id);
    const table = getChartTable(ctx.db, id);
    if (!table) throw notFound(`chart ${id}`);
    return { table, model: extractor.model, attempts: result.attempts, cost: result.usage.cost, priced: result.usage.priced };
  });
  return api.router;
}
