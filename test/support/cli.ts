import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const TSX = resolve('node_modules/.bin/tsx');
const CLI = resolve('server/cli/main.ts');

/** Runs the real CLI (`npm run --silent hqa -- …` runs the same file) against a database file. */
export function runCli(
  args: string[],
  options: { dbPath: string; input?: string; env?: Record<string, string> },
): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(TSX, [CLI, ...args], {
    // An API key in the developer's environment must not turn tests into network calls.
    env: { ...process.env, OPENAI_API_KEY: '', HQA_DB: options.dbPath, HQA_LOG_LEVEL: 'silent', ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The CLI without blocking this process: for commands that talk to a server the test runs (the fake OpenAI). */
export function runCliAsync(
  args: string[],
  options: { dbPath: string; env?: Record<string, string> },
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(TSX, [CLI, ...args], {
      env: { ...process.env, OPENAI_API_KEY: '', HQA_DB: options.dbPath, HQA_LOG_LEVEL: 'silent', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolveRun({ status: code ?? -1, stdout, stderr }));
  });
}
