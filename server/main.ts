import { pino } from 'pino';
import { DatabaseUnwritableError } from '../db/storage-errors';
import { PortInUseError } from './bootstrap/listen';
import { loadConfig } from './config';
import { ConfigError } from './config-error';
import { hasModelEndpoint } from './llm/model-roles';
import { closeThreadPools } from './jobs/thread-pool';

/** `npm start`: the workbench on HQA_PORT with its embedded defaults. */
const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    // A setting the user mistyped: one line naming it, not a stack trace.
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Chart-HQA Workbench cannot start: ${error.message}\n`);
    process.exit(1);
  }
})();
/**
 * Log lines are gathered and written 4 KB (or 200 ms) at a time, not one write(2) each: at
 * info every request logs a line, and its system call cost a claim a tenth of its time
 * (bench/review.ts). What is gathered is written before the start-up banner and at exit,
 * whatever ends the process short of SIGKILL.
 */
const logDestination = pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 200 });
process.on('exit', () => logDestination.flushSync());
const logger = pino({ level: config.logLevel }, logDestination);
// The server's code (~800 modules) is loaded once the settings are read: a mistyped one is told
// at once, not after seconds of loading.
const { startServer } = await import('./start-server');
const { firstStartBanner, firstStartReminder } = await import('./bootstrap/first-start');
const server = await startServer(config, logger).catch((error: unknown) => {
  // The start failures a user causes and fixes: one line, not a stack trace. A taken port is
  // found before the admin is created, so the one-time password is not lost with it.
  if (error instanceof PortInUseError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof DatabaseUnwritableError) process.stderr.write(`Chart-HQA Workbench cannot start: ${error.message}\n`);
  else throw error;
  process.exit(1);
});

// Printed once the server listens, and its one line again last, below whatever start-up logged.
logDestination.flushSync();
if (server.adminPassword) process.stdout.write(firstStartBanner(server.adminPassword));
logger.info({ url: server.url, db: config.dbPath, engine: hasModelEndpoint(config) ? 'openai' : 'offline' }, 'Chart-HQA Workbench is listening');
logDestination.flushSync();
process.stdout.write(`  Open ${server.url}\n`);
if (server.adminPassword) process.stdout.write(`${firstStartReminder(server.adminPassword)}\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void server
      .close()
      .then(closeThreadPools)
      .then(() => process.exit(0));
  });
}
