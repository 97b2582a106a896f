import { Router } from 'express';
import { ChartListQuerySchema, UpdateChartRequestSchema } from '../../shared/api/charts';
import { IdParamSchema } from '../../shared/api/common';
import type { AppContext } from '../app-context';
import { requireRole } from '../auth/auth-middleware';
import { notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import { chartFacets, getChartDetail, getChartSummary, listCharts, listQasForChart, setChartType } from './chart-queries';
import { chartImage } from './chart-image';

export function chartRoutes(ctx: AppContext): Router {
  const router = Router();
  const reviewer = requireRole(ctx.db, 'reviewer');
  const curator = requireRole(ctx.db, 'curator');

  router.get('/', reviewer, (req, res) => {
    const query = parseInput(ChartListQuerySchema, req.query, 'query');
    const { charts, total } = listCharts(ctx.db, query);
    res.json({ charts, total, page: query.page, page_size: query.page_size });
  });

  router.get('/facets', reviewer, (_req, res) => {
    res.json(chartFacets(ctx.db));
  });

  router.get('/:id', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const chart = getChartDetail(ctx.db, id);
    if (!chart) throw notFound(`chart ${id}`);
    res.json({ chart, qas: listQasForChart(ctx.db, id) });
  });

  router.patch('/:id', curator, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const { chart_type } = parseInput(UpdateChartRequestSchema, req.body, 'body');
    if (!setChartType(ctx.db, id, chart_type, 'curator')) throw notFound(`chart ${id}`);
    const chart = getChartSummary(ctx.db, id);
    if (!chart) throw notFound(`chart ${id}`);
    ctx.publish('chart.updated', { chart });
    res.json({ chart });
  });

  router.get('/:id/image', reviewer, async (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const image = await chartImage(ctx.db, id);
    if (!image) throw notFound(`chart ${id}`);
    res.setHeader('ETag', `"${image.etag}"`);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('X-Chart-Image', image.rendered ? 'rendered' : 'original');
    if (req.headers['if-none-match'] === `"${image.etag}"`) {
      res.status(304).end();
      return;
    }
    res.type('png').send(image.png);
  });
  return router;
}
