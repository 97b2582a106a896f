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

  handle(api, tablesApi.get, 'reviewer', ({ params: { id } }) => {
    const table = getChartTable(ctx.db, id);
    if (!table) throw notFound(`chart ${id}`);
    return table;
  });
  handle(api, tablesApi.save, 'curator', ({ params: { id }, body, user }) => {
    return saveCuratorTable(ctx.db, ctx.events, id, body, user.id);
  });
  handle(api, tablesApi.confirm, 'curator', ({ params: { id }, user }) => {
    return confirmTable(ctx.db, ctx.events, id, user.id);
  });
  handle(api, tablesApi.unconfirm, 'curator', ({ params: { id }, user }) => {
    return unconfirmTable(ctx.db, ctx.events, id, user.id);
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
    const result = await extractChart(ctx.db, extractor, { id, name, chart_type: summary?.chart_type ?? 'other', type_known: summary !== null && typeKeptByExtraction(summary.type_source) }, controller.signal, ctx.events);
    if (!result.ok) throw new DomainError('conflict', `chart ${id} (${name}): extraction by ${extractor.model} failed: ${result.kind}: ${result.reason}`);
    const table = getChartTable(ctx.db, id);
    if (!table) throw notFound(`chart ${id}`);
    return { table, model: extractor.model, attempts: result.attempts, cost: result.usage.cost, priced: result.usage.priced };
  });
  return api.router;
}
