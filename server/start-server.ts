import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { openAndMigrate } from '../db/database';
import { createApp } from './app';
import type { AppContext } from './app-context';
import { ensureAdmin, importDemoIfEmpty } from './bootstrap/first-start';
import type { Config } from './config';
import { attachRealtime } from './realtime/realtime';

export interface RunningServer {
  url: string;
  ctx: AppContext;
  /** The first-start admin password, when this start created the admin. */
  adminPassword: string | null;
  close: () => Promise<void>;
}

/** Opens and migrates the database, prepares a first start, and listens on config.port (0 = any free port). */
export async function startServer(config: Config, logger: Logger = pino({ level: config.logLevel })): Promise<RunningServer> {
  const db = openAndMigrate(config.dbPath);
  const adminPassword = await ensureAdmin(db);
  if (config.demoOnEmpty) importDemoIfEmpty(db, logger);

  const ctxRef: { publish: AppContext['publish'] } = { publish: () => undefined };
  const ctx: AppContext = { db, config, logger, publish: (event, payload) => ctxRef.publish(event, payload) };
  const app = createApp(ctx);
  const httpServer = createServer(app);
  const realtime = attachRealtime(httpServer, db);
  ctxRef.publish = realtime.publish;

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;

  let closing: Promise<void> | null = null;
  const close = () => {
    // Stop accepting, let in-flight requests finish (better-sqlite3 runs each transaction to
    // completion synchronously), then close sockets and the database.
    closing ??= new Promise<void>((resolve) => {
      realtime.io.close();
      httpServer.close(() => {
        db.close();
        resolve();
      });
      httpServer.closeIdleConnections();
    });
    return closing;
  };
  return { url, ctx, adminPassword, close };
}
