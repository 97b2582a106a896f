import { pino } from 'pino';
import { DatabaseUnwritableError } from '../db/storage-errors';
import { loadConfig } from './config';
import { hasModelEndpoint } from './llm/model-roles';
import { startServer } from './start-server';

/** `npm start`: the workbench on HQA_PORT with its embedded defaults. */
const config = loadConfig();
const logger = pino({ level: config.logLevel });
const server = await startServer(config, logger).catch((error: unknown) => {
  // The one start failure a user causes and fixes: one line naming the file, not a stack trace.
  if (!(error instanceof DatabaseUnwritableError)) throw error;
  process.stderr.write(`Chart-HQA Workbench cannot start: ${error.message}\n`);
  process.exit(1);
});

if (server.adminPassword) {
  process.stdout.write(
    `\n  First start: created user "admin" with password\n\n      ${server.adminPassword}\n\n  It is shown only this once. Add more users on the Admin page or with \`npm run hqa -- user add\`.\n\n`,
  );
}
logger.info({ url: server.url, db: config.dbPath, engine: hasModelEndpoint(config) ? 'openai' : 'offline' }, 'Chart-HQA Workbench is listening');
process.stdout.write(`  Open ${server.url}\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void server.close().then(() => process.exit(0));
  });
}
