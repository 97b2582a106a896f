import { createServer, type RequestListener, type Server } from 'node:http';
import { unusedConnections } from './http/unused-connections';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { pino, type Logger } from 'pino';
import { openAndMigrate, type Db } from '../db/database';
import { startWalCheckpointer, type WalCheckpointer } from '../db/wal-checkpointer';
import { createApp } from './app';
import { appObjects, type AppObjects } from './http/app-objects';
import type { AppContext } from './app-context';
import { ensureAdmin, importDemoIfEmpty } from './bootstrap/first-start';
import { listen } from './bootstrap/listen';
import type { Config } from './config';
import { LOG_REDACTION } from './http/log-redaction';
import { attachRealtime, type Realtime } from './realtime/realtime';
import { engineFactory } from './generation/engine-factory';
import { RunExecutor } from './generation/run-executor';
import { JobRegistry } from './jobs/job-registry';
import { keepReserve } from '../db/storage-reserve';
import { EvalExecutor } from './eval/eval-executor';
import { classifyLegacyItems } from './items/item-validity';
import { FeedbackLoop } from './reflection/reflection-service';
import { ReflectionBatches } from './reflection/reflection-batches';
import { ExtractionJobs } from './tables/extraction-jobs';
import { ChartTypeJobs } from './chart-types/chart-type-jobs';
import { ensureSeedProposals } from './pool/pool-service';
import { removeStaleUploadFolders } from './import/upload-folders';
import { leaseCountsByReviewer, nowIso } from './review/review-queries';
import { warmReviewPath } from './review/review-warmup';
import { warmReviewOverHttp } from './review/review-http-warmup';
import { sessionCookieName } from './auth/session-cookie';
import { teamStatsSource } from './review/team-stats-thread';
import { ReviewCommands } from './review/review-commands';
import { LEASE_SWEEP_MS, ReviewEvents } from './review/review-events';
import { DomainEvents } from './events/event-bus';
import { registerSubscribers } from './events/subscribers';

export interface RunningServer {
  url: string;
  /** The express app the HTTP server serves (the API contract test walks its routes). */
  app: Express;
  ctx: AppContext;
  /** Every durable job kind this server runs. */
  jobs: JobRegistry;
  executor: RunExecutor;
  evalExecutor: EvalExecutor;
  reflectionBatches: ReflectionBatches;
  extractionJobs: ExtractionJobs;
  chartTypeJobs: ChartTypeJobs;
  realtime: Realtime;
  /** The first-start admin password, when this start created the admin. */
  adminPassword: string | null;
  close: () => Promise<void>;
}

/** Until the app is built, a request that reaches the bound port is told to come back. */
const starting: RequestListener = (_req, res) => {
  res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('starting\n');
};

/**
 * Opens and migrates the database, binds config.port (0 = any free port), then prepares a first
 * start and builds the app. The port is bound first: a taken port (`PortInUseError`) ends the
 * start before the admin is created, so no one-time password is made and lost.
 */
export async function startServer(config: Config, logger: Logger = pino({ level: config.logLevel, redact: LOG_REDACTION })): Promise<RunningServer> {
  const db = openAndMigrate(config.dbPath);
  // WAL checkpoints (copy and sync) run beside the event loop, not in the commit of a request.
  const checkpointer = config.dbPath === ':memory:' ? null : startWalCheckpointer(db, config.dbPath, logger);
  let handler = starting;
  const objects = appObjects();
  const httpServer = createServer({ IncomingMessage: objects.Request, ServerResponse: objects.Response }, (req, res) => handler(req, res));
  try {
    await listen(httpServer, config.port, config.host);
  } catch (error) {
    await checkpointer?.stop();
    db.close();
    throw error;
  }
  try {
    return await prepare(config, logger, db, httpServer, objects, (listener) => (handler = listener), checkpointer);
  } catch (error) {
    httpServer.close();
    await checkpointer?.stop();
    db.close();
    throw error;
  }
}

async function prepare(
  config: Config,
  logger: Logger,
  db: Db,
  httpServer: Server,
  objects: AppObjects,
  serve: (listener: RequestListener) => void,
  checkpointer: WalCheckpointer | null,
): Promise<RunningServer> {
  const preconnects = unusedConnections(httpServer);
  if (config.demoOnEmpty) importDemoIfEmpty(db, logger);
  ensureSeedProposals(db);
  // A server that crashed mid-upload left its temporary folder behind, up to the upload limits in size.
  const staleUploads = removeStaleUploadFolders();
  if (staleUploads.length > 0) logger.info({ folders: staleUploads }, 'removed temporary folders of uploads a stopped server left behind');
  const classified = classifyLegacyItems(db);
  if (classified > 0) logger.info({ items: classified }, 'classified the question relation of items made before it existed');

  const ctxRef: Pick<AppContext, 'publish' | 'publishTo' | 'disconnectSockets'> = {
    publish: () => undefined,
    publishTo: () => undefined,
    disconnectSockets: () => undefined,
  };
  const events = new DomainEvents(db, logger);
  const ctx: AppContext = {
    db,
    config,
    logger,
    events,
    publish: (event, payload, sealed) => ctxRef.publish(event, payload, sealed),
    publishTo: (userId, event, payload) => ctxRef.publishTo(userId, event, payload),
    disconnectSockets: (target) => ctxRef.disconnectSockets(target),
  };
  const executor = new RunExecutor(ctx, engineFactory(ctx));
  const evalExecutor = new EvalExecutor(ctx);
  const feedbackLoop = new FeedbackLoop(ctx);
  const reflectionBatches = new ReflectionBatches(ctx, feedbackLoop);
  const extractionJobs = new ExtractionJobs(ctx);
  const chartTypeJobs = new ChartTypeJobs(ctx);
  // Room for a job to record its pause once the disk is full (db/storage-reserve.ts).
  if (!keepReserve(db)) logger.warn({ path: config.dbPath }, 'the disk is too full to set aside room for recording a pause: a job meeting a full disk may stay marked running until resumed');
  const jobs = new JobRegistry([executor, evalExecutor, reflectionBatches, extractionJobs, chartTypeJobs]);
  const presence = { broadcast: () => undefined as void };
  const reviewEvents = new ReviewEvents(ctx, () => presence.broadcast());
  // Every after-effect of a write, registered once, where the services it reaches are built.
  registerSubscribers(events, { db, publish: ctx.publish, publishTo: ctx.publishTo, disconnectSockets: ctx.disconnectSockets, reviewEvents, feedbackLoop, reflectionBatches, chartTypeJobs });
  const review = new ReviewCommands(db, events);
  const teamFigures = teamStatsSource(db, config.dbPath, logger);
  const app = createApp(ctx, { executor, review, evalExecutor, feedbackLoop, reflectionBatches, extractionJobs, chartTypeJobs, teamStats: teamFigures });
  objects.adopt(app);
  const realtime = attachRealtime(httpServer, db, () => leaseCountsByReviewer(db, nowIso()), config);
  ctxRef.publish = realtime.publish;
  ctxRef.publishTo = realtime.publishTo;
  ctxRef.disconnectSockets = realtime.disconnectSockets;
  presence.broadcast = () => void realtime.broadcastPresence();

  // Created once the port is ours: the caller prints it after the server listens.
  const adminPassword = await ensureAdmin(db);
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  warmReviewPath(db);
  // Before anything else writes: the warm-up's transaction is rolled back, with whatever joined it.
  if (config.warmUp) {
    try {
      const warmed = await warmReviewOverHttp({ db, cookieName: sessionCookieName(config.cookieSecure), url, app, others: starting, serve });
      logger.info({ claims: warmed.claims, requests: warmed.requests, ms: Math.round(warmed.ms) }, 'warmed up the review path');
    } catch (error) {
      logger.warn({ err: error }, 'the review warm-up failed: the first claims are served by cold code');
    }
  }
  const sweeper = setInterval(() => {
    try {
      review.sweepExpired();
    } catch (error) {
      logger.warn({ err: error }, 'lease sweep failed');
    }
  }, LEASE_SWEEP_MS);
  sweeper.unref();
  const sessionSweeper = setInterval(() => {
    realtime.sweepSessions().catch((error: unknown) => logger.warn({ err: error }, 'session sweep failed'));
  }, config.sessionSweepMs);
  sessionSweeper.unref();
  serve(app);
  // Every kind of durable job, resumed and stopped through one list.
  jobs.resumeOrphans(logger);

  let closing: Promise<void> | null = null;
  const close = () => {
    // Stop accepting, stop run workers (their runs stay `running` and resume at the next
    // start), let in-flight requests finish, then close sockets and the database.
    closing ??= (async () => {
      const httpClosed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      preconnects.destroyAll();
      clearInterval(sweeper);
      clearInterval(sessionSweeper);
      reviewEvents.close();
      await jobs.shutdown();
      realtime.io.close();
      await httpClosed;
      // The thread pools are the process's, not this server's (a test process starts many servers):
      // they end with the process (main.ts) or when idle.
      await Promise.all([checkpointer?.stop(), teamFigures.close()]);
      db.close();
    })();
    return closing;
  };
  return { url, app, ctx, jobs, executor, evalExecutor, reflectionBatches, extractionJobs, chartTypeJobs, realtime, adminPassword, close };
}
