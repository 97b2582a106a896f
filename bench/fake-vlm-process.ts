import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The fake vision model in a process of its own, as a real endpoint is: parsing each request's
 * base64 chart (tens of kilobytes) and answering it must not run on the event loop being
 * measured. Started as `node --import tsx bench/fake-vlm-process.ts <latency ms>`, it prints its URL.
 */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startFakeOpenAI, textReply } = await import('../test/support/fake-openai');
  const latency = Number(process.argv[2] ?? 100);
  const fake = await startFakeOpenAI({ defaultHandler: () => textReply('The tallest bar.\nAnswer: 42', { delayMs: latency }), keepRequests: false });
  process.stdout.write(`${fake.url}\n`);
  process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
}

/** Linux's clock ticks per second for /proc's CPU times (USER_HZ, 100 on every common kernel). */
const USER_HZ = 100;

/** CPU seconds a process used so far (user + system, from /proc); null where there is no /proc. */
function processCpuSeconds(pid: number | undefined): number | null {
  try {
    // The fields after the command name (which may hold spaces): utime and stime are its 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return null;
  }
}

/** Starts the fake in its own process; its URL, the CPU it has used, and a stop. */
export async function startFakeVlmProcess(latencyMs: number): Promise<{ url: string; cpuSeconds: () => number | null; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), String(latencyMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the fake model's process exited (${code}) before it listened`)));
  });
  return {
    url,
    cpuSeconds: () => processCpuSeconds(child.pid),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
