import { runHqa } from './program';

/** `npm run --silent hqa -- <command>` (server/cli/program.ts holds the commands). */
process.exitCode = await runHqa(process.argv.slice(2));
