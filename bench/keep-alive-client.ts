import { connect, type Socket } from 'node:net';

/**
 * A reviewer's browser as the review benchmark needs it: one keep-alive HTTP/1.1 connection, a
 * session cookie, JSON in and out, one request at a time, and nothing else. The timing client
 * shares its machine (two cores here) with the server it times: with node:http (ClientRequest,
 * IncomingMessage, streams, an agent) it spent 0.5-0.7 ms of CPU per request, and each answer's
 * wake-up of that busy process took the server's core from it for milliseconds at a time in
 * the middle of a write (bench/review.ts profile). Here a request is one string written to a
 * socket and an answer is read by its Content-Length, which is all the server sends (it never
 * chunks a JSON answer).
 */
export class KeepAliveClient {
  private socket: Socket | null = null;
  private readonly url: URL;
  private pending: { resolve: (answer: { status: number; text: string; at: number }) => void; reject: (error: Error) => void; path: string } | null = null;
  private buffered: Buffer = Buffer.alloc(0);

  constructor(
    baseUrl: string,
    private readonly cookie: string,
  ) {
    this.url = new URL(baseUrl);
  }

  private open(): Socket {
    const socket = connect({ host: this.url.hostname, port: Number(this.url.port), noDelay: true });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => {
      if (this.socket === socket) this.socket = null;
      this.fail(new Error('the server closed the connection'));
    });
    this.socket = socket;
    return socket;
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = null;
    this.buffered = Buffer.alloc(0);
    pending?.reject(new Error(`POST ${pending.path}: ${error.message}`));
  }

  /** Reads the answer once its head and its Content-Length of body are in. */
  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0 || !this.pending) return;
    const head = this.buffered.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
    if (length === undefined) return this.fail(new Error(`an answer without Content-Length: ${head.split('\r\n')[0] ?? ''}`));
    const end = headEnd + 4 + Number(length);
    if (this.buffered.length < end) return;
    const status = Number(head.slice(9, 12));
    const text = this.buffered.toString('utf8', headEnd + 4, end);
    const at = performance.now();
    this.buffered = this.buffered.subarray(end);
    const pending = this.pending;
    this.pending = null;
    pending.resolve({ status, text, at });
  }

  /** POSTs `body` and resolves with the status, the raw body, and when its last byte arrived (performance.now()). */
  post(path: string, body: unknown): Promise<{ status: number; text: string; at: number }> {
    if (this.pending) return Promise.reject(new Error(`POST ${path}: a request is already on this connection`));
    const payload = JSON.stringify(body);
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, path };
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${this.url.host}\r\nCookie: ${this.cookie}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: keep-alive\r\n\r\n${payload}`,
      );
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}
