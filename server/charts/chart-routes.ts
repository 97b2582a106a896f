import type { Router } from 'express';
import { chartsApi } from '../../shared/api/charts';
import type { AppContext } from '../app-context';
import { notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { imageMediaType } from '../import/benchmark-image';
import { chartFacets, getChartDetail, getChartSummary, listCharts, listQasForChart } from './chart-queries';
import { chartImage } from './chart-image';
import { decideChartType } from '../chart-types/type-decisions';

export function chartRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);

  handle(api, chartsApi.list, 'reviewer', ({ query }) => {
    const { charts, total } = listCharts(ctx.db, query);
    return { charts, total, page: query.page, page_size: query.page_size };
  });
  handle(api, chartsApi.facets, 'reviewer', () => chartFacets(ctx.db));
  handle(api, chartsApi.get, 'reviewer', ({ params: { id } }) => {
    const chart = getChartDetail(ctx.db, id);
    if (!chart) throw notFound(`chart ${id}`);
    return { chart, qas: listQasForChart(ctx.db, id) };
  });
  handle(api, chartsApi.update, 'curator', ({ params: { id }, body, user }) => ({ chart: decideChartType(ctx, id, body.chart_type, user.id) }));

  handle(api, chartsApi.image, 'reviewer', async ({ params: { id }, req, res }) => {
    const image = await chartImage(ctx.db, id);
    if (!image) throw notFound(getChartSummary(ctx.db, id)?.image_missing ? `the image of chart ${id} (image missing: not imported)` : `chart ${id}`);
    res.setHeader('ETag', `"${image.etag}"`);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('X-Chart-Image', image.rendered ? 'rendered' : 'original');
    if (req.headers['if-none-match'] === `"${image.etag}"`) {
      res.status(304).end();
      return;
    }
    // Benchmark images may be JPEG (CharXiv); the stored bytes say which.
    res.type(imageMediaType(image.png) ?? 'image/png').send(image.png);
  });
  return api.router;
}
