import type { Router } from 'express';
import { tablesApi } from '../../shared/api/tables';
import type { AppContext } from '../app-context';
import { getChartSummary } from '../charts/chart-queries';
import { HttpError, notFound } from '../http/http-error';
import { apiRouter, handle } from '../http/handle';
import { getChartTable } from './table-queries';
import { ChartTableError, confirmTable, extractChart, extractorFor, saveCuratorTable } from './table-service';

/** A domain refusal as the client's error: a missing chart is 404, anything else a conflict with the chart's state, named. */
function asHttpError(error: unknown): unknown {
  if (!(error instanceof ChartTableError)) return error;
  return error.reason === 'not_found' ? notFound(error.message.replace(/ not found$/, '')) : new HttpError('conflict', error.message);
}

async function refusalsAsHttp<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asHttpError(error);
  }
}

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
  handle(api, tablesApi.save, 'curator', ({ params: { id }, body }) =>
    refusalsAsHttp(() => {
      const saved = saveCuratorTable(ctx.db, id, body);
      announce(id);
      return saved;
    }),
  );
  handle(api, tablesApi.confirm, 'curator', ({ params: { id } }) =>
    refusalsAsHttp(() => {
      const confirmed = confirmTable(ctx.db, id);
      announce(id);
      return confirmed;
    }),
  );
  handle(api, tablesApi.extract, 'curator', ({ params: { id }, res }) =>
    refusalsAsHttp(async () => {
      const current = getChartTable(ctx.db, id);
      if (!current) throw notFound(`chart ${id}`);
      if (!current.has_image) throw new HttpError('conflict', `chart ${id} has no stored image to read a table from`);
      const extractor = extractorFor(ctx.db, ctx.config);
      const summary = getChartSummary(ctx.db, id);
      const name = summary ? `${summary.split}/${summary.imgname}` : `chart ${id}`;
      // A closed tab stops the request: the model is not asked to finish for no one.
      const controller = new AbortController();
      res.once('close', () => res.writableFinished || controller.abort());
      const result = await extractChart(ctx.db, extractor, { id, name, chart_type: summary?.chart_type ?? 'other' }, controller.signal);
      if (!result.ok) throw new HttpError('conflict', `chart ${id} (${name}): extraction by ${extractor.model} failed: ${result.kind}: ${result.reason}`);
      announce(id);
      const table = getChartTable(ctx.db, id);
      if (!table) throw notFound(`chart ${id}`);
      return { table, model: extractor.model, attempts: result.attempts, cost: result.usage.cost, priced: result.usage.priced };
    }),
  );
  return api.router;
}
