import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import type { Role } from '../../shared/domain/roles';
import { loadConfig, type Config } from '../../server/config';
import { startServer, type RunningServer } from '../../server/start-server';
import { createUser as createUserInDb } from '../../server/users/user-service';

export interface TestServer {
  url: string;
  dbPath: string;
  server: RunningServer;
  createUser(username: string, role: Role, password: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real server on an ephemeral port with a temporary SQLite file, serving the built
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
  const server = await startServer(config, options.logger ?? pino({ level: 'silent' }));
  return {
    url: server.url,
    dbPath,
    server,
    async createUser(username, role, password) {
      await createUserInDb(server.ctx.db, username, role, password);
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
