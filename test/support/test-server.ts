import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import type { Role } from '../../shared/domain/roles';
import { loadConfig, type Config } from '../../server/config';
import { PortInUseError } from '../../server/bootstrap/listen';
import { startServer, type RunningServer } from '../../server/start-server';
import { createUser as createUserInDb } from '../../server/users/user-service';

export interface TestServer {
  url: string;
  dbPath: string;
  server: RunningServer;
  createUser(username: string, role: Role, password: string): Promise<void>;
  close(): Promise<void>;
}

/** Ports of this process's test servers that are open now. */
const portsInUse = new Set<number>();
/** Each Vitest worker (VITEST_POOL_ID 1, 2, …) has its own ports, below Linux's ephemeral range. */
const PORTS_PER_WORKER = 16;
const FIRST_PORT = 21_000;

/**
 * The ports a server of this worker tries, lowest first, then any free one (0). A test file's
 * server gets the port an earlier file's had: the browser pool's contexts keep their HTTP and
 * code caches per origin (port included), and a new origin cost each context ~1.6 s of CPU for
 * the client's hashed files fetched and compiled again (~0.6 s a later load).
 */
function candidatePorts(): number[] {
  const worker = Number(process.env.VITEST_POOL_ID ?? 0);
  if (!Number.isInteger(worker) || worker < 1) return [0];
  const first = FIRST_PORT + (worker - 1) * PORTS_PER_WORKER;
  return [...Array.from({ length: PORTS_PER_WORKER }, (_, k) => first + k).filter((port) => !portsInUse.has(port)), 0];
}

/** `startServer` on the first candidate port not taken (by another process: a second checkout's tests, a user's server). */
async function startOnStablePort(config: Config, logger: Logger): Promise<RunningServer> {
  for (const port of candidatePorts()) {
    if (port !== 0) portsInUse.add(port);
    try {
      return await startServer({ ...config, port }, logger);
    } catch (error) {
      portsInUse.delete(port);
      if (!(error instanceof PortInUseError) || port === 0) throw error;
    }
  }
  throw new Error('no port tried');
}

/**
 * The real server on a port of its own with a temporary SQLite file, serving the built
 * client from dist/client, the demo split imported unless `demo: false`, logging nowhere
 * unless given a `logger`.
 */
export async function startTestServer(options: { demo?: boolean; config?: Partial<Config>; logger?: Logger } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hqa-test-'));
  const dbPath = join(dir, 'hqa.sqlite');
  const config: Config = {
    ...loadConfig({}),
    dbPath,
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    demoOnEmpty: options.demo ?? true,
    loginRateLimit: 1000,
    loginAccountRateLimit: 1000,
    clientDir: resolve('dist/client'),
    // Each test starts its own server: the warm-up's claims would add to every start (its own test turns it on).
    warmUp: false,
    ...options.config,
  };
  const logger = options.logger ?? pino({ level: 'silent' });
  const server = options.config?.port === undefined ? await startOnStablePort(config, logger) : await startServer(config, logger);
  const port = new URL(server.url).port;
  return {
    url: server.url,
    dbPath,
    server,
    async createUser(username, role, password) {
      await createUserInDb(server.ctx.db, username, role, password);
    },
    async close() {
      try {
        await server.close();
      } finally {
        portsInUse.delete(Number(port));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
