import { closeThreadPools } from '../jobs/thread-pool';
import { runHqa } from './program';

/**
 * `npm run --silent hqa -- <command>` (server/cli/program.ts holds the commands). The thread
 * pools are the process's, not a command's: they end here, once, when the process's one command
 * has, so that a process running several commands (the tests run them in-process) starts each
 * pool's threads once.
 */
try {
  process.exitCode = await runHqa(process.argv.slice(2));
} finally {
  await closeThreadPools();
}
