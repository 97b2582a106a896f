import { Agent, request } from 'node:http';

/**
 * A reviewer's browser as the review benchmark needs it: one keep-alive connection, a session
 * cookie, JSON in and out, and nothing else. A timing client shares its machine (two cores here)
 * and its one thread with the many requests it times; fetch with a zod parse of every answer
 * spent ~1 ms of the client's thread per request, and a burst's last answer waited in the
 * client behind the 49 before it — time the server had not spent.
 */
export class KeepAliveClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly url: URL;

  constructor(
    baseUrl: string,
    private readonly cookie: string,
  ) {
    this.url = new URL(baseUrl);
  }

  /** POSTs `body` and resolves with the status, the raw body, and when its last byte arrived (performance.now()). */
  post(path: string, body: unknown): Promise<{ status: number; text: string; at: number }> {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path,
          method: 'POST',
          agent: this.agent,
          headers: { cookie: this.cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), at: performance.now() }));
          res.on('error', reject);
        },
      );
      req.on('error', (error) => reject(new Error(`POST ${path}: ${error.message}`)));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
