import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import type { AppContext } from './app-context';
import { auditRoutes } from './audit/audit-routes';
import { authRoutes } from './auth/auth-routes';
import { sessionCookieGuard, sessionCookieSpec } from './auth/session-cookie';
import { chartGroupRoutes } from './charts/chart-group-routes';
import { chartRoutes } from './charts/chart-routes';
import { hostGuard } from './http/allowed-hosts';
import { apiNotFound, errorHandler } from './http/error-handler';
import { healthRoutes } from './http/health-routes';
import { requestLog } from './http/request-log';
import { dispatchByArea } from './http/route-dispatch';
import { securityHeaders } from './http/security-headers';
import { splitRoutes } from './splits/split-routes';
import { writeGuard } from './http/write-guard';
import { userRoutes } from './users/user-routes';
import { itemRoutes } from './items/item-routes';
import { itemDiscussionRoutes } from './items/item-discussion-routes';
import { poolRoutes } from './pool/pool-routes';
import type { RunExecutor } from './generation/run-executor';
import { runRoutes } from './generation/run-routes';
import { settingsRoutes } from './settings/settings-routes';
import type { ReviewCommands } from './review/review-commands';
import type { TeamStatsSource } from './review/team-stats-thread';
import { reviewRoutes } from './review/review-routes';
import type { FeedbackLoop } from './reflection/reflection-service';
import type { ReflectionBatches } from './reflection/reflection-batches';
import { reflectionRoutes } from './reflection/reflection-routes';
import { exportRoutes } from './export/export-routes';
import { analyticsRoutes } from './analytics/analytics-routes';
import { overviewRoutes } from './overview/overview-routes';
import type { EvalExecutor } from './eval/eval-executor';
import { EVAL_IMPORT_PATH, evalRoutes, SCORE_FILE_PATH } from './eval/eval-routes';
import { tableRoutes } from './tables/table-routes';
import { extractionJobRoutes } from './tables/extraction-job-routes';
import type { ExtractionJobs } from './tables/extraction-jobs';
import { chartTypeRoutes } from './chart-types/chart-type-routes';
import type { ChartTypeJobs } from './chart-types/chart-type-jobs';

/** JSON bodies are small (reviews, settings); big inputs arrive through the CLI (or the predictions import). */
export const JSON_BODY_LIMIT = '256kb';
export { VERSION } from './http/health-routes';

/** The long-lived services routes drive (they outlive a request: runs, batches, events). */
export interface AppServices {
  executor: RunExecutor;
  review: ReviewCommands;
  evalExecutor: EvalExecutor;
  feedbackLoop: FeedbackLoop;
  reflectionBatches: ReflectionBatches;
  extractionJobs: ExtractionJobs;
  chartTypeJobs: ChartTypeJobs;
  teamStats: TeamStatsSource;
}

export function createApp(ctx: AppContext, services: AppServices): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // API answers are live state, never revalidated: hashing every JSON body for a weak ETag costs
  // a SHA-1 per response for nothing. The chart image sets its own; static files have theirs.
  app.set('etag', false);
  // One hop: the proxy in front is trusted, not whatever X-Forwarded-For a client adds before it.
  app.set('trust proxy', ctx.config.trustProxy ? 1 : false);
  app.use(securityHeaders(ctx.config));
  app.use(requestLog(ctx.logger));
  // First of all: a name the attacker re-pointed at this machine gets nothing, not even the page.
  app.use(hostGuard(ctx.config));
  // Before any body is read: a forged or non-JSON write is refused unparsed.
  app.use('/api', writeGuard(ctx.config));
  app.use(sessionCookieGuard(sessionCookieSpec(ctx.config)));
  const smallJson = express.json({ limit: JSON_BODY_LIMIT });
  // The predictions import and file scoring parse their own, bigger bodies — after the role check, not before.
  app.use((req, res, next) => (req.path === EVAL_IMPORT_PATH || req.path === SCORE_FILE_PATH ? next() : smallJson(req, res, next)));

  // Each domain's routes carry their full paths (from the shared/api descriptors), mounted with handle().
  // One middleware over them, which runs only the routers of the request's area (http/route-dispatch.ts).
  app.use(
    dispatchByArea([
      healthRoutes(ctx),
      authRoutes(ctx),
      userRoutes(ctx),
      auditRoutes(ctx),
      chartRoutes(ctx),
      tableRoutes(ctx),
      chartGroupRoutes(ctx),
      extractionJobRoutes(ctx, services.extractionJobs),
      chartTypeRoutes(ctx, services.chartTypeJobs),
      poolRoutes(ctx),
      itemRoutes(ctx),
      itemDiscussionRoutes(ctx),
      runRoutes(ctx, services.executor),
      settingsRoutes(ctx, services.review),
      reviewRoutes(ctx, services.review, services.teamStats),
      reflectionRoutes(ctx, services.feedbackLoop, services.reflectionBatches),
      exportRoutes(ctx),
      analyticsRoutes(ctx),
      overviewRoutes(ctx),
      evalRoutes(ctx, services.evalExecutor),
      splitRoutes(ctx),
    ]),
  );
  app.use('/api', apiNotFound());

  const indexHtml = join(ctx.config.clientDir, 'index.html');
  // Vite names every file under assets/ by a hash of its content, so a browser may keep one for
  // good: without this, each page load asked again for ~60 of them (a 304 apiece). A name that
  // is not there (a tab open across an upgrade) is a 404, not the app's HTML in place of a script.
  app.use('/assets', express.static(join(ctx.config.clientDir, 'assets'), { index: false, immutable: true, maxAge: '1y' }), (_req, res) => {
    res.status(404).type('text').send('No such file: the client was rebuilt since this page loaded; reload it.');
  });
  app.use(express.static(ctx.config.clientDir, { index: false }));
  // Client-side routes (/charts/12, /admin …) all load the single-page app.
  app.get('/{*splat}', (_req, res) => {
    if (existsSync(indexHtml)) res.sendFile(indexHtml);
    else res.status(503).type('text').send('The client is not built: run `npm run build` (npm start does it for you).');
  });
  app.use(errorHandler(ctx.logger));
  return app;
}
