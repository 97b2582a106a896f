import { createInterface } from 'node:readline';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { BATCH_EVENT } from '../shared/events';

/**
 * The reviewers' open review pages for bench/review.ts, in a process of their own as browsers
 * are: the events every claim and submit send to all of them are decoded here, not on the
 * event loop that times the requests (there they delayed the very responses being timed).
 * Reads `{ url, cookies }` as one JSON line on stdin, connects one socket per cookie, prints
 * `ready`, and on a line `count` prints how many events the sockets have received in all.
 */
const lines = createInterface({ input: process.stdin });
const sockets: Socket[] = [];
let received = 0;

async function connectAll(url: string, cookies: string[]): Promise<void> {
  for (const cookie of cookies) {
    const socket = connectSocket(url, { extraHeaders: { cookie }, transports: ['websocket'], reconnection: false });
    // A batch of events is one frame: count the events in it.
    socket.onAny((event: string, payload: unknown) => void (received += event === BATCH_EVENT && Array.isArray(payload) ? payload.length : 1));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    sockets.push(socket);
  }
}

lines.on('line', (line) => {
  if (line === 'count') return void process.stdout.write(`${received}\n`);
  const { url, cookies } = JSON.parse(line) as { url: string; cookies: string[] };
  connectAll(url, cookies).then(
    () => process.stdout.write('ready\n'),
    (error: unknown) => {
      process.stderr.write(`sockets did not connect: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
lines.on('close', () => {
  for (const socket of sockets) socket.close();
  process.exit(0);
});
