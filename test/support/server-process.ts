import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
}

/**
 * Starts `server/main.ts` as `npm start` does (without the client build) and waits for its URL.
 * Node itself runs the server (tsx as its loader), so a signal reaches the server: the `tsx`
 * command would run it in a child of its own, which a SIGKILL of `tsx` leaves running.
 * `nodeArgs` go to Node before the loader (a benchmark's `--cpu-prof`).
 */
export async function startServerProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', resolve('server/main.ts')], {
    env: { ...process.env, HQA_PORT: '0', HQA_LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const check = () => {
      const match = /Open (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        // Matching the whole output again on every later chunk grows with it (a chatty server's log).
        child.stdout.off('data', check);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output };
}

export function stopProcess(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolveExit) => {
    // A child a signal ended has no exit code but a signal code, and sends no second `exit`.
    if (child.exitCode !== null || child.signalCode !== null) return resolveExit(child.exitCode);
    child.once('exit', (code) => resolveExit(code));
    child.kill(signal);
  });
}
