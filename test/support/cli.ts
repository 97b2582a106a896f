import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';

const TSX = resolve('node_modules/.bin/tsx');
const CLI = resolve('server/cli/main.ts');

/**
 * The CLI as its own process (`npm run --silent hqa -- …` runs the same file), without blocking
 * this one: for a test about two processes sharing the database (a CLI import beside a server's
 * run contends for SQLite's lock as users' would), or one reading stdin (`hqa user add`).
 */
export function runCliProcess(args: string[], options: { dbPath: string; env?: Record<string, string>; input?: string }): Promise<CliResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(TSX, [CLI, ...args], {
      // An API key in the developer's environment must not turn tests into network calls.
      env: { ...process.env, OPENAI_API_KEY: '', HQA_DB: options.dbPath, HQA_LOG_LEVEL: 'silent', ...options.env },
    });
    // What a user pipes in (a password); an empty stdin otherwise, as a pipe with nothing in it.
    child.stdin.end(options.input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolveRun({ status: code ?? -1, stdout, stderr }));
  });
}

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** In-process runs one at a time: each holds the process's stdout, stderr, exit code and environment. */
let inProcessQueue: Promise<unknown> = Promise.resolve();

/**
 * The CLI run in this process (`runHqa`, what `server/cli/main.ts` runs): the same commands and
 * output without a new Node and tsx start (seconds each on this machine; the suite runs the CLI
 * about a hundred times). Its environment, stdout, stderr and exit code are this process's for
 * the run and put back after it, its stdin too: `input` as a pipe would give it (an empty pipe
 * without), never the test runner's own.
 */
export function runCli(args: string[], options: { dbPath: string; env?: Record<string, string>; input?: string }): Promise<CliResult> {
  const run = inProcessQueue.then(() => runInProcess(args, options));
  inProcessQueue = run.catch(() => undefined);
  return run;
}

type Write = typeof process.stdout.write;

/** A stream's write that appends to `sink` instead (a callback passed to write is still called). */
function capture(sink: (text: string) => void): Write {
  return ((chunk: string | Uint8Array, encodingOrCallback?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void) => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (done) queueMicrotask(() => done());
    return true;
  }) as Write;
}

async function runInProcess(args: string[], options: { dbPath: string; env?: Record<string, string>; input?: string }): Promise<CliResult> {
  const vars: Record<string, string> = { OPENAI_API_KEY: '', HQA_DB: options.dbPath, HQA_LOG_LEVEL: 'silent', ...options.env };
  const previousEnv = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  const previousExitCode = process.exitCode;
  const [out, err] = [process.stdout.write, process.stderr.write];
  let stdout = '';
  let stderr = '';
  Object.assign(process.env, vars);
  // `process.stdin` is a getter of Node's: replaced for the run by a stream that is not a terminal, as a pipe is.
  const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');
  Object.defineProperty(process, 'stdin', { value: Readable.from(options.input ? [Buffer.from(options.input)] : []), configurable: true, writable: true });
  process.stdout.write = capture((text) => (stdout += text));
  process.stderr.write = capture((text) => (stderr += text));
  try {
    const { runHqa } = await import('../../server/cli/program');
    const status = await runHqa(args);
    return { status, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    if (stdin) Object.defineProperty(process, 'stdin', stdin);
    for (const [key, value] of Object.entries(previousEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    process.exitCode = previousExitCode;
  }
}
