import { randomBytes } from 'node:crypto';
import { Agent, request, type IncomingMessage, type RequestListener } from 'node:http';
import type { Db } from '../../db/database';
import { rolledBack } from '../../db/transactions';
import { endpointUrl, type Endpoint, type ResponseOf } from '../../shared/api/endpoint';
import { reviewApi } from '../../shared/api/review';
import { createSession } from '../auth/sessions';
import { markQuiet } from '../http/quiet-requests';
import { insertUser } from '../users/user-queries';

/** The header a warm-up request carries its per-start secret in. */
const WARM_UP_HEADER = 'x-hqa-warm-up';

/**
 * How many claims (each given back at once) the warm-up makes: enough for V8 to compile the
 * per-request code past its interpreter. Claims on a server just started cost about 3 ms of CPU
 * each and 1.2 ms once warm (bench/review.ts): a first burst of 50 reviewers paid the difference.
 */
export const HTTP_WARM_UP_ROUNDS = 100;

export interface HttpWarmUp {
  /** Claims the warm-up made (zero when the queue had nothing to claim). */
  claims: number;
  /** Requests it sent. */
  requests: number;
  ms: number;
}

export interface HttpWarmUpInput {
  db: Db;
  /** The session cookie's name (`auth/session-cookie.ts`: it follows HQA_COOKIE_SECURE). */
  cookieName: string;
  /** Where the server listens. */
  url: string;
  /** The app that will serve. */
  app: RequestListener;
  /** What answers everyone else while the warm-up runs (the server is still starting). */
  others: RequestListener;
  /** Makes `listener` the server's request listener. */
  serve: (listener: RequestListener) => void;
  rounds?: number;
}

/**
 * Before the server takes its first request, claims and gives back items over real HTTP, as a
 * reviewer's page does, so that the first reviewers are served by warm code: the HTTP parser,
 * the middleware, the session check, the claim's transaction and the answer's JSON. The
 * warm-up's reviewer, session, leases and audit entries live in one transaction that is rolled
 * back (nothing of it is stored); its requests carry a secret made for this start and are left
 * out of the request log; every other request is answered by `others` until it is done.
 * Events it publishes come in claim/release pairs, so a page already connected sees no change.
 */
export async function warmReviewOverHttp(input: HttpWarmUpInput): Promise<HttpWarmUp> {
  const { db, cookieName, url, app, others, serve, rounds = HTTP_WARM_UP_ROUNDS } = input;
  const secret = randomBytes(24).toString('base64url');
  serve((req, res) => {
    if (req.headers[WARM_UP_HEADER] !== secret) return others(req, res);
    markQuiet(req);
    app(req, res);
  });
  const started = performance.now();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await rolledBack(db, async () => {
      // Not a person: no password opens it (the hash is not one), and it is rolled back with the rest.
      const reviewer = insertUser(db, `warm-up-${secret.slice(0, 12)}`, 'reviewer', '!');
      if (reviewer === null) throw new Error('the warm-up reviewer could not be made');
      const { token } = createSession(db, reviewer.id);
      const headers = { cookie: `${cookieName}=${token}`, [WARM_UP_HEADER]: secret };
      const send = async <E extends Endpoint>(endpoint: E, path: string, body: unknown): Promise<ResponseOf<E>> =>
        parseAnswer(endpoint, path, await post(agent, new URL(path, url), headers, body));
      let claims = 0;
      let requests = 0;
      for (let round = 0; round < rounds; round++) {
        const { task } = await send(reviewApi.next, endpointUrl(reviewApi.next), {});
        requests++;
        if (task === null) continue;
        claims++;
        await send(reviewApi.release, endpointUrl(reviewApi.release, { params: { id: task.item.id } }), { lease_token: task.lease_token });
        requests++;
      }
      return { claims, requests, ms: performance.now() - started };
    });
  } finally {
    agent.destroy();
  }
}

/** The answer as the endpoint's response schema reads it. */
function parseAnswer<E extends Endpoint>(endpoint: E, path: string, answer: string): ResponseOf<E> {
  const schema = endpoint.schemas.response;
  if (schema === 'file') throw new Error(`warm-up POST ${path}: the endpoint answers no JSON`);
  try {
    return schema.parse(JSON.parse(answer)) as ResponseOf<E>;
  } catch (error) {
    throw new Error(`warm-up POST ${path}: the answer is not the endpoint's`, { cause: error });
  }
}

/** One JSON POST; its answer's text, or an error naming the path and status. */
function post(agent: Agent, url: URL, headers: Record<string, string>, body: unknown): Promise<string> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answer = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200) resolve(answer);
        else reject(new Error(`warm-up POST ${url.pathname}: ${res.statusCode} ${answer.slice(0, 200)}`));
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}
